# Every primitive of issue 22's list against CUB on one H200, at 2^24 with
# uniform and entropy-reduced keys (entropy:2, the AND of two random words:
# about 0.81 bits of entropy per bit), then the sorts at 2^28 with the
# entropy-reduced keys; bench_all and bench_cub alternated, two rounds at
# 2^24. Build of c1506eb. From the repository root with gpubuild-bench
# carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/p24 $d/s28
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
P=scan_inclusive,reduce,select_if,partition,sort_keys,sort_pairs,segscan,segreduce,merge_keys,segsort_small,segsort_large,histogram,rle,reduce_by_key,topk,sort_keys64,sort_pairs64
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 24 --max-log2 24 --prims $P --dists uniform,entropy:2"
for r in 1 2; do
  timeout 150 $B/bench_all $S --no-boost --no-host --csv $d/p24/scankit_r$r.csv 2>>$d/p24/log; echo "scankit $r rc=$?"
  timeout 100 $B/bench_cub $S --csv $d/p24/cub_r$r.csv 2>>$d/p24/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/p24 | tee $d/p24/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --dists entropy:2"
timeout 200 $B/bench_all $S --no-boost --no-host --csv $d/s28/scankit_r1.csv 2>>$d/s28/log; echo "scankit 28 rc=$?"
timeout 100 $B/bench_cub $S --csv $d/s28/cub_r1.csv 2>>$d/s28/log; echo "cub 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/s28 | tee $d/s28/table.md
grep -i -E "wrong|mismatch" $d/p24/log $d/s28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

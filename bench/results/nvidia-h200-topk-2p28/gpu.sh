set -u
# Top-k (k = 1000, sorted output) against the full radix sort of the same
# keys, scankit's and CUB's, at 2^26 and 2^28 (uniform uint32), two rounds.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/topk; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 26 --max-log2 28 --step 2 --prims topk,sort_keys --dists uniform"
for r in 1 2; do
  timeout 130 $B/bench_all $S --no-boost --no-host --csv $d/scankit_r$r.csv 2>>$d/log; echo "scankit $r rc=$?"
done
timeout 100 $B/bench_cub $S --csv $d/cub_r1.csv 2>>$d/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -h "wrong result" $d/log | sort | uniq -c
cd $OUT && tar czf topk.tgz topk && rm -rf topk

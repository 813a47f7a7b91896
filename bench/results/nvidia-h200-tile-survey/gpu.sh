set -u
# A survey: every GPU-shape tile forced by --tile (work-group x items, for
# every kernel family the primitive runs) against the defaults, one round,
# uniform uint32, 2^20-2^24, CUB once. Only large differences are worth
# a second look. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/survey; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --min-log2 20 --max-log2 24 --step 2 --prims merge_keys,merge_pairs,sort_less,partition,segsort_small,segsort_large,histogram,topk,rle,reduce_by_key --dists uniform"
timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/default_r1.csv 2>>$d/log; echo "default rc=$?"
for t in 128x8 256x8 128x16 64x16 32x32; do
  timeout 55 $B/bench_all $S --no-boost --no-host --tile $t --csv $d/t$t\_r1.csv 2>>$d/log; echo "$t rc=$?"
done
timeout 50 $B/bench_cub $S --csv $d/cub_r1.csv 2>>$d/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -h "wrong result" $d/log | sort | uniq -c
cd $OUT && tar czf survey.tgz survey && rm -rf survey

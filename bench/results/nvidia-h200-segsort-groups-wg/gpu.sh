# The segmented sort's long segments by a work-group each at other
# work-group sizes (bench_all --tile sets the work-group and items for every
# primitive: the segments' sweep, a sweep's tile, and the short segments'
# tiles, which have no work here): SCANKIT_SEGSORT_GROUPS_FROM=2 at
# every size, segsort_large (segments of 65536-131072 keys), 2^20-2^26 in two
# alternated rounds, then 2^28 once each, and CUB. Build of 5e733ba.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc SCANKIT_SEGSORT_GROUPS_FROM=2
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/wg $d/wg28
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 20 --max-log2 26 --step 2 --prims segsort_large --dists uniform"
for r in 1 2; do
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/wg/default_r$r.csv 2>>$d/wg/log; echo "default $r rc=$?"
  for t in 512x8 512x16 1024x4 128x16; do
    timeout 60 $B/bench_all $S --no-boost --no-host --tile $t --csv $d/wg/t$t\_r$r.csv 2>>$d/wg/log; echo "$t $r rc=$?"
  done
done
timeout 60 $B/bench_cub $S --csv $d/wg/cub_r1.csv 2>>$d/wg/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/wg | tee $d/wg/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims segsort_large --dists uniform"
timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/wg28/default_r1.csv 2>>$d/wg28/log; echo "default 28 rc=$?"
timeout 100 $B/bench_all $S --no-boost --no-host --tile 512x8 --csv $d/wg28/t512x8_r1.csv 2>>$d/wg28/log; echo "512x8 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/wg28 | tee $d/wg28/table.md
grep -h "work-group size lowered\|items" $d/wg/log | sort | uniq -c | head
grep -i -E "wrong|mismatch" $d/wg/log $d/wg28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

set -u
# Segment totals by a work-group per segment with the offsets' check in
# the same launch (SCANKIT_SEG_GROUPS_CHECK_MAX: 0 = the check's own launch
# and word fill as before, 2048 = as built, 1048576 = every count of this
# run), three rounds alternated, CUB in every round; then the 64-bit sorts'
# tiles (default, --tile 256xI), two rounds, CUB in each. test_segreduce
# first. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d/seg $d/sort64
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 120 $T/test_segreduce -j4 ) > $d/test_segreduce.txt 2>&1; echo "test_segreduce rc=$?"; grep -E "Synthesis|real" $d/test_segreduce.txt
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims segreduce --dists uniform"
for r in 1 2 3; do
  for v in 0 2048 1048576; do
    SCANKIT_SEG_GROUPS_CHECK_MAX=$v timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/seg/max$v\_r$r.csv 2>>$d/seg/log; echo "seg $v $r rc=$?"
  done
  timeout 60 $B/bench_cub $S --csv $d/seg/cub_r$r.csv 2>>$d/seg/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/seg | tee $d/seg/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 24 --max-log2 26 --step 2 --prims sort_keys64,sort_pairs64 --dists uniform"
for r in 1 2; do
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/sort64/default_r$r.csv 2>>$d/sort64/log; echo "default $r rc=$?"
  for t in 256x8 256x11 256x12 256x16 128x16; do
    timeout 90 $B/bench_all $S --no-boost --no-host --tile $t --csv $d/sort64/t$t\_r$r.csv 2>>$d/sort64/log; echo "$t $r rc=$?"
  done
  timeout 90 $B/bench_cub $S --csv $d/sort64/cub_r$r.csv 2>>$d/sort64/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/sort64 | tee $d/sort64/table.md
grep -i -E "wrong|mismatch" $d/seg/log $d/sort64/log | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

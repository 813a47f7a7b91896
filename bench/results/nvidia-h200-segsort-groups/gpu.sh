# The segmented sort's large segments by a work-group each (sk__sort_segments)
# against the batch (SCANKIT_SEGSORT_GROUPS_FROM=0: the build before's path)
# and CUB, segsort_large (segments of 65536-131072 keys), 2^16-2^26 in two
# rounds, then 2^28 once; the sorts against the build before (bench_all_old,
# eacd1b8: the sweep kernels' place and scatter now shared helpers), two
# rounds. test_segsort and test_sort on the H200 first.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d/seg $d/seg28 $d/sort
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
for t in test_segsort test_sort; do
  ( time timeout 170 $T/$t -j4 ) > $d/$t.txt 2>&1; echo "$t rc=$?"; grep -E "Synthesis|real|FAIL" $d/$t.txt | head -5
done
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims segsort_large --dists uniform"
for r in 1 2; do
  SCANKIT_SEGSORT_GROUPS_FROM=0 timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/seg/batch_r$r.csv 2>>$d/seg/log; echo "batch $r rc=$?"
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/seg/default_r$r.csv 2>>$d/seg/log; echo "default $r rc=$?"
  SCANKIT_SEGSORT_GROUPS_FROM=2 timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/seg/groups_r$r.csv 2>>$d/seg/log; echo "groups $r rc=$?"
  timeout 60 $B/bench_cub $S --csv $d/seg/cub_r$r.csv 2>>$d/seg/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/seg | tee $d/seg/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims segsort_large --dists uniform"
SCANKIT_SEGSORT_GROUPS_FROM=0 timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/seg28/batch_r1.csv 2>>$d/seg28/log; echo "batch 28 rc=$?"
timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/seg28/default_r1.csv 2>>$d/seg28/log; echo "default 28 rc=$?"
timeout 60 $B/bench_cub $S --csv $d/seg28/cub_r1.csv 2>>$d/seg28/log; echo "cub 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/seg28 | tee $d/seg28/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --dists uniform"
for r in 1 2; do
  timeout 80 $B/bench_all_old $S --no-boost --no-host --csv $d/sort/old_r$r.csv 2>>$d/sort/log; echo "old $r rc=$?"
  timeout 80 $B/bench_all $S --no-boost --no-host --csv $d/sort/new_r$r.csv 2>>$d/sort/log; echo "new $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/sort | tee $d/sort/table.md
grep -i -E "wrong|mismatch" $d/seg/log $d/seg28/log $d/sort/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

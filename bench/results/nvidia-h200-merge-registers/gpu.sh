# The merge's tile with each run's next key in a register (one local read
# per output, loops at constant trip counts) against the build before
# (bench_all_old, eacd1b8: merge.cl as it was) and CUB, on one H200,
# 2^16-2^28 in steps of two, two rounds alternated; test_merge and
# test_sortby first. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/ab
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 gpubuild-bench/t/test_merge -j4 ) > $d/test_merge.txt 2>&1; echo "test_merge rc=$?"
( time timeout 150 gpubuild-bench/t/test_sortby -j4 ) > $d/test_sortby.txt 2>&1; echo "test_sortby rc=$?"
grep -h -E "Synthesis|FAIL" $d/test_*.txt | head
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --min-log2 16 --max-log2 28 --step 2 --prims merge_keys,merge_pairs,sort_less"
for r in 1 2; do
  timeout 100 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$?"
  timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$?"
  timeout 100 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

# Final build: the tiles' look-back carries the runs' totals (integer
# values, no join). Run-length encoding and reduce by key against the
# lifted pass (bench_all_old, eacd1b8) and CUB on one H200, 2^20-2^28, two
# rounds alternated; test_bykey and test_lookback_fallback first. From the
# repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run7; mkdir -p $d/ab
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 gpubuild-bench/t/test_bykey -j4 ) > $d/test_bykey.txt 2>&1; echo "test_bykey rc=$?"
( time timeout 100 gpubuild-bench/t/test_lookback_fallback -j4 ) > $d/test_lookback_fallback.txt 2>&1; echo "test_lookback_fallback rc=$?"
grep -h -E "Synthesis|FAIL" $d/test_*.txt | head
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 20 --max-log2 28 --prims rle,reduce_by_key"
for r in 1 2; do
  timeout 40 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$?"
  timeout 40 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$?"
  timeout 40 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run7.tgz run7 && rm -rf run7

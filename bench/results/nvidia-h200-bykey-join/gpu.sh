# Run-length encoding and reduce by key: the tiles' joins side by side in
# one binary (SCANKIT_BYKEY_SCAN_JOIN_FROM), and CUB, on one H200, 2^22-2^28
# in steps of one, three rounds alternated; test_bykey and
# test_lookback_fallback first. From the repository root with
# gpubuild-bench carried.
#   tuned : the build's crossing (the look-back's carry below it, the lifted
#           scan's join from it)
#   carry : the crossing at 2^32 (the carry at every size, as before)
#   scan  : the crossing at 1 (the lifted scan's join at every tiled size)
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/ab
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 gpubuild-bench/t/test_bykey -j4 ) > $d/test_bykey.txt 2>&1; echo "test_bykey rc=$?"
( time timeout 100 gpubuild-bench/t/test_lookback_fallback -j4 ) > $d/test_lookback_fallback.txt 2>&1; echo "test_lookback_fallback rc=$?"
grep -h -E "Synthesis|FAIL" $d/test_*.txt | head
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 22 --max-log2 28 --step 1 --prims rle,reduce_by_key"
for r in 1 2 3; do
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/ab/tuned_r$r.csv 2>>$d/ab/log; echo "tuned $r rc=$?"
  SCANKIT_BYKEY_SCAN_JOIN_FROM=4294967296 timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/ab/carry_r$r.csv 2>>$d/ab/log; echo "carry $r rc=$?"
  SCANKIT_BYKEY_SCAN_JOIN_FROM=1 timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/ab/scan_r$r.csv 2>>$d/ab/log; echo "scan $r rc=$?"
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

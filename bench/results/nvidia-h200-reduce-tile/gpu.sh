set -u
# The reduce's own tile on the H200 (SK_FAMILY_REDUCE: 256 x 16 for 4-byte
# elements, the scan's 256 x 32 before): test_scan's reduce suites and
# test_interval's reduce on the H200, then bench_all's reduce, uniform
# uint32, 2^16-2^28: as built (new), with the scan's tile forced for every
# primitive (--tile 256x32: the reduce as before), and as built with
# one-launch reduces up to 4096 tiles (SCANKIT_REDUCE_LAST_MAX_TILES),
# three rounds alternated, CUB in every run. From the repository root with
# gpubuild-bench (bench/run_gpu.sh --prepare) and the tests in gpubuild-bench/t.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 $T/test_scan --filter='reduce*/*' ) > $d/test_scan.txt 2>&1; echo "test_scan rc=$?"; grep -E "Synthesis|real" $d/test_scan.txt
( time timeout 150 $T/test_interval --filter='*reduce*' ) > $d/test_interval.txt 2>&1; echo "test_interval rc=$?"; grep -E "Synthesis|real" $d/test_interval.txt
S="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 28 --step 2 --prims reduce --dists uniform"
for r in 1 2 3; do
  timeout 60 $B/bench_all $S --csv $d/new_r$r.csv 2>>$d/log; echo "new $r rc=$?"
  timeout 60 $B/bench_all $S --tile 256x32 --csv $d/old_r$r.csv 2>>$d/log; echo "old $r rc=$?"
  SCANKIT_REDUCE_LAST_MAX_TILES=4096 timeout 60 $B/bench_all $S --csv $d/last4096_r$r.csv 2>>$d/log; echo "last4096 $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch" $d/log | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

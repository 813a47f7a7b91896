# The segmented sort's short segments of 32-bit keys ranked on 4-byte words
# (f0f79a2) against the build before (bench_all_old, eacd1b8: 8-byte words)
# and CUB, segsort_small (segments of 1-64 keys), uniform uint32 keys,
# 2^16-2^26 in two alternated rounds, then 2^28 once each. test_segsort on
# the H200 first. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d/small $d/small28
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 120 $T/test_segsort -j4 ) > $d/test_segsort.txt 2>&1; echo "test_segsort rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_segsort.txt | head -5
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims segsort_small --dists uniform"
for r in 1 2; do
  timeout 60 $B/bench_all_old $S --no-boost --no-host --csv $d/small/old_r$r.csv 2>>$d/small/log; echo "old $r rc=$?"
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/small/new_r$r.csv 2>>$d/small/log; echo "new $r rc=$?"
  timeout 60 $B/bench_cub $S --csv $d/small/cub_r$r.csv 2>>$d/small/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/small | tee $d/small/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims segsort_small --dists uniform"
timeout 100 $B/bench_all_old $S --no-boost --no-host --csv $d/small28/old_r1.csv 2>>$d/small28/log; echo "old 28 rc=$?"
timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/small28/new_r1.csv 2>>$d/small28/log; echo "new 28 rc=$?"
timeout 60 $B/bench_cub $S --csv $d/small28/cub_r1.csv 2>>$d/small28/log; echo "cub 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/small28 | tee $d/small28/table.md
grep -i -E "wrong|mismatch" $d/small/log $d/small28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

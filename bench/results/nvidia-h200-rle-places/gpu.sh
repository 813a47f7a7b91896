# Run-length encoding by unique's compaction with the runs' places, then
# the lengths from the places (the working tree after 6a44ac2) against the
# build before (bench_all_old, eacd1b8: the lifted one-pass scan) and CUB,
# rle (uniform uint32 keys in runs of 1-2048), 2^16-2^26 in two alternated
# rounds, then 2^28 once each; also select_if and reduce_by_key for
# reference (unchanged). test_bykey on the H200 first. From the repository
# root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d/rle $d/rle28
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 120 $T/test_bykey -j4 ) > $d/test_bykey.txt 2>&1; echo "test_bykey rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_bykey.txt | head -5
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims rle,reduce_by_key,select_if --dists uniform"
for r in 1 2; do
  timeout 80 $B/bench_all_old $S --no-boost --no-host --csv $d/rle/old_r$r.csv 2>>$d/rle/log; echo "old $r rc=$?"
  timeout 80 $B/bench_all $S --no-boost --no-host --csv $d/rle/new_r$r.csv 2>>$d/rle/log; echo "new $r rc=$?"
  timeout 80 $B/bench_cub $S --csv $d/rle/cub_r$r.csv 2>>$d/rle/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/rle | tee $d/rle/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims rle --dists uniform"
timeout 100 $B/bench_all_old $S --no-boost --no-host --csv $d/rle28/old_r1.csv 2>>$d/rle28/log; echo "old 28 rc=$?"
timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/rle28/new_r1.csv 2>>$d/rle28/log; echo "new 28 rc=$?"
timeout 60 $B/bench_cub $S --csv $d/rle28/cub_r1.csv 2>>$d/rle28/log; echo "cub 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/rle28 | tee $d/rle28/table.md
grep -i -E "wrong|mismatch" $d/rle/log $d/rle28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

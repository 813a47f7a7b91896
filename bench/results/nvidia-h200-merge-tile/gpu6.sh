set -u
# As gpu5.sh, the searching tiles now a kernel of their own (no code of the
# search in the partition-launch kernel): the merge's splits searched by its
# own work-groups for passes of at most
# 512 parts (the build, "new") against 1263ea4 ("old": a partition launch
# before every merge) and CUB, two rounds alternated; the GPU suites of the
# merge with the build. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run6; mkdir -p $d/ab $d/big
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
C="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --dists uniform"
S="$C --min-log2 16 --max-log2 26 --step 2 --prims merge_keys,merge_pairs,sort_less"
for r in 1 2; do
  timeout 90 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$? $SECONDS s"
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$? $SECONDS s"
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$? $SECONDS s"
done
B2="$C --min-log2 28 --max-log2 28 --prims merge_keys,merge_pairs"
timeout 70 $B/bench_all_old $B2 --no-boost --no-host --csv $d/big/old_r1.csv 2>>$d/big/log; echo "big old rc=$? $SECONDS s"
timeout 70 $B/bench_all $B2 --no-boost --no-host --csv $d/big/new_r1.csv 2>>$d/big/log; echo "big new rc=$? $SECONDS s"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/big > $d/big/table.md 2>&1; cat $d/big/table.md
( cd gpubuild-bench/t && for t in test_merge test_sortby test_merge_runs; do timeout 100 ./$t --jobs 4 2>&1 | tail -2; done ) > $d/tests.log 2>&1; grep Synthesis $d/tests.log
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab > $d/ab/table.md 2>&1; cat $d/ab/table.md
grep -i -E "wrong|mismatch" $d/*/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run6.tgz run6 && rm -rf run6

set -u
# The merge's partition found by the merge's own work-groups (SK_MERGEX_FUSED
# with the host switch SKX_FUSED: no partition launch; merge-fused.diff)
# against the build's partition launch, with CUB, two rounds alternated.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run4; mkdir -p $d/ab $d/big
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
C="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --dists uniform"
S="$C --min-log2 16 --max-log2 26 --step 2 --prims merge_keys,merge_pairs,sort_less"
for r in 1 2; do
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/ab/part_r$r.csv 2>>$d/ab/log; echo "part $r rc=$? $SECONDS s"
  SKX_FUSED=1 SCANKIT_KERNEL_DEFINES=SK_MERGEX_FUSED timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/ab/fused_r$r.csv 2>>$d/ab/log; echo "fused $r rc=$? $SECONDS s"
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$? $SECONDS s"
done
B2="$C --min-log2 28 --max-log2 28 --prims merge_keys,merge_pairs"
timeout 70 $B/bench_all $B2 --no-boost --no-host --csv $d/big/part_r1.csv 2>>$d/big/log; echo "big part rc=$? $SECONDS s"
SKX_FUSED=1 SCANKIT_KERNEL_DEFINES=SK_MERGEX_FUSED timeout 70 $B/bench_all $B2 --no-boost --no-host --csv $d/big/fused_r1.csv 2>>$d/big/log; echo "big fused rc=$? $SECONDS s"
( cd gpubuild-bench/t && for t in test_merge test_sortby test_merge_runs; do SKX_FUSED=1 SCANKIT_KERNEL_DEFINES=SK_MERGEX_FUSED timeout 100 ./$t --jobs 4 2>&1 | tail -2; done ) > $d/tests.log 2>&1; grep Synthesis $d/tests.log
for x in ab big; do python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/$x > $d/$x/table.md 2>&1; cat $d/$x/table.md; done
grep -i -E "wrong|mismatch" $d/*/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run4.tgz run4 && rm -rf run4

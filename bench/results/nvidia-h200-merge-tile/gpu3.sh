set -u
# The merge with one local read per output, its struct keys by if-else (the
# build's, "new"), against ba6c2ca ("old", bench_all_old) and CUB, two
# rounds alternated; then the partition's launch in smaller work-groups
# (SKX_PART_WG, a temporary host switch of that build) and its k-ary search
# (SK_MERGEX_KARY, merge-kary.diff). From the repository root with
# gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run3; mkdir -p $d/ab $d/big $d/part
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
C="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --dists uniform"
S="$C --min-log2 20 --max-log2 26 --step 2 --prims merge_keys,merge_pairs,sort_less"
for r in 1 2; do
  timeout 90 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$? $SECONDS s"
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$? $SECONDS s"
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$? $SECONDS s"
done
B2="$C --min-log2 28 --max-log2 28 --prims merge_keys,merge_pairs"
timeout 70 $B/bench_all_old $B2 --no-boost --no-host --csv $d/big/old_r1.csv 2>>$d/big/log; echo "big old rc=$? $SECONDS s"
timeout 70 $B/bench_all $B2 --no-boost --no-host --csv $d/big/new_r1.csv 2>>$d/big/log; echo "big new rc=$? $SECONDS s"
timeout 60 $B/bench_cub $B2 --csv $d/big/cub_r1.csv 2>>$d/big/log; echo "big cub rc=$? $SECONDS s"
P="$C --min-log2 22 --max-log2 26 --step 2 --prims merge_keys,sort_less --no-boost --no-host"
for v in wg64:64: wg32:32: k4wg32:32:SK_MERGEX_KARY=4 k8wg32:32:SK_MERGEX_KARY=8; do
  IFS=: read -r name wg def <<<"$v"
  SKX_PART_WG=$wg SCANKIT_KERNEL_DEFINES="$def" timeout 60 $B/bench_all $P --csv $d/part/${name}_r1.csv 2>>$d/part/log; echo "part $name rc=$? $SECONDS s"
done
cp $d/ab/new_r1.csv $d/part/new_r1.csv; cp $d/ab/new_r2.csv $d/part/new_r2.csv
( cd gpubuild-bench/t && for t in test_merge test_sortby test_merge_runs; do timeout 100 ./$t --jobs 4 2>&1 | tail -2; done ) > $d/tests.log 2>&1; grep Synthesis $d/tests.log
for x in ab big part; do python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/$x > $d/$x/table.md 2>&1; cat $d/$x/table.md; done
grep -i -E "wrong|mismatch" $d/*/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run3.tgz run3 && rm -rf run3

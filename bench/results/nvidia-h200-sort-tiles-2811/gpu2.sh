set -u
# The final build (sorts: 8-byte keys' tiles, at most 8 items below 2^19
# keys; segment totals: the offsets' check in the work-groups' launch)
# against ff11588 (bench_all_old), 2^14-2^24, two rounds alternated with
# CUB; test_sort on the H200, and the CPU shape's buckets test with
# kernel variants (test_sort_dbg: a scratch build whose buckets' kernel
# takes SKX_* switches through SCANKIT_KERNEL_DEFINES).
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run3; mkdir -p $d/ab $d/dbg
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 $T/test_sort -j4 ) > $d/test_sort.txt 2>&1; echo "test_sort rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_sort.txt
for v in none SKX_SMALL_BITS SKX_PLAIN_PUT SKX_NO_RESTRICT SKX_NO_UNROLL SKX_NO_INLINE; do
  k=$v; [ $v = none ] && k=
  SCANKIT_CACHE_DIR=off SCANKIT_KERNEL_DEFINES="$k" timeout 60 $T/test_sort_dbg --filter 'sort/buckets*' > $d/dbg/$v.txt 2>&1; echo "dbg $v rc=$?"; grep -m3 -E "Synthesis|is 0x" $d/dbg/$v.txt
done
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 14 --max-log2 24 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64,segreduce --dists uniform"
for r in 1 2; do
  timeout 100 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$?"
  timeout 100 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$?"
  timeout 100 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -h "wrong result" $d/ab/log | sort | uniq -c
cd $OUT && tar czf run3.tgz run3 && rm -rf run3

set -u
# The tile kernel's segment search in local memory and the one-item kernels' work-group at 256
# (the build with both, the 8-byte words of keys up to 32 bits with their segment start on top, read a pair at a time, and lower_bound kept at 64) against the build before (bench_all_old = 7629339) and CUB:
# test_segsort, test_topk, test_search on the H200 first; segsort_small (segments of 1-64 keys),
# segsort_large, topk, lower_bound (uniform uint32) at 2^16-2^24 in two alternated
# rounds; segsort_small at 2^28 once each. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/${RUN:-run4}; mkdir -p $d/ab $d/small28
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
for t in test_segsort test_topk test_search; do
  ( time timeout 100 $T/$t -j4 ) > $d/$t.txt 2>&1; echo "$t rc=$?"; grep -E "Synthesis|FAIL" $d/$t.txt | head -3
done
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 24 --step 2 --prims segsort_small,segsort_large,topk,lower_bound --dists uniform"
for r in 1 2; do
  timeout 90 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$?"
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$?"
done
timeout 90 $B/bench_cub $S --csv $d/ab/cub_r1.csv 2>>$d/ab/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 28 --max-log2 28 --prims segsort_small --dists uniform"
timeout 60 $B/bench_all_old $S --no-boost --no-host --csv $d/small28/old_r1.csv 2>>$d/small28/log; echo "old 28 rc=$?"
timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/small28/new_r1.csv 2>>$d/small28/log; echo "new 28 rc=$?"
timeout 60 $B/bench_cub $S --csv $d/small28/cub_r1.csv 2>>$d/small28/log; echo "cub 28 rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/small28 | tee $d/small28/table.md
grep -i -E "wrong|error" $d/ab/log $d/small28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf ${RUN:-run4}.tgz ${RUN:-run4} && rm -rf ${RUN:-run4}

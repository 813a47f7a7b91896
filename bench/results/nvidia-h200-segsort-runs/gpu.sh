set -u
# The segmented sort's short segments ranked by sorted runs and blocks (keys of up to 32 bits)
# against the build before (bench_all_old) and CUB: test_segsort on the H200 first; each launch's
# device time at 2^28 (SCANKIT_LOG=1 profile lines) with the one-item-a-work-item kernels' work-group
# at 64 (as built), 256 and 1024 (SKX_EACH_WG, an experiment's knob); then segsort_small (segments
# of 1-64 keys, uniform uint32) 2^16-2^26 in two alternated rounds and 2^28 once each.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/${RUN:-run1}; mkdir -p $d/small $d/small28 $d/tl
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 150 $T/test_segsort -j4 ) > $d/test_segsort.txt 2>&1; echo "test_segsort rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_segsort.txt | head -5
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --repeats 5 --min-repeats 5 --warmups 2 --dists uniform --prims segsort_small --min-log2 28 --max-log2 28"
for wg in 64 256 1024; do
  SKX_EACH_WG=$wg SCANKIT_LOG=1 timeout 100 $B/bench_all $C --csv $d/tl/each$wg.csv > $d/tl/each$wg.log 2>&1; echo "each $wg rc=$?"
  grep "profile: launch" $d/tl/each$wg.log | tail -3 | sed "s/^/each$wg /"
done
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
grep -i -E "wrong|error" $d/small/log $d/small28/log | grep -v " 0 wrong" | head
cd $OUT && tar czf ${RUN:-run1}.tgz ${RUN:-run1} && rm -rf ${RUN:-run1}

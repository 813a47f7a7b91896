set -u
# The merge's tile and the comparator sort's first pass, variants chosen by
# SCANKIT_KERNEL_DEFINES (the knobs of merge-tile.diff) in one binary, with
# CUB; then each launch's device time of one comparator sort at 2^24. From
# the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/ab $d/tl
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --min-log2 22 --max-log2 26 --step 2 --dists uniform --prims merge_keys,merge_pairs,sort_less --no-boost --no-host"
ALL="SK_MERGEX_ONELOAD SK_MERGEX_FIXED SK_MERGEX_DIRECT"
run() { # name, defines, extra args
  SCANKIT_KERNEL_DEFINES="$2" timeout 90 $B/bench_all $S $3 --csv $d/ab/$1.csv 2>>$d/ab/log; echo "$1 rc=$? $SECONDS s"
}
run base_r1 "" ""
run oneload_r1 "SK_MERGEX_ONELOAD" ""
run fixed_r1 "SK_MERGEX_FIXED" ""
run direct_r1 "SK_MERGEX_DIRECT" ""
run all_r1 "$ALL" ""
timeout 60 $B/bench_cub $S --csv $d/ab/cub_r1.csv 2>>$d/ab/log; echo "cub rc=$? $SECONDS s"
run base_r2 "" ""
run all_r2 "$ALL" ""
run all512x8_r1 "$ALL" "--tile 512x8"
run all128x16_r1 "$ALL" "--tile 128x16"
for v in base all; do
  D=""; [ $v = all ] && D="$ALL"
  SCANKIT_KERNEL_DEFINES="$D" SCANKIT_LOG=1 timeout 60 $B/bench_all --serial-max-log2 10 --qsort-max-log2 10 --repeats 3 --min-repeats 3 --warmups 2 --dists uniform --no-boost --no-host --min-log2 24 --max-log2 24 --prims sort_less --csv $d/tl/$v.csv > $d/tl/$v.log 2>&1; echo "tl $v rc=$?"
done
( cd gpubuild-bench/t && for t in test_merge test_sortby; do SCANKIT_KERNEL_DEFINES="$ALL" timeout 150 ./$t --jobs 4 2>&1 | tail -3; done ) > $d/tests.log 2>&1; echo "tests: $(grep -c Synthesis $d/tests.log)"; cat $d/tests.log | grep Synthesis
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab > $d/ab/table.md 2>&1; cat $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
for v in base all; do echo "== $v"; grep -E "profile: launch" $d/tl/$v.log | tail -20; done
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

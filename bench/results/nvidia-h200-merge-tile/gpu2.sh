set -u
# The merge with one local read per output (the build's default now) and
# the partition's k-ary search (SK_MERGEX_KARY=K, the knob of
# merge-kary.diff), tiles by --tile, with CUB; two rounds alternated. From
# the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run2; mkdir -p $d/ab $d/big
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
C="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --dists uniform"
S="$C --min-log2 20 --max-log2 26 --step 2 --prims merge_keys,merge_pairs,sort_less"
run() { # name, defines, extra args
  SCANKIT_KERNEL_DEFINES="$2" timeout 90 $B/bench_all $S --no-boost --no-host $3 --csv $d/ab/$1.csv 2>>$d/ab/log; echo "$1 rc=$? $SECONDS s"
}
for r in 1 2; do
  run base_r$r "" ""
  run k8_r$r "SK_MERGEX_KARY=8" ""
  run k16_r$r "SK_MERGEX_KARY=16" ""
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub rc=$? $SECONDS s"
done
run k8t256x8_r1 "SK_MERGEX_KARY=8" "--tile 256x8"
run k8t512x8_r1 "SK_MERGEX_KARY=8" "--tile 512x8"
run k8t128x16_r1 "SK_MERGEX_KARY=8" "--tile 128x16"
run k8t256x24_r1 "SK_MERGEX_KARY=8" "--tile 256x24"
B2="$C --min-log2 28 --max-log2 28 --prims merge_keys,merge_pairs"
for v in base k8; do D=""; [ $v = k8 ] && D="SK_MERGEX_KARY=8"
  SCANKIT_KERNEL_DEFINES="$D" timeout 70 $B/bench_all $B2 --no-boost --no-host --csv $d/big/${v}_r1.csv 2>>$d/big/log; echo "big $v rc=$? $SECONDS s"; done
timeout 60 $B/bench_cub $B2 --csv $d/big/cub_r1.csv 2>>$d/big/log; echo "big cub rc=$? $SECONDS s"
( cd gpubuild-bench/t && for t in test_merge test_sortby test_merge_runs; do SCANKIT_KERNEL_DEFINES="SK_MERGEX_KARY=8" timeout 100 ./$t --jobs 4 2>&1 | tail -2; done ) > $d/tests.log 2>&1; grep Synthesis $d/tests.log
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab > $d/ab/table.md 2>&1; cat $d/ab/table.md
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/big > $d/big/table.md 2>&1; cat $d/big/table.md
grep -i -E "wrong|mismatch" $d/ab/log $d/big/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run2.tgz run2 && rm -rf run2

# The partitions against CUB on one H200, 2^16-2^28 (steps of two),
# uniform and entropy:2 keys, two rounds alternated; test_compact first.
# From the repository root with gpubuild-bench carried.
#   tuned   : sk_partition as built, sk_partition_reversed, select_if
#   onepass : sk_partition by the one pass and the reversal at every size
#   steps   : sk_partition by count, scan and write at every size
#   cub     : DevicePartition::If (rejected reversed) for both rows, DeviceSelect::If
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run1; mkdir -p $d/ab
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 240 gpubuild-bench/t/test_compact -j4 ) > $d/test_compact.txt 2>&1; echo "test_compact rc=$?"
grep -h -E "Synthesis|FAIL" $d/test_*.txt | head
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --min-log2 16 --max-log2 28 --step 2 --dists uniform,entropy:2"
for r in 1 2; do
  timeout 90 $B/bench_all $S --prims partition,partition_reversed,select_if --no-boost --no-host --csv $d/ab/tuned_r$r.csv 2>>$d/ab/log; echo "tuned $r rc=$?"
  SCANKIT_PARTITION_ONE_PASS_BELOW=8589934592 timeout 60 $B/bench_all $S --prims partition --no-boost --no-host --csv $d/ab/onepass_r$r.csv 2>>$d/ab/log; echo "onepass $r rc=$?"
  SCANKIT_PARTITION_ONE_PASS_BELOW=1 timeout 60 $B/bench_all $S --prims partition --no-boost --no-host --csv $d/ab/steps_r$r.csv 2>>$d/ab/log; echo "steps $r rc=$?"
  timeout 90 $B/bench_cub $S --prims partition,partition_reversed,select_if --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

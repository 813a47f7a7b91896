set -u
# Every primitive against CUB at 2^16-2^20 (uniform uint32), one round each,
# after the merge's searching tiles. From the repository root with
# gpubuild-bench carried (bench/run_gpu.sh --prepare).
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/small; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.1 --dists uniform --min-log2 16 --max-log2 20 --step 2"
timeout 200 $B/bench_all $S --no-boost --no-host --csv $d/scankit_r1.csv 2>>$d/log; echo "scankit rc=$? $SECONDS s"
timeout 150 $B/bench_cub $S --csv $d/cub_r1.csv 2>>$d/log; echo "cub rc=$? $SECONDS s"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d > $d/table.md 2>&1; cat $d/table.md
grep -i -E "wrong|mismatch" $d/log | grep -v " 0 wrong" | head
cd $OUT && tar czf small.tgz small && rm -rf small

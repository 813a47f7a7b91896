set -u
# As gpu.sh's bench part, with CUB (bench_cub) in every round: new (the
# reduce's own tile), old (--tile 256x32), cub; three rounds alternated.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 28 --step 2 --prims reduce --dists uniform"
for r in 1 2 3; do
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/new_r$r.csv 2>>$d/log; echo "new $r rc=$?"
  timeout 60 $B/bench_all $S --no-boost --no-host --tile 256x32 --csv $d/old_r$r.csv 2>>$d/log; echo "old $r rc=$?"
  timeout 60 $B/bench_cub $S --csv $d/cub_r$r.csv 2>>$d/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch" $d/log | head
cd $OUT && tar czf run2.tgz run2 && rm -rf run2

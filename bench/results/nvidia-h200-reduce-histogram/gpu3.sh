set -u
# The reduce (uint32 add) four ways, alternated three times, 2^14-2^28: e80d069 (old); as built
# (new: one launch up to SCANKIT_REDUCE_LAST_MAX_TILES tiles, whole tiles of the integer
# built-ins folded straight from global memory by vload4); the same with uint4 loads (deref); and
# the one-launch bound at 0 (two launches), 2048, 8192 and 32768 tiles; CUB in the same command.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r3; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
A="$C --min-log2 14 --max-log2 28 --step 2 --prims reduce"
for r in 1 2 3; do
  timeout 30 $B/bench_all_old $A --csv $d/old_r$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 30 $B/bench_all $A --csv $d/new_r$r.csv 2>>$d/log; echo "new$r rc=$?"
  timeout 30 $B/bench_all_deref $A --csv $d/deref_r$r.csv 2>>$d/log; echo "deref$r rc=$?"
  for m in 0 2048 8192 32768; do
    SCANKIT_REDUCE_LAST_MAX_TILES=$m timeout 30 $B/bench_all $A --csv $d/max$m\_r$r.csv 2>>$d/log; echo "max$m $r rc=$?"
  done
done
timeout 60 $B/bench_cub --min-log2 14 --max-log2 28 --step 2 --prims reduce --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md

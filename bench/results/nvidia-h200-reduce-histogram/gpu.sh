set -u
# The reduce in one launch and the histogram's rows summed by columns (new) against e80d069
# (old), alternated twice, reduce, histogram and top-k at 2^16-2^24 (2^26-2^28 once); the reduce's
# one-launch bound swept (SCANKIT_REDUCE_LAST_MAX_TILES: 0 = two launches, 32768 = one launch up to
# 2^27 elements); CUB's reduce, histogram and sort in the same command.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
A="$C --min-log2 16 --max-log2 24 --step 2"
for r in 1 2; do
  timeout 80 $B/bench_all_old $A --prims reduce,histogram,topk --csv $d/old_r$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 80 $B/bench_all $A --prims reduce,histogram,topk --csv $d/new_r$r.csv 2>>$d/log; echo "new$r rc=$?"
  SCANKIT_REDUCE_LAST_MAX_TILES=0 timeout 40 $B/bench_all $C --min-log2 16 --max-log2 26 --step 2 --prims reduce --csv $d/new-two_r$r.csv 2>>$d/log; echo "two$r rc=$?"
  SCANKIT_REDUCE_LAST_MAX_TILES=32768 timeout 40 $B/bench_all $C --min-log2 16 --max-log2 26 --step 2 --prims reduce --csv $d/new-one32k_r$r.csv 2>>$d/log; echo "one$r rc=$?"
done
timeout 40 $B/bench_all_old $C --min-log2 26 --max-log2 28 --prims reduce,histogram --csv $d/old_big.csv 2>>$d/log; echo "old_big rc=$?"
timeout 40 $B/bench_all $C --min-log2 26 --max-log2 28 --prims reduce,histogram --csv $d/new_big.csv 2>>$d/log; echo "new_big rc=$?"
timeout 100 $B/bench_cub --min-log2 16 --max-log2 28 --step 2 --prims reduce,histogram,sort_keys --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch|error" $d/log | head

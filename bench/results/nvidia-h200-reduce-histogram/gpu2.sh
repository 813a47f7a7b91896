set -u
# The one-sweep sort's read-back of the keys' bounds (which digits to skip): from 2^22 keys as
# built (--sort-skip-from 4194304) against never (2^40), uniform keys (no constant digit),
# and equal keys (every digit constant: the most a skip can save),
# 2^20-2^25, alternated twice.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r2; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
A="$C --min-log2 20 --max-log2 25 --step 1 --prims sort_keys,sort_pairs --dists uniform,equal"
for r in 1 2; do
  timeout 80 $B/bench_all $A --sort-skip-from 4194304 --csv $d/skip22_r$r.csv 2>>$d/log; echo "skip22 $r rc=$?"
  timeout 80 $B/bench_all $A --sort-skip-from 1099511627776 --csv $d/never_r$r.csv 2>>$d/log; echo "never $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md

set -u
# (1) test_sort on the H200 with sweeps over constant digits copying their tiles;
# (2) the sort with the keys' bounds read back from 2^22 (as e80d069 and as built), from 2^25,
# from 2^26 and never, e80d069 (old) alongside, uniform and equal keys, 2^20-2^26, alternated
# twice; (3) the reduce's tiles swept (--tile WxI) at 2^20-2^28.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/r4; mkdir -p $d
timeout 240 $T/test_sort > $d/test_sort.txt 2>&1; echo "test_sort rc=$?"; tail -1 $d/test_sort.txt
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
A="$C --min-log2 20 --max-log2 26 --step 1 --prims sort_keys,sort_pairs --dists uniform,equal"
for r in 1 2; do
  timeout 60 $B/bench_all_old $A --csv $d/old_r$r.csv 2>>$d/log; echo "old $r rc=$?"
  for f in 4194304 33554432 67108864 1099511627776; do
    timeout 60 $B/bench_all $A --sort-skip-from $f --csv $d/skip$f\_r$r.csv 2>>$d/log; echo "skip$f $r rc=$?"
  done
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
e=$d/tiles; mkdir -p $e
for r in 1 2; do
  for t in 256x32 256x64 512x16 512x32 1024x16 128x64 256x16; do
    timeout 30 $B/bench_all $C --dists uniform --min-log2 20 --max-log2 28 --step 2 --prims reduce --tile $t --csv $e/t$t\_r$r.csv 2>>$d/log; echo "tile $t $r rc=$?"
  done
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $e | tee $e/table.md
grep -i -E "wrong|mismatch" $d/log | head

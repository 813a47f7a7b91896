set -u
# The 64-bit sorts' tiles (NVIDIA rows: 8-byte keys 16 items, pairs 11)
# against the build before (bench_all_old, ff11588), 2^16-2^26, two rounds
# alternated with CUB; then the 32-bit sorts' tile at small sizes
# (default 256 x 16 / 17, --tile 256x4, 256x8, 128x8, 128x16), 2^14-2^22,
# two rounds with CUB. test_sort and test_segreduce on the H200 first.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run2; mkdir -p $d/sort64 $d/small
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
for t in test_sort test_segreduce; do
  ( time timeout 150 $T/$t -j4 ) > $d/$t.txt 2>&1; echo "$t rc=$?"; grep -E "Synthesis|real" $d/$t.txt
done
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 16 --max-log2 26 --step 2 --prims sort_keys64,sort_pairs64 --dists uniform"
for r in 1 2; do
  timeout 90 $B/bench_all_old $S --no-boost --no-host --csv $d/sort64/old_r$r.csv 2>>$d/sort64/log; echo "old $r rc=$?"
  timeout 90 $B/bench_all $S --no-boost --no-host --csv $d/sort64/new_r$r.csv 2>>$d/sort64/log; echo "new $r rc=$?"
  timeout 90 $B/bench_cub $S --csv $d/sort64/cub_r$r.csv 2>>$d/sort64/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/sort64 | tee $d/sort64/table.md
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 14 --max-log2 22 --step 2 --prims sort_keys,sort_pairs --dists uniform"
for r in 1 2; do
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/small/default_r$r.csv 2>>$d/small/log; echo "default $r rc=$?"
  for t in 256x4 256x8 128x8 128x16; do
    timeout 60 $B/bench_all $S --no-boost --no-host --tile $t --csv $d/small/t$t\_r$r.csv 2>>$d/small/log; echo "$t $r rc=$?"
  done
  timeout 60 $B/bench_cub $S --csv $d/small/cub_r$r.csv 2>>$d/small/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/small | tee $d/small/table.md
grep -i -E "wrong|mismatch" $d/sort64/log $d/small/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run2.tgz run2 && rm -rf run2

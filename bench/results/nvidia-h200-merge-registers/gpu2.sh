# gpu.sh cut down (its run timed out: every distribution, and sort_less, at
# every size): the merges of uniform keys only, 2^20-2^28 in steps of two,
# one round, old (eacd1b8) / new / CUB. From the repository root with
# gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run2; mkdir -p $d/ab
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --min-log2 20 --max-log2 28 --step 2 --dists uniform --prims merge_keys,merge_pairs"
for r in 1; do
  timeout 60 $B/bench_all_old $S --no-boost --no-host --csv $d/ab/old_r$r.csv 2>>$d/ab/log; echo "old $r rc=$?"
  timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/ab/new_r$r.csv 2>>$d/ab/log; echo "new $r rc=$?"
  timeout 60 $B/bench_cub $S --csv $d/ab/cub_r$r.csv 2>>$d/ab/log; echo "cub $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/ab | tee $d/ab/table.md
grep -i -E "wrong|mismatch" $d/ab/log | grep -v " 0 wrong" | head
cd $OUT && tar czf run2.tgz run2 && rm -rf run2

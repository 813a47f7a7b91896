set -u
# The constant-digit test read from the digit count (a word per digit after the starts) before
# the sweeps take their tile number, branching after it: test_sort on the H200, then the sorts against
# e80d069 (old), uniform and equal keys, 2^16-2^26, alternated twice.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/r7; mkdir -p $d
( time timeout 200 $T/test_sort ) > $d/test_sort.txt 2>&1; echo "test_sort rc=$?"; grep -E "Synthesis|real" $d/test_sort.txt
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
S="$C --min-log2 16 --max-log2 26 --step 2 --prims sort_keys,sort_pairs --dists uniform,equal"
for r in 1 2; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 60 $x $S --csv $d/$v\_r$r.csv 2>>$d/log; echo "$v sorts $r rc=$?"
  done
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch" $d/log | head

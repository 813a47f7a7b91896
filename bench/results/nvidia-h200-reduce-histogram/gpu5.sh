set -u
# The build of this change set (new: reduce in one launch, histogram columns, sweeps over a
# constant digit copying their tiles, the keys' bounds read back from 2^26) against e80d069 (old),
# alternated twice: sorts (keys, pairs, 64-bit keys and pairs) at 2^16-2^26, uniform and equal
# keys; top-k, reduce and histogram at 2^16-2^24; CUB's sorts on the same keys; test_sort first.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/r5; mkdir -p $d
timeout 240 $T/test_sort > $d/test_sort.txt 2>&1; echo "test_sort rc=$?"; tail -1 $d/test_sort.txt
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
S="$C --min-log2 16 --max-log2 26 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --dists uniform,equal"
P="$C --min-log2 16 --max-log2 24 --step 2 --prims topk,reduce,histogram --dists uniform"
for r in 1 2; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 90 $x $S --csv $d/$v\_r$r.csv 2>>$d/log; echo "$v sorts $r rc=$?"
    timeout 40 $x $P --csv $d/$v\_p_r$r.csv 2>>$d/log; echo "$v prims $r rc=$?"
  done
done
timeout 150 $B/bench_cub --min-log2 16 --max-log2 26 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64,reduce,histogram --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
for f in $d/new_p_r*.csv $d/old_p_r*.csv; do mv $f ${f/_p_r/_r9}; done 2>/dev/null
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch" $d/log | head

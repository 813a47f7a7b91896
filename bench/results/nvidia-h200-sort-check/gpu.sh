set -u
# The one-sweep sort's per-sweep check for a digit every key shares, on
# (SCANKIT_SORT_CHECK_FROM=1, every sweep checks: the behaviour before) and
# off (4294967295: no sweep checks), uniform and all-equal keys, 2^16-2^24,
# three rounds alternated; test_sort on the H200 first (the new kernel
# argument). From the repository root with gpubuild-bench (bench/run_gpu.sh
# --prepare) and test_sort in gpubuild-bench/t.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/run1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 240 $T/test_sort ) > $d/test_sort.txt 2>&1; echo "test_sort rc=$?"; grep -E "Synthesis|real" $d/test_sort.txt
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
S="$C --min-log2 16 --max-log2 24 --step 2 --prims sort_keys,sort_pairs --dists uniform,equal"
for r in 1 2 3; do
  for v in check nocheck; do
    f=1; [ $v = nocheck ] && f=4294967295
    SCANKIT_SORT_CHECK_FROM=$f timeout 90 $B/bench_all $S --csv $d/$v\_r$r.csv 2>>$d/log; echo "$v $r rc=$?"
  done
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d | tee $d/table.md
grep -i -E "wrong|mismatch" $d/log | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

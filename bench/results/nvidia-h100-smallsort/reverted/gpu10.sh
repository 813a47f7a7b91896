set -u
B=gpubuild-bench/bench
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/scankit-bench-cache
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
A="--dists uniform --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.5 --min-log2 20 --max-log2 20"
for v in bench_all_pre bench_all_old bench_all; do for r in 1 2 3; do
  echo "== $v run $r: $(timeout 100 $B/$v $A 2>&1 | grep -E '^  .*(error|wrong)' | head -2 | cut -c1-140 | tr '\n' ';')"
done; done
echo "== new, without topk/segsort: $(timeout 100 $B/bench_all $A --prims scan_inclusive,scan_exclusive,reduce,select_if,partition,sort_keys,sort_pairs,merge_keys,merge_pairs,segscan,segreduce,poly_eval,lower_bound,lower_bound_sorted,reduce_by_key,rle,sort_less,histogram,sort_keys64,sort_pairs64 2>&1 | grep -E '^  .*(error|wrong)' | head -2 | cut -c1-140 | tr '\n' ';')"
echo "== new, SCANKIT_PROGRAM_CACHE big: $(SCANKIT_PROGRAM_CACHE=1000 timeout 100 $B/bench_all $A 2>&1 | grep -E '^  .*(error|wrong)' | head -2 | cut -c1-140 | tr '\n' ';')"

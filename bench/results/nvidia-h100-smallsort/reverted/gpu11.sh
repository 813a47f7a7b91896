set -u
B=gpubuild-bench/bench
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/scankit-bench-cache
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
A="--dists uniform --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.5 --min-log2 20 --max-log2 20"
for v in bench_all_sweepall bench_all_cfgcopy; do for r in 1 2 3; do
  echo "== $v run $r: $(timeout 100 $B/$v $A 2>&1 | grep -E '^  .*(error|wrong)' | head -2 | cut -c1-120 | tr '\n' ';')"
done; done
for p in topk segsort_small segsort_large sort_less; do
echo "== new, all but $p: $(timeout 100 $B/bench_all $A --prims $(echo scan_inclusive,scan_exclusive,reduce,select_if,partition,sort_keys,sort_pairs,merge_keys,merge_pairs,segscan,segreduce,poly_eval,lower_bound,lower_bound_sorted,reduce_by_key,rle,segsort_small,segsort_large,topk,sort_less,histogram,sort_keys64,sort_pairs64 | sed "s/$p,//") 2>&1 | grep -E '^  .*(error|wrong)' | head -2 | cut -c1-120 | tr '\n' ';')"
done

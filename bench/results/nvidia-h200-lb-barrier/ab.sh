set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/ab; mkdir -p $d
A="--prims scan_inclusive,select_if,sort_keys,segscan,segreduce,reduce_by_key,rle --dists uniform --min-log2 20 --max-log2 28 --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.5"
for r in 1 2; do for v in old new; do
  bin=$B/bench_all; [ $v = new ] && bin=$B/bench_all_new
  timeout 130 $bin --csv $d/${v}_$r.csv $A 2> $d/${v}_$r.log; echo "$v $r rc=$? $(tail -n 1 $d/${v}_$r.log)"
done; done

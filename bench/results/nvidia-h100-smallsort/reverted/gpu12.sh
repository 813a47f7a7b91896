set -u
B=gpubuild-bench/bench
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/scankit-bench-cache
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
A="--dists uniform --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.5 --min-log2 20 --max-log2 20"
for r in 1 2 3; do
  echo "== new (reverted) all prims run $r: $(timeout 100 $B/bench_all $A 2>&1 | grep -E '^  .*(error|wrong)|wrong result' | head -3 | cut -c1-120 | tr '\n' ';')"
done
AB_ROUNDS=2 BENCH_ARGS="--prims sort_keys,sort_pairs,sort_keys64 --max-log2 24" timeout 200 bash bench/run_gpu.sh ab > $OUT/ab.out 2> $OUT/ab.err; echo "ab rc=$?"
cat $OUT/ab.out | grep -v '^| ---' 

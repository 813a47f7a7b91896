# Back-to-back small calls of the primitives whose GPU launches changed last
# (the reduce in one launch, segment totals with the offsets' check in the
# work-groups' launch, the 8-byte keys' tiles), every result checked by
# bench_all, the seeds of SEEDS (default 1 2 3): device faults show as errors or wrong results.
set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/stress; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
A="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.15 --repeats 200 --min-repeats 50 --dists uniform,entropy:3 --min-log2 14 --max-log2 21 --step 1 --prims reduce,segreduce,sort_keys64,sort_pairs64"
for r in ${SEEDS:-1 2 3}; do
  timeout 55 $B/bench_all $A --seed $r --csv $d/new$r.csv 2>>$d/log; echo "seed $r rc=$? bad=$(grep -c ',scankit,.*,\(error\|wrong\|mismatch\)' $d/new$r.csv) rows=$(grep -c ',scankit,' $d/new$r.csv)"
done
grep -h "wrong result" $d/log | sort | uniq -c
cd $OUT && tar czf stress.tgz stress && rm -rf stress

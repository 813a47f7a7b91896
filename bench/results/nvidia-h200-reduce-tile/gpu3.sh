set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run3; mkdir -p $d
timeout 150 gpubuild-bench/t/test_scan --filter='reduce*/*' 2>&1 | tail -1
S="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 20 --max-log2 24 --step 2 --prims reduce --dists uniform"
for r in 1 2; do
  $B/bench_all $S --csv $d/new_r$r.csv 2>>$d/log; $B/bench_all $S --tile 256x32 --csv $d/old_r$r.csv 2>>$d/log
  SCANKIT_TRACE=1 $B/bench_all $S --min-log2 20 --max-log2 20 --repeats 3 --min-repeats 3 --warmups 0 --csv /dev/null 2>&1 | grep -m1 -o "sk_reduce_last.\{0,80\}"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d
cd $OUT && tar czf run3.tgz run3 && rm -rf run3

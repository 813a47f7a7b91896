set -u
# The test suites of the reduce (test_scan's reduce suite, test_interval's reduce), the
# histogram and top-k on the H200 (built on the development machine, Criterion's libraries
# carried), the reduce's one-launch test first.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
T=gpubuild-bench/t; d=$OUT/t; mkdir -p $d
for i in 1 2 3; do
  timeout 60 $T/test_scan --filter 'reduce/a_reduce*' > $d/one_launch_$i.txt 2>&1; echo "one-launch test $i rc=$?"
done
timeout 200 $T/test_scan --filter 'reduce/*' > $d/test_scan_reduce.txt 2>&1; echo "test_scan reduce rc=$?"; tail -1 $d/test_scan_reduce.txt
timeout 120 $T/test_interval --filter 'interval/every_n_up_to_4096_should_reduce*' > $d/test_interval_reduce.txt 2>&1; echo "interval reduce rc=$?"; tail -1 $d/test_interval_reduce.txt
timeout 120 $T/test_histogram > $d/test_histogram.txt 2>&1; echo "histogram rc=$?"; tail -1 $d/test_histogram.txt
timeout 150 $T/test_topk > $d/test_topk.txt 2>&1; echo "topk rc=$?"; tail -1 $d/test_topk.txt

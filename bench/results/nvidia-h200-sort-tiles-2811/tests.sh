set -u
# The final build's suites that run the sort on the H200.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
T=gpubuild-bench/t; d=$OUT/tests; mkdir -p $d
for t in test_sort test_segsort test_topk test_segreduce; do
  ( time timeout 200 $T/$t -j4 ) > $d/$t.txt 2>&1; echo "$t rc=$?"; grep -E "Synthesis|real|FAIL" $d/$t.txt
done

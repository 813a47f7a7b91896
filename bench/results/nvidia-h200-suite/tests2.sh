set -u
# After the sort's counts scanned by the counting launch and top-k by a whole sort: the suites of
# the primitives they touch, on the H200 through NVIDIA's OpenCL (gpubuild-tests carried).
export LD_LIBRARY_PATH=$PWD/gpubuild-tests/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
for t in test_sort test_topk test_segsort test_merge_runs test_api_scratch; do
  s=$(date +%s); timeout 250 gpubuild-tests/tests/$t --jobs 8 > $OUT/$t.log 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - s ))s $(grep Synthesis $OUT/$t.log | tail -1)"
  grep -A4 "\[FAIL\]\|Assertion" $OUT/$t.log | head -12
done

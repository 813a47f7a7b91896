set -u
# test_segsort on the H200 through NVIDIA's OpenCL: the build as committed (work-groups of 128 for the
# segmented sort's tiles) and the same with the tuning's 256 (test_segsort_wg256), narrow keys first
export LD_LIBRARY_PATH=$PWD/gpubuild-tests/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
for t in test_segsort_wg256 test_segsort; do
  timeout 100 gpubuild-tests/tests/$t --jobs 8 > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "Synthesis|FAIL" $OUT/$t.log | head -5
done

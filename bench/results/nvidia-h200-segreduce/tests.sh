set -u
# the segment totals', segmented sort's and trace tests on the H200 through NVIDIA's OpenCL
# (gpubuild-tests: Release, Criterion and its libraries copied beside it, GPU.md)
export LD_LIBRARY_PATH=$PWD/gpubuild-tests/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
nvidia-smi -L
for t in test_segreduce test_segsort test_runtime_trace; do
  timeout 170 gpubuild-tests/tests/$t --jobs 8 > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "Synthesis|FAIL" $OUT/$t.log | head -5
done

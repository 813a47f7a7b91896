# test_segsort on the H200 with the build of 0b0ba5f: the CPU shape's long
# segments by a work-item each (a private count array of 4 KB, 8 KB for
# 8-byte keys) run there too when the tests force the CPU shape.
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
d=$OUT/run1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( time timeout 200 gpubuild-bench/t/test_segsort -j4 ) > $d/test_segsort.txt 2>&1; echo "test_segsort rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_segsort.txt | head
cd $OUT && tar czf run1.tgz run1 && rm -rf run1

# The suites of this stop's library changes on one H200 (NVIDIA's OpenCL;
# both shapes, the CPU shape forced by the suites where they take it):
# the by-key tiles' joins and NULL arguments (test_bykey,
# test_lookback_fallback), the CPU shape's chunk totals storing at segment
# ends (test_bykey, test_segreduce), the reversed partition (test_compact).
# From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
d=$OUT/run1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
for t in test_bykey test_lookback_fallback test_segreduce test_compact; do
  ( time timeout 100 gpubuild-bench/t/$t -j8 ) > $d/$t.txt 2>&1; echo "$t rc=$?"
done
grep -h -E "Synthesis|FAIL" $d/test_*.txt | head -20

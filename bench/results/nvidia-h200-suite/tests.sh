set -u
# The library's test binaries (not the CLIs', not MPI's) on one H200 through NVIDIA's OpenCL:
# gpubuild-tests (Release, static library, Criterion's libraries beside it), four at a time.
export LD_LIBRARY_PATH=$PWD/gpubuild-tests/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
one() {
  t=$1; s=$(date +%s)
  timeout 280 gpubuild-tests/tests/$t --jobs 4 > $OUT/logs/$t.log 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - s ))s $(grep -E 'Synthesis' $OUT/logs/$t.log | tail -1)"
}
export -f one
mkdir -p $OUT/logs
ls gpubuild-tests/tests | grep '^test_' | grep -v -E '^test_(cli_|mpi_)' |
  xargs -P 4 -I{} bash -c 'one {}' | sort > $OUT/summary.txt
cat $OUT/summary.txt
for f in $OUT/logs/*.log; do grep -l -E "FAIL|Crash|CRASH" $f >/dev/null && { echo "== $f"; grep -E "\[FAIL\]|Assertion|CRASH|signal" $f | head -8; }; done
cd $OUT && tar czf logs.tgz logs && rm -rf logs

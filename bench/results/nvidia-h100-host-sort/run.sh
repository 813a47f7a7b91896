#!/bin/bash
# The host-array sort against the pinned-copy limit (bench_host_sort), on
# the H100 machine through NVIDIA's OpenCL. Run from the repository root
# with the static Release build in gpubuild-bench/:
#   cmake -S . -B gpubuild-bench -DCMAKE_BUILD_TYPE=Release \
#         -DBUILD_SHARED_LIBS=OFF -DSCANKIT_BUILD_TESTS=OFF -DSCANKIT_MPI=OFF
#   cmake --build gpubuild-bench --target bench_host_sort
# Writes host_sort.md (and env.txt) into $OUT (default: this folder).
set -eu
OUT=${OUT:-$(dirname "$0")}
mkdir -p /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=${SCANKIT_CACHE_DIR:-/tmp/skc}
{ nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; nproc; } > "$OUT/env.txt"
gpubuild-bench/bench/bench_host_sort --min-log2 24 --max-log2 28 --repeats 7 | tee "$OUT/host_sort.md"

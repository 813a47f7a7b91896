#!/bin/bash
# The slot variants behind transfer.c's defaults: lanes x piece size at
# 2^28 (run as run.sh is; prints one table row per form and variant).
set -u
mkdir -p /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=${SCANKIT_CACHE_DIR:-/tmp/skc}
B=gpubuild-bench/bench/bench_host_sort
for l in 1 2 4 8 12 16; do for p in 1 2 4 8 16 32; do
    echo "== lanes $l piece ${p}M"
    SCANKIT_HOST_PIECE_MB=$p SCANKIT_HOST_LANES=$l $B --min-log2 28 --max-log2 28 --repeats 5 | tail -2
done; done
echo "== the driver's copy (SCANKIT_PINNED=0)"
SCANKIT_PINNED=0 $B --min-log2 28 --max-log2 28 --repeats 5 | tail -2

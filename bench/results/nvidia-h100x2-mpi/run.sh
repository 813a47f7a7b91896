#!/usr/bin/env bash
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh; export SCANKIT_CACHE_DIR=/tmp/skc
nvidia-smi -L > $OUT/gpus.txt
(while sleep 2; do nvidia-smi --query-compute-apps=pid,gpu_uuid,used_memory --format=csv,noheader; done > $OUT/gpu_apps.txt &)
timeout 270 bash bench/mpi_whole.sh --build gpubuild-mpi --n 1G --runs 3 --out $OUT

#!/usr/bin/env bash
# 16 GiB of uint32 over one and two ranks on the two-GPU H100 machine, one
# rank per GPU (bench/mpi_whole.sh: hyperfine, one warm-up and one timed
# run per command, every output compared with radixsort's). Carried there:
# gpubuild-mpi/ from bench/mpi_carry.sh (at the commit of this folder).
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh; export SCANKIT_CACHE_DIR=/tmp/skc
nvidia-smi -L > $OUT/gpus.txt; nproc >> $OUT/gpus.txt; df -h /tmp >> $OUT/gpus.txt
timeout 520 bash bench/mpi_whole.sh --build gpubuild-mpi --n 4G --runs 1 --out $OUT

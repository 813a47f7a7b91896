#!/usr/bin/env bash
# 16 GiB of uint32 on two ranks, one per GPU, on a two-GPU machine (this run: two H200s),
# beside radixsort and cp (bench/mpi_whole.sh: hyperfine, one warm-up and
# one timed run per command, every output compared with radixsort's; the
# one-rank time is in ../nvidia-h100x2-mpi-16g). Carried there:
# gpubuild-mpi/ from bench/mpi_carry.sh (at the commit of this folder).
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh; export SCANKIT_CACHE_DIR=/tmp/skc
nvidia-smi -L > $OUT/gpus.txt; nproc >> $OUT/gpus.txt; df -h /tmp >> $OUT/gpus.txt
timeout 580 bash bench/mpi_whole.sh --build gpubuild-mpi --n 4G --ranks 2 --runs 1 --out $OUT

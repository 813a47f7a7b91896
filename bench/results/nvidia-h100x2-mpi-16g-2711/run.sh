#!/usr/bin/env bash
# 16 GiB of uint32 over one rank (one GPU) and two ranks (one per GPU) on
# one two-GPU machine, beside radixsort and cp (bench/mpi_whole.sh:
# hyperfine, one warm-up and one timed run per command, every output
# compared with radixsort's). Carried there: gpubuild-mpi/ from
# bench/mpi_carry.sh (at the commit of this folder).
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh; export SCANKIT_CACHE_DIR=/tmp/skc
{ nvidia-smi -L; nproc; free -g | head -2; df -h /tmp | tail -1; uname -r; } > $OUT/gpus.txt
timeout 540 bash bench/mpi_whole.sh --build gpubuild-mpi --n 4G --ranks 1 --ranks 2 --runs 1 --out $OUT

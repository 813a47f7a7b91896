#!/usr/bin/env bash
# The whole process on one machine of two H100s, 4 GiB and 16 GiB uint32:
# cp, radixsort, radixsort-mpi on one rank (one GPU) and on two (a GPU
# each), bench/mpi_whole.sh (hyperfine, one warm-up and one timed run per
# command, every run from a clean page cache, outputs compared with
# radixsort's; mpirun --bind-to none). From the repository root, with
# gpubuild-mpi from bench/mpi_carry.sh at the commit of this file.
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh; export SCANKIT_CACHE_DIR=/tmp/skc PMIX_MCA_pcompress_base_silence_warning=1
bash bench/mpi_whole.sh --build gpubuild-mpi --n 1G --n 4G --ranks 1 --ranks 2 --runs 1 --out $OUT/whole

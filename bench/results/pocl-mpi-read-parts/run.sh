#!/usr/bin/env bash
# radixsort-mpi on one rank, 1 GiB of uint32, the read phase with the reads
# in parts switched off (SCANKIT_READ_PARTS_FROM=0) and on (the default),
# alternating, 3 runs each, every run from a clean page cache. Run from the
# repository root on the development machine (PoCL, 2 cores) with a build
# in build/ and an Open MPI launcher on PATH (Debian's, or gpubuild-mpi's).
set -u
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
B=$PWD/build/apps; W=$(mktemp -d); cd $W
$B/datagen -n 256M --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
for i in 1 2 3; do
  for v in 0 ""; do
    rm -f o.bin; sync
    SCANKIT_READ_PARTS_FROM=$v mpirun -np 1 --bind-to none $B/radixsort-mpi k.bin -o o.bin --time 2>&1 |
      awk -v v="parts_from=${v:-default}" '$1=="0"{print v, "read", $2, "total", $10}'
  done
done
cd /; rm -rf $W

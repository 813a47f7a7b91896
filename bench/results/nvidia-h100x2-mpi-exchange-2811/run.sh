#!/usr/bin/env bash
# Two ranks of radixsort-mpi on one machine of two H100s (a GPU each, not
# bound: --bind-to none), 4 GiB and 16 GiB uint32: the build before
# (gpubuild-mpi-old, f579ee1: the rank's own run through MPI_Alltoallv into
# the fresh receiving array) and after (gpubuild-mpi: the receiving array
# touched on threads, the own run copied on threads, the others' through
# MPI) alternating, every run from a clean page cache, --time of each;
# outputs compared with radixsort's. From the repository root.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh
export SCANKIT_CACHE_DIR=/tmp/skc PMIX_MCA_pcompress_base_silence_warning=1
NEW=$PWD/gpubuild-mpi/apps OLD=$PWD/gpubuild-mpi-old/apps
O=$OUT/r; mkdir -p $O
W=/tmp/w; mkdir -p $W; cd $W; rm -f $W/*
{ date -u; nvidia-smi -L; nproc; uname -r; free -g | head -2; mpirun --version | head -1; } > $O/env.txt 2>&1
for size in 1G 4G; do
  rm -f k.bin out.bin first.bin
  $NEW/datagen -n $size --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
  $NEW/radixsort k.bin -o first.bin; sync
  runs="1 2 3"; [ $size = 4G ] && runs="1"
  for i in $runs; do for v in old new; do
    B=$NEW; [ $v = old ] && B=$OLD
    rm -f out.bin; sync
    mpirun -np 2 --bind-to none $B/radixsort-mpi k.bin -o out.bin --time 2>&1 | grep -v "^$" | tail -3 > $O/t-$size-$v-$i.txt
    cmp out.bin first.bin && echo "$size $v $i identical"
    awk -v t="$size $v $i" 'NR > 1 { print t, "rank", $1, "read", $2, "sort", $4, "exchange", $6, "merge", $7, "write", $9, "total", $10 }' $O/t-$size-$v-$i.txt
  done; done
done

#!/usr/bin/env bash
# One rank of radixsort-mpi on one H100, 4 GiB and 16 GiB uint32, the build
# before (gpubuild-mpi-old: the local sort's copy of the input on one
# thread) and after (gpubuild-mpi: in parts on up to 8 threads) alternating,
# 2 runs each, every run from a clean page cache ('rm -f out.bin; sync'),
# --time of each; outputs compared with the first. From the repository root.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
NEW=$PWD/gpubuild-mpi/apps OLD=$PWD/gpubuild-mpi-old/apps
O=$OUT/r; mkdir -p $O
W=/tmp/w; mkdir -p $W; cd $W; rm -f $W/*
{ date -u; nvidia-smi -L; nproc; uname -r; free -g | head -2; mpirun --version | head -1; } > $O/env.txt 2>&1
for size in 1G 4G; do
  rm -f k.bin out.bin first.bin
  $NEW/datagen -n $size --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
  $NEW/radixsort k.bin -o first.bin; sync
  for i in 1 2; do for v in old new; do
    B=$NEW; [ $v = old ] && B=$OLD
    rm -f out.bin; sync
    /usr/bin/time -f "wall %e s" mpirun -np 1 $B/radixsort-mpi k.bin -o out.bin --time > $O/t-$size-$v-$i.txt 2>&1
    cmp out.bin first.bin && echo "$size $v $i identical"
    echo "$size $v $i: $(tr '\n' ' ' < $O/t-$size-$v-$i.txt | tr -s ' ')"
  done; done
done

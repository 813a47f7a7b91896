#!/usr/bin/env bash
# One rank of radixsort-mpi on one H100, 16 GiB uint32, not bound to a core
# (mpirun --bind-to none): the build before (gpubuild-mpi-old) and after
# (gpubuild-mpi: the local sort's copy in parts on threads) alternating, 2
# runs each from a clean page cache, --time of each; then bench/mpi_whole.sh
# (cp, radixsort, one rank; hyperfine, 1 timed run). From the repository root.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
. gpubuild-mpi/env.sh
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc PMIX_MCA_pcompress_base_silence_warning=1
ROOT=$PWD NEW=$PWD/gpubuild-mpi/apps OLD=$PWD/gpubuild-mpi-old/apps
O=$OUT/r; mkdir -p $O
W=/tmp/w; mkdir -p $W; cd $W; rm -f $W/*
$NEW/datagen -n 4G --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
$NEW/radixsort k.bin -o first.bin; sync
for i in 1 2; do for v in old new; do
  B=$NEW; [ $v = old ] && B=$OLD
  rm -f out.bin; sync
  mpirun -np 1 --bind-to none $B/radixsort-mpi k.bin -o out.bin --time > $O/u-4G-$v-$i.txt 2>&1
  cmp out.bin first.bin && echo "4G $v $i identical"
  echo "4G $v $i: $(tail -1 $O/u-4G-$v-$i.txt | tr -s ' ')"
done; done
rm -f $W/*
cd $ROOT && bash bench/mpi_whole.sh --build gpubuild-mpi --n 4G --ranks 1 --runs 1 --out $O 2>&1 | tail -5
cat $O/mpi_whole.md

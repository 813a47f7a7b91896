#!/usr/bin/env bash
# Whole process, 1 GiB and 16 GiB uint32, every run from a clean page cache
# (input cached and clean, nothing dirty: prepare 'rm -f out.bin; sync'):
# cp, radixsort as built (its output mapped on this host: a GPU, 16 cores)
# and radixsort writing its output (SCANKIT_MAPPED_OUTPUT=0); --time of
# each radixsort variant, twice. Run from the repository root on the GPU
# machine with the binaries in gpubuild-bench.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc PATH=$PWD/gpubuild-bench/bin:$PATH
B=$PWD/gpubuild-bench/apps
O=$OUT/r; mkdir -p $O
W=/tmp/w; mkdir -p $W; cd $W; rm -f $W/*
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; nproc; uname -r; free -g | head -2; df -T $W | tail -1; hyperfine --version; sysctl vm.dirty_ratio vm.dirty_background_ratio; } > $O/env.txt 2>&1
for size in 256M 4G; do
  rm -f k.bin out.bin first.bin
  $B/datagen -n $size --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
  SCANKIT_MAPPED_OUTPUT=0 $B/radixsort k.bin -o first.bin; rm -f out.bin; sync
  runs=5; [ $size = 4G ] && runs=3
  hyperfine --runs $runs --prepare "rm -f out.bin; sync" --export-markdown $O/h-$size.md -n cp "cp k.bin out.bin" \
    -n "radixsort (mapped output)" "$B/radixsort k.bin -o out.bin" -n "radixsort, written output" "env SCANKIT_MAPPED_OUTPUT=0 $B/radixsort k.bin -o out.bin" 2>&1 | grep -E "Time|±"
  for i in 1 2; do for v in 1 0; do rm -f out.bin; sync; env SCANKIT_MAPPED_OUTPUT=$v $B/radixsort k.bin -o out.bin --time 2> $O/time-$size-mapped$v-$i.txt; cmp out.bin first.bin && echo "$size mapped=$v identical"; done; done
done
cd $O && for f in time-*.txt; do echo "$f: $(grep -E '^(read|context|compute|write|total)' $f | awk '{printf "%s %s  ", $1, $2}')"; done
cat $O/*.md

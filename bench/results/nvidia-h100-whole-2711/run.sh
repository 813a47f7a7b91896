#!/usr/bin/env bash
# Whole process, 1 GiB and 16 GiB uint32, every run from a clean page cache
# (input cached and clean, no dirty data: prepare 'rm -f out.bin; sync'):
# cp, radixsort (mapped writes), radixsort with streamed writes
# (SCANKIT_MAPPED_WRITE=0), CuPy; --time of each radixsort variant.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc PATH=$PWD/gpubuild-bench/bin:$PATH
B=$PWD/gpubuild-bench/apps
O=$OUT/r; mkdir -p $O
W=/tmp/w; mkdir -p $W; cd $W; rm -f $W/*
{ date -u; nvidia-smi -L; nproc; uname -r; free -g | head -2; hyperfine --version; python3 -c 'import numpy, cupy; print("numpy", numpy.__version__, "cupy", cupy.__version__)'; } > $O/env.txt 2>&1
cu="import numpy as np, cupy as cp; cp.sort(cp.asarray(np.fromfile('k.bin', np.uint32))).get().tofile('out.bin')"
py="import numpy as np; np.sort(np.fromfile('k.bin', np.uint32)).tofile('out.bin')"
for size in 256M 4G; do
  rm -f k.bin out.bin first.bin
  $B/datagen -n $size --type uint32 --seed 7 -o k.bin; sync; cat k.bin > /dev/null
  SCANKIT_MAPPED_WRITE=0 $B/radixsort k.bin -o first.bin; sync
  runs=5; [ $size = 4G ] && runs=3
  hyperfine --runs $runs --prepare "rm -f out.bin; sync" --export-markdown $O/h-$size.md -n cp "cp k.bin out.bin" \
    -n radixsort "$B/radixsort k.bin -o out.bin" -n "radixsort, streamed writes" "SCANKIT_MAPPED_WRITE=0 $B/radixsort k.bin -o out.bin" 2>&1 | grep -E "Time|±"
  cmp out.bin first.bin && echo "$size streamed output identical"
  for i in 1 2; do for v in 1 0; do rm -f out.bin; sync; env $( [ $v = 0 ] && echo SCANKIT_MAPPED_WRITE=0 ) $B/radixsort k.bin -o out.bin --time 2> $O/time-$size-mapped$v-$i.txt; cmp out.bin first.bin && echo "$size mapped=$v identical"; done; done
  if [ $size = 256M ]; then
    hyperfine --runs 3 --prepare "rm -f out.bin; sync" --export-markdown $O/h-$size-py.md -n numpy "python3 -c \"$py\"" -n cupy "python3 -c \"$cu\"" 2>&1 | grep -E "Time|±"
  else
    hyperfine --runs 1 --prepare "rm -f out.bin; sync" --export-markdown $O/h-$size-py.md -n cupy "python3 -c \"$cu\"" 2>&1 | grep -E "Time|±"
  fi
  cmp out.bin first.bin && echo "$size cupy identical"
done
cd $O && for f in time-*.txt; do echo "$f: $(grep -E '^(read|compute|write|total)' $f | awk '{printf "%s %s  ", $1, $2}')"; done
cat $O/*.md

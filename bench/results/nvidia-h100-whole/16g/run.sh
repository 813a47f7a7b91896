#!/usr/bin/env bash
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc PATH=$PWD/gpubuild-bench/bin:$PATH
B=$PWD/gpubuild-bench/apps
W=/tmp/w16; mkdir -p $W; cd $W
O=$OUT/w16; mkdir -p $O
{ date -u; nvidia-smi -L; nproc; free -g | head -2; df -h /tmp | tail -1; hyperfine --version; python3 -c 'import numpy, cupy; print("numpy", numpy.__version__, "cupy", cupy.__version__)'; } > $O/env.txt 2>&1
$B/datagen -n 4G --type uint32 --seed 7 -o k.bin; cat k.bin > /dev/null
$B/radixsort k.bin -o first.bin --time 2> $O/radixsort-time.txt
hyperfine --runs 2 --prepare "rm -f out.bin" --export-markdown $O/w16-a.md -n cp "cp k.bin out.bin" -n radixsort "$B/radixsort k.bin -o out.bin" -n "radixsort --memory 2G" "$B/radixsort k.bin -o out.bin --memory 2G" 2>&1 | tail -3
cmp out.bin first.bin && echo "memory 2G output identical"
rm -f out.bin; $B/radixsort k.bin -o out.bin --memory 2G --time 2> $O/radixsort-2g-time.txt; cmp out.bin first.bin && echo identical2
py="import numpy as np; np.sort(np.fromfile('k.bin', np.uint32)).tofile('out.bin')"
cu="import numpy as np, cupy as cp; cp.sort(cp.asarray(np.fromfile('k.bin', np.uint32))).get().tofile('out.bin')"
hyperfine --runs 2 --prepare "rm -f out.bin" --export-markdown $O/w16-b.md -n numpy "python3 -c \"$py\"" -n cupy "python3 -c \"$cu\"" 2>&1 | tail -3
cmp out.bin first.bin && echo "cupy output identical"
cat $O/w16-a.md $O/w16-b.md $O/radixsort-time.txt $O/radixsort-2g-time.txt

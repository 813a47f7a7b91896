#!/usr/bin/env bash
# file_io at 4 GiB (8 and 4 threads) and radixsort --time at 16 GiB, the current build
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=$PWD/gpubuild-bench
W=/tmp/w; mkdir -p $W
{ uname -r; nproc; free -g | head -2; df -h /tmp | tail -1; mount | grep " / "; cat /sys/kernel/mm/transparent_hugepage/enabled; } 2>&1
$B/bench/file_io --bytes 4G --threads 8 --dir $W --repeats 3
$B/bench/file_io --bytes 4G --threads 16 --dir $W --repeats 1
cd $W
$B/apps/datagen -n 4G --type uint32 --seed 7 -o k.bin; cat k.bin > /dev/null
/usr/bin/time -f "cp %e s" cp k.bin c.bin; rm -f c.bin
$B/apps/radixsort k.bin -o s1.bin --time; rm -f s1.bin
/usr/bin/time -f "radixsort %e s" $B/apps/radixsort k.bin -o s1.bin --time

set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
echo "by-key tile sweep (reduce_by_key, rle; one pass)"
for t in 32x32 32x16 32x8 64x16 64x32 128x8; do
  timeout 60 $B/bench_all $C --min-log2 24 --max-log2 28 --step 2 --prims reduce_by_key,rle --tile $t --csv $d/tile_$t.csv 2>>$d/log
  python3 -c "
import csv,sys
for r in csv.DictReader(open('$d/tile_$t.csv')):
    if r['implementation']=='scankit': print('$t',r['primitive'],r['n'],r['time_ms'],r['status'])"
done

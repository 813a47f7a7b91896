set -u
# the segmented sort's tiles of short segments by work-group size (bench_all --tile Wx4: the tile is
# W x 4 keys), same binary, two rounds, segments of 1-64 keys, uint32 keys
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform --prims segsort_small"
T="256x4 64x4 128x4 512x4"
for r in 1 2; do
  for t in $T; do
    timeout 60 $B/bench_all $C --min-log2 16 --max-log2 28 --step 2 --tile $t --csv $d/t$t-$r.csv 2>>$d/log; echo "tile $t rc=$?"
  done
done
python3 - $d "$T" <<'PY'
import csv,sys,os
d=sys.argv[1]; tiles=sys.argv[2].split()
def rows(f):
    if not os.path.exists(f): return {}
    return {int(r['n']):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']=='scankit' and r['time_ms']}
t={x:[rows(d+'/t%s-%d.csv'%(x,r)) for r in (1,2)] for x in tiles}
print('| n | ' + ' | '.join(tiles) + ' |')
for n in sorted(t[tiles[0]][0]):
    print('| 2^%d | %s |'%(n.bit_length()-1, ' | '.join('%.4f'%min(z[n] for z in t[x] if n in z) if any(n in z for z in t[x]) else '-' for x in tiles)))
PY
grep -i "wrong\|error" $d/log | sort | uniq -c | head -5
cp $d/*.csv $OUT/ ; rm -rf $d

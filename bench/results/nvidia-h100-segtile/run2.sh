set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --dists uniform --max-measure-s 0.3"
S="$C --min-log2 16 --max-log2 28 --prims segscan,segreduce"
for t in 64x32 32x32 64x16 64x24 128x24 32x16 64x32; do
  timeout 40 $B/bench_all $S --tile $t --csv $d/t$t.csv 2>>$d/log; echo "tile $t rc=$?"
done
for t in 64x32 128x16 256x16; do
SCANKIT_SCAN_PATH=reduce-then-scan timeout 60 $B/bench_all $S --tile $t --csv $d/rts$t.csv 2>>$d/log; echo "rts rc=$?"
done
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
def rows(f):
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']=='scankit' and r['time_ms']}
for f in sorted(glob.glob(d+'/*.csv')):
    rs=rows(f); print(os.path.basename(f), ' '.join('%s/%d=%.4f'%(k[0][:6],k[1].bit_length()-1,v) for k,v in sorted(rs.items())))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

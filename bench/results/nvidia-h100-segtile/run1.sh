set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --dists uniform --max-measure-s 0.3"
A="$C --min-log2 16 --max-log2 28 --prims segscan,segreduce,scan_inclusive"
for r in 1 2; do
  timeout 100 $B/bench_all_old $A --csv $d/old$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 100 $B/bench_all $A --csv $d/new$r.csv 2>>$d/log; echo "new$r rc=$?"
done
S="$C --min-log2 24 --max-log2 28 --prims segscan,segreduce"
for t in 256x16 128x16 256x8 256x12 256x20 256x24 256x32 128x32 512x8 512x16 64x32; do
  timeout 40 $B/bench_all $S --tile $t --csv $d/tile-$t.csv 2>>$d/log; echo "tile $t rc=$?"
done
SCANKIT_SCAN_PATH=reduce-then-scan timeout 60 $B/bench_all $S --csv $d/rts.csv 2>>$d/log; echo "rts rc=$?"
SCANKIT_CACHE_DIR=$OUT/skc timeout 60 $B/bench_all $C --min-log2 20 --max-log2 20 --prims segscan,segreduce --csv $d/ptx.csv 2>>$d/log
(cd $OUT && tar czf skc.tgz skc && rm -rf skc)
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
def rows(f):
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']=='scankit' and r['time_ms']}
for f in sorted(glob.glob(d+'/*.csv')):
    if f.endswith('ptx.csv'): continue
    rs=rows(f); print(os.path.basename(f), ' '.join('%s/2^%d=%.4f'%(k[0][:6],k[1].bit_length()-1,v) for k,v in sorted(rs.items())))
PY

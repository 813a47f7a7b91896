set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --dists uniform --max-measure-s 0.3"
A="$C --min-log2 16 --max-log2 28 --prims segscan,segreduce,reduce_by_key,rle,scan_inclusive"
for r in 1 2; do
  timeout 100 $B/bench_all_old $A --csv $d/old$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 100 $B/bench_all $A --csv $d/new$r.csv 2>>$d/log; echo "new$r rc=$?"
done
timeout 150 $B/bench_cub --csv $d/cub.csv --budget 140 --min-log2 16 --max-log2 28 --dists uniform --prims segscan,segreduce,reduce_by_key,rle,scan_inclusive 2>>$d/log; echo "cub rc=$?"
S="$C --min-log2 20 --max-log2 28 --prims reduce_by_key,rle,segreduce"
for t in 64x32 32x16 64x16; do
  timeout 40 $B/bench_all $S --tile $t --csv $d/t$t.csv 2>>$d/log; echo "tile $t rc=$?"
done
SCANKIT_SCAN_PATH=lookback timeout 60 $B/bench_all $S --csv $d/lb.csv 2>>$d/log; echo "lb rc=$?"
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
def rows(f, impl='scankit'):
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if (r['implementation']==impl or impl is None) and r['time_ms']}
for f in sorted(glob.glob(d+'/*.csv')):
    rs=rows(f, None if 'cub' in f else 'scankit'); print(os.path.basename(f), ' '.join('%s/%d=%.4f'%(k[0][:6],k[1].bit_length()-1,v) for k,v in sorted(rs.items())))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

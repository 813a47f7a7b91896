set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform --prims reduce_by_key,rle,segreduce --min-log2 22 --max-log2 28"
for t in 32x32 64x32 64x16 128x32 128x16; do
  SCANKIT_SCAN_PATH=lookback timeout 60 $B/bench_all $C --tile $t --csv $d/lb$t.csv 2>>$d/log; echo "lb $t rc=$?"
done
for t in 64x32 128x32; do
  SCANKIT_SCAN_PATH=reduce-then-scan timeout 60 $B/bench_all $C --tile $t --csv $d/rts$t.csv 2>>$d/log; echo "rts $t rc=$?"
done
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
for f in sorted(glob.glob(d+'/*.csv')):
    rows=[x for x in csv.DictReader(open(f)) if x['implementation']=='scankit' and x['time_ms']]
    print(os.path.basename(f),' '.join('%s/%d=%s'%(x['primitive'][:4],int(x['n']).bit_length()-1,x['time_ms'][:6]) for x in rows))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

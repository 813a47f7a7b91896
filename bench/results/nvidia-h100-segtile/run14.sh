set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform --prims segreduce --min-log2 16 --max-log2 28"
for r in 1 2; do
  timeout 60 $B/bench_all $C --csv $d/default$r.csv 2>>$d/log; echo "default$r rc=$?"
  SCANKIT_SEG_TOTALS_AT_ENDS_FROM=1 timeout 60 $B/bench_all $C --csv $d/ends$r.csv 2>>$d/log; echo "ends$r rc=$?"
done
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
for v in ('default','ends'):
  for r in (1,2):
    rows=[x for x in csv.DictReader(open('%s/%s%d.csv'%(d,v,r))) if x['implementation']=='scankit' and x['time_ms']]
    print(v,r,' '.join('%d=%s'%(int(x['n']).bit_length()-1,x['time_ms'][:6]) for x in rows))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

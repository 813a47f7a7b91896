set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
A="$C --min-log2 16 --max-log2 24 --prims scan_inclusive,select_if"
for r in 1 2 3; do
  for v in old mid new; do
    bin=$B/bench_all_$v; [ $v = new ] && bin=$B/bench_all
    timeout 60 $bin $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
for v in ('old','mid','new'):
  for r in (1,2,3):
    rows=[x for x in csv.DictReader(open('%s/%s%d.csv'%(d,v,r))) if x['implementation']=='scankit' and x['time_ms']]
    print(v,r,' '.join('%s/%d=%s'%(x['primitive'][:4],int(x['n']).bit_length()-1,x['time_ms'][:6]) for x in rows))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

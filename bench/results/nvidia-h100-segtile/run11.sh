set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform --prims reduce_by_key,rle"
for r in 1 2; do
  timeout 60 $B/bench_all_old $C --min-log2 16 --max-log2 28 --csv $d/old$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 60 $B/bench_all $C --min-log2 16 --max-log2 28 --csv $d/new$r.csv 2>>$d/log; echo "new$r rc=$?"
  SCANKIT_SCAN_PATH=lookback timeout 60 $B/bench_all_old $C --min-log2 24 --max-log2 28 --csv $d/oldlb$r.csv 2>>$d/log; echo "oldlb$r rc=$?"
  SCANKIT_SCAN_PATH=lookback timeout 60 $B/bench_all $C --min-log2 24 --max-log2 28 --csv $d/newlb$r.csv 2>>$d/log; echo "newlb$r rc=$?"
done
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
for v in ('old','new','oldlb','newlb'):
  for r in (1,2):
    rows=[x for x in csv.DictReader(open('%s/%s%d.csv'%(d,v,r))) if x['implementation']=='scankit' and x['time_ms']]
    print(v,r,' '.join('%s/%d=%s'%(x['primitive'][:4],int(x['n']).bit_length()-1,x['time_ms'][:6]) for x in rows))
PY
tar czf $OUT/r.tgz -C $OUT r && rm -rf $d

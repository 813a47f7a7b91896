set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r4; mkdir -p $d
A="--prims histogram --dists uniform,entropy:3 --min-log2 20 --max-log2 28 --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.4"
for r in 1 2; do for v in old new; do
  bin=$B/bench_all; [ $v = old ] && bin=$B/bench_all_old
  timeout 60 $bin --csv $d/${v}_$r.csv $A 2> $d/${v}_$r.log; echo "$v $r rc=$?"
done; done
timeout 100 $B/bench_cub --csv $d/cub.csv --budget 90 --prims histogram --dists uniform,entropy:3 --min-log2 20 --max-log2 28 2> $d/cub.log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,os
d=sys.argv[1]; t={}
for v in ('old','new'):
  for r in (1,2):
    p=f'{d}/{v}_{r}.csv'
    if not os.path.exists(p): continue
    for row in csv.DictReader(open(p)):
      if row['implementation']=='scankit' and row['time_ms']:
        t.setdefault((row['distribution'],int(row['n'])),{}).setdefault(v,[]).append(float(row['time_ms']))
cub={}
if os.path.exists(f'{d}/cub.csv'):
  for row in csv.DictReader(open(f'{d}/cub.csv')):
    if row['time_ms']: cub[(row['distribution'],int(row['n']))]=float(row['time_ms'])
print('| dist | n | old ms | new ms | new/old | CUB ms | CUB/new |')
for k in sorted(t):
  o=t[k].get('old'); n=t[k].get('new'); c=cub.get(k)
  if o and n: print('| %s | 2^%d | %s | %s | %.3f | %s | %s |'%(k[0],k[1].bit_length()-1,'/'.join('%.4f'%x for x in o),'/'.join('%.4f'%x for x in n),min(n)/min(o),'%.4f'%c if c else '-','%.2f'%(c/min(n)) if c else '-'))
PY

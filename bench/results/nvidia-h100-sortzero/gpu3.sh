set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r3; mkdir -p $d
timeout 150 $B/bench_cub --csv $d/cub28.csv --budget 140 --min-log2 28 --max-log2 28 --dists uniform --prims histogram,sort_keys64,sort_pairs64,reduce_by_key,rle,segsort_small,segsort_large,sort_keys,sort_pairs,topk 2> $d/cub28.log; echo "cub28 rc=$?"
A="--prims sort_keys,sort_pairs --dists uniform --min-log2 16 --max-log2 28 --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.4"
for r in 1 2; do for v in old new; do
  bin=$B/bench_all; [ $v = old ] && bin=$B/bench_all_old
  timeout 90 $bin --csv $d/${v}_$r.csv $A 2> $d/${v}_$r.log; echo "$v $r rc=$?"
done; done
python3 - $d <<'PY'
import csv,sys,os,statistics
d=sys.argv[1]; t={}
for v in ('old','new'):
  for r in (1,2):
    p=f'{d}/{v}_{r}.csv'
    if not os.path.exists(p): continue
    for row in csv.DictReader(open(p)):
      if row['implementation']=='scankit' and row['time_ms']:
        t.setdefault((row['primitive'],int(row['n'])),{}).setdefault(v,[]).append(float(row['time_ms']))
print('| prim | n | old ms | new ms | new/old |')
for k in sorted(t):
  o=t[k].get('old'); n=t[k].get('new')
  if o and n: print('| %s | 2^%d | %s | %s | %.3f |'%(k[0],k[1].bit_length()-1,'/'.join('%.4f'%x for x in o),'/'.join('%.4f'%x for x in n),min(n)/min(o)))
for row in csv.DictReader(open(f'{d}/cub28.csv')):
  print(row['primitive'],row['n'],row['time_ms'])
PY

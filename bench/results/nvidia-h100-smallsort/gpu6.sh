set -u
B=gpubuild-bench/bench
AB_ROUNDS=2 BENCH_ARGS="--prims sort_keys,sort_pairs,topk,reduce_by_key,partition,sort_keys64 --max-log2 26" timeout 330 bash bench/run_gpu.sh ab > /dev/null 2> $OUT/ab.err; echo "ab rc=$?"
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/scankit-bench-cache
slug=$($B/bench_all --print-slug); d=$OUT/results/$slug
timeout 150 $B/bench_cub --csv $d/cub_small.csv --budget 140 --prims sort_keys,sort_pairs,topk,reduce_by_key,partition,sort_keys64 --dists uniform --min-log2 16 --max-log2 26 2>/dev/null; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,os
d=sys.argv[1]; t={}
for side in ('old','new'):
  for r in (1,2):
    p=f'{d}/ab_{side}_{r}.csv'
    if not os.path.exists(p): continue
    for row in csv.DictReader(open(p)):
      if row['implementation']=='scankit' and row['time_ms']:
        t.setdefault((row['primitive'],int(row['n'])),{}).setdefault(side,[]).append(float(row['time_ms']))
cub={}
for row in csv.DictReader(open(f'{d}/cub_small.csv')):
  if row['time_ms']: cub[(row['primitive'],int(row['n']))]=float(row['time_ms'])
print('| prim | n | old ms | new ms | new/old | CUB ms | CUB/new |')
for k in sorted(t):
  o=t[k].get('old',[]); n=t[k].get('new',[]); c=cub.get(k)
  if o and n: print('| %s | 2^%d | %s | %s | %.3f | %s | %s |'%(k[0],k[1].bit_length()-1,' / '.join('%.4f'%x for x in o),' / '.join('%.4f'%x for x in n),min(n)/min(o),'%.4f'%c if c else '-','%.2f'%(c/min(n)) if c else '-'))
PY

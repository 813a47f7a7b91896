set -u
# The one-sweep sort's digit counts scanned by the counting launch's last work-group (new) against
# the host-enqueued scan after it (old, baba25c), alternated three times, with CUB's sorts of the
# same keys in the same command; then the by-key totals' one-pass tile swept at 2^24 and 2^28.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
P=sort_keys,sort_pairs,sort_keys64,sort_pairs64,topk,segsort_large
A="$C --min-log2 16 --max-log2 24 --step 2 --prims $P"
for r in 1 2 3; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 100 $x $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
timeout 60 $x $C --min-log2 26 --max-log2 28 --prims sort_keys,sort_pairs --csv $d/new_big.csv 2>>$d/log; echo "new_big rc=$?"
timeout 60 $B/bench_all_old $C --min-log2 26 --max-log2 28 --prims sort_keys,sort_pairs --csv $d/old_big.csv 2>>$d/log; echo "old_big rc=$?"
timeout 120 $B/bench_cub --min-log2 16 --max-log2 24 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,glob
d=sys.argv[1]
def rows(f, impl='scankit'):
    try: return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']==impl and r['time_ms']}
    except FileNotFoundError: return {}
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2,3)]+[rows(d+'/%s_big.csv'%k)] for k in ('old','new')}
cub=rows(d+'/cub.csv','cub')
print('| primitive | n | old ms | new ms | new/old | CUB ms | CUB/new |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
keys=sorted(set(k for x in v['new'] for k in x))
for k in keys:
    try: o,nw=(sorted(x[k] for x in v[z] if k in x)[len([x for x in v[z] if k in x])//2] for z in ('old','new'))
    except IndexError: continue
    c=cub.get(k)
    print('| %s | 2^%d | %.4f | %.4f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,o,nw,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
PY
echo "by-key tile sweep (reduce_by_key, rle; one pass)"
for t in 32x32 32x16 32x8 64x16 64x32 128x8; do
  timeout 60 $B/bench_all $C --min-log2 24 --max-log2 28 --step 2 --prims reduce_by_key,rle --tile $t --csv $d/tile_$t.csv 2>>$d/log
  python3 -c "
import csv,sys
for r in csv.DictReader(open('$d/tile_$t.csv')):
    if r['implementation']=='scankit': print('$t',r['primitive'],r['n'],r['time_ms'],r['status'])"
done

set -u
# The one-sweep sort without its zeroing launch (new: the digit counts gather in context words the
# counting launch leaves zero) against the build before (old, 55fd429: zeroing launch, then the
# counting launch with the scan), alternated three times at 2^16-2^22, CUB's sorts in the same
# command; then the new build's per-launch timeline of the sort of keys at 2^16 (SCANKIT_LOG=1).
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
P=sort_keys,sort_pairs,sort_keys64,sort_pairs64,topk,segsort_large
A="$C --min-log2 16 --max-log2 22 --step 2 --prims $P"
for r in 1 2 3; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 100 $x $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
timeout 120 $B/bench_cub --min-log2 16 --max-log2 22 --step 2 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
def rows(f, impl='scankit'):
    try: return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']==impl and r['time_ms']}
    except FileNotFoundError: return {}
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2,3)] for k in ('old','new')}
cub=rows(d+'/cub.csv','cub')
print('| primitive | n | old ms | new ms | new/old | CUB ms | CUB/new |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
for k in sorted(set(k for x in v['new'] for k in x)):
    o,nw=(sorted(x[k] for x in v[z] if k in x)[len([x for x in v[z] if k in x])//2] for z in ('old','new'))
    c=cub.get(k)
    print('| %s | 2^%d | %.4f | %.4f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,o,nw,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
PY
T="$C --repeats 3 --min-repeats 3 --warmups 2 --min-log2 16 --max-log2 16 --prims sort_keys"
SCANKIT_TRACE=1 timeout 60 $B/bench_all $T --csv $d/t.csv 2>&1 | grep -o "scankit launch: kernel=[a-z_0-9]*" > $d/t.names
SCANKIT_LOG=1 timeout 60 $B/bench_all $T --csv $d/t.csv > $d/t.log 2>&1
python3 - $d <<'PY'
import sys,re
d=sys.argv[1]
names=[l.split('=')[1].strip() for l in open(d+'/t.names')]
block=[]
for line in open(d+'/t.log'):
    m=re.search(r'profile: launch (\d+) of (\d+): ([\d.]+) \.\. ([\d.]+) us \(([\d.]+) us\)',line)
    if not m: continue
    if m.group(1)=='1': block=[]
    block.append((float(m.group(3)),float(m.group(4)),float(m.group(5))))
print('sort_keys 2^16 timeline: span %.1f us, %d launches'%(block[-1][1],len(block)))
prev=0.0
for i,(s,e,du) in enumerate(block):
    nm=names[-len(block)+i] if len(names)>=len(block) else '?'
    print('  %-28s start %8.1f  gap %6.1f  dur %7.1f'%(nm,s,s-prev,du)); prev=e
PY
cd $d && tar czf $OUT/csv.tgz *.csv && cd / && rm -rf $d

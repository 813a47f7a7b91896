set -u
# segmented sort: the tile ranks keys of up to 32 bits by one word (bits << 16 | place) with one comparison (new),
# against the committed tiles (mid, 9dfa396) and the lists (old, 588a34a), alternated twice, and CUB
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
A="$C --min-log2 16 --max-log2 28 --dists uniform,entropy:3 --prims segsort_small"
for r in 1 2; do
  for v in old mid new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 100 $x $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
timeout 150 $B/bench_cub --csv $d/cub.csv --budget 120 --min-log2 16 --max-log2 28 --dists uniform,entropy:3 --prims segsort_small 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
def rows(f, impl):
    return {(r['primitive'],int(r['n']),r['distribution']):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
cub=rows(d+'/cub.csv',None)
v={k:[rows(d+'/%s%d.csv'%(k,i),'scankit') for i in (1,2)] for k in ('old','mid','new')}
print('| primitive | n | dist | old ms | mid ms | new ms | new/mid | new/old | CUB ms | CUB/new |')
for k in sorted(v['new'][0]):
    o,m,nw=(min(x[k] for x in v[z] if k in x) for z in ('old','mid','new')); c=cub.get(k)
    print('| %s | 2^%d | %s | %.4f | %.4f | %.4f | %.2f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,k[2],o,m,nw,nw/m,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
PY
cp $d/*.csv $d/log $OUT/ ; rm -rf $d

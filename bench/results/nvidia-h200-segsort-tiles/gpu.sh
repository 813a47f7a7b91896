set -u
# segmented sort: segments up to a tile sorted by the tile they start in (no per-segment lists; as committed: spans in one word, a work-group per tile), A/B against 588a34a, and CUB
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
P=segsort_small,segsort_large
A="$C --min-log2 16 --max-log2 28 --dists uniform --prims $P"
for r in 1 2; do
  timeout 90 $B/bench_all_old $A --csv $d/old$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 90 $B/bench_all $A --csv $d/new$r.csv 2>>$d/log; echo "new$r rc=$?"
done
timeout 150 $B/bench_cub --csv $d/cub.csv --budget 120 --min-log2 16 --max-log2 28 --dists uniform --prims $P 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,glob,os,statistics
d=sys.argv[1]
def rows(f, impl):
    return {(r['primitive'],int(r['n']),r['distribution']):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
cub=rows(d+'/cub.csv',None); e3={}
old=[rows(d+'/old%d.csv'%i,'scankit') for i in (1,2)]; new=[rows(d+'/new%d.csv'%i,'scankit') for i in (1,2)]
print('| primitive | n | dist | old ms | new ms | new/old | CUB ms | CUB/new |')
for k in sorted(new[0]):
    o=min(x[k] for x in old if k in x); nw=min(x[k] for x in new if k in x); c=cub.get(k)
    print('| %s | 2^%d | %s | %.4f | %.4f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,k[2],o,nw,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
for k in sorted(e3):
    c=cub.get(k); print('| %s | 2^%d | %s | - | %.4f | - | %s | %s |'%(k[0],k[1].bit_length()-1,k[2],e3[k],'%.4f'%c if c else '-','%.2f'%(c/e3[k]) if c else '-'))
PY
cp $d/*.csv $d/log $OUT/ ; rm -rf $d

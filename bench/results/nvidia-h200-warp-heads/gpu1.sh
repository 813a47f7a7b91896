set -u
# segmented scans' own tile: head bits by warp ballots over coalesced reads of the keys / flags (new)
# against each work-item reading its own run (SK_TILE_NO_WARP_HEADS, the same binary), alternated
# twice; a tile sweep at 2^28 with the ballots; CUB on the same inputs; the by-key and segscan tests on the GPU
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib:$PWD/gpubuild-tests/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-tests/tests; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
P=reduce_by_key,rle,segscan,segreduce
SCANKIT_LOG=1 timeout 60 $B/bench_all $C --min-log2 20 --max-log2 20 --dists uniform --prims $P --csv $d/log20.csv > $d/log20.log 2>&1; echo "log20 rc=$?"
grep -i "build\|fail\|wrong" $d/log20.log | head -5
A="$C --min-log2 16 --max-log2 28 --dists uniform --prims $P"
for r in 1 2; do
  SCANKIT_KERNEL_DEFINES=SK_TILE_NO_WARP_HEADS timeout 60 $B/bench_all $A --csv $d/old$r.csv 2>>$d/log; echo "old$r rc=$?"
  timeout 60 $B/bench_all $A --csv $d/new$r.csv 2>>$d/log; echo "new$r rc=$?"
done
for tile in 32x32 64x32 128x32 64x16 128x16 256x16 256x8; do
  timeout 40 $B/bench_all $C --min-log2 28 --max-log2 28 --dists uniform --prims reduce_by_key,rle,segscan --tile $tile --csv $d/tile$tile.csv 2>>$d/log; echo "tile $tile rc=$?"
done
timeout 100 $B/bench_cub --csv $d/cub.csv --budget 80 --min-log2 16 --max-log2 28 --dists uniform --prims $P 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
def rows(f, impl='scankit'):
    if not os.path.exists(f): return {}
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
cub=rows(d+'/cub.csv',None)
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2)] for k in ('old','new')}
print('| primitive | n | old ms | new ms | new/old | CUB ms | CUB/new |')
for k in sorted(v['new'][0]):
    o,nw=(min(x[k] for x in v[z] if k in x) for z in ('old','new')); c=cub.get(k)
    print('| %s | 2^%d | %.4f | %.4f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,o,nw,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
print('| tile | ' + ' | '.join(['reduce_by_key','rle','segscan']) + ' |')
for f in sorted(glob.glob(d+'/tile*.csv')):
    t=rows(f); print('| %s | %s |'%(os.path.basename(f)[4:-4], ' | '.join('%.4f'%t[(p,1<<28)] if (p,1<<28) in t else '-' for p in ('reduce_by_key','rle','segscan'))))
PY
grep -i "wrong\|error\|fail" $d/log | head -5
cp $d/*.csv $d/*.log $d/log $OUT/ ; rm -rf $d

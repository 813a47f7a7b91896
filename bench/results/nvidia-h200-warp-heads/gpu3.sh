set -u
# the segmented scans' own tile with 64 items a work-item (head bits in a 64-bit word): tiles swept at
# 2^24..2^28 (same binary, --tile), two rounds; CUB from run1
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
P=reduce_by_key,rle,segscan,segreduce
for r in 1 2; do
  for tile in 32x32 32x64 64x64 128x64 64x32; do
    timeout 40 $B/bench_all $C --min-log2 24 --max-log2 28 --dists uniform --prims $P --tile $tile --csv $d/t$tile-$r.csv 2>>$d/log; echo "tile $tile rc=$?"
  done
done
cp bench/results/nvidia-h200-warp-heads/run1-in-turns/cub.csv $d/
python3 - $d <<'PY'
import csv,sys,glob,os
d=sys.argv[1]
def rows(f, impl='scankit'):
    if not os.path.exists(f): return {}
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
cub=rows(d+'/cub.csv',None)
tiles=['32x32','32x64','64x64','128x64','64x32']
t={x:[rows(d+'/t%s-%d.csv'%(x,r)) for r in (1,2)] for x in tiles}
print('| primitive | n | ' + ' | '.join(tiles) + ' | CUB | CUB/best |')
for k in sorted(t['32x32'][0]):
    best=[min(z[k] for z in t[x] if k in z) if any(k in z for z in t[x]) else None for x in tiles]
    c=cub.get(k); b=min(v for v in best if v)
    print('| %s | 2^%d | %s | %s | %s |'%(k[0],k[1].bit_length()-1,' | '.join('%.4f'%v if v else '-' for v in best),'%.4f'%c if c else '-','%.2f'%(c/b) if c else '-'))
PY
grep -i "wrong\|error" $d/log | sort | uniq -c | head -5
cp $d/*.csv $d/log $OUT/ ; rm -rf $d

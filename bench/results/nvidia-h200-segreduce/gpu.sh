set -u
# segment totals by offsets: the offsets' check read back once at the end below 2^25 elements
# (new) against the check read back before the other launches (old, ef67a2d), alternated twice,
# 2^16..2^28 uniform; the segmented scan as a control (unchanged); CUB on the same inputs
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3"
A="$C --min-log2 16 --max-log2 28 --dists uniform --prims segreduce,segscan"
for r in 1 2; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 60 $x $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
timeout 60 $B/bench_cub --csv $d/cub.csv --budget 50 --min-log2 16 --max-log2 28 --dists uniform --prims segreduce,segscan 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
def rows(f, impl='scankit'):
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
cub=rows(d+'/cub.csv',None)
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2)] for k in ('old','new')}
print('| primitive | n | old ms | new ms | new/old | CUB ms | CUB/new |')
print('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
for k in sorted(v['new'][0]):
    o,nw=(min(x[k] for x in v[z] if k in x) for z in ('old','new')); c=cub.get(k)
    print('| %s | 2^%d | %.4f | %.4f | %.2f | %s | %s |'%(k[0],k[1].bit_length()-1,o,nw,nw/o,'%.4f'%c if c else '-','%.2f'%(c/nw) if c else '-'))
PY
grep -i "wrong\|error" $d/log | sort | uniq -c | head -5
cp $d/*.csv $d/log $OUT/ ; rm -rf $d

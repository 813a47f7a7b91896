# Small sorts over and over (every result checked by bench_all), a build (old: OLD_REV below) and
# the new one, to see whether the device faults come back (checked results, medians of the four
# rounds printed last).
set -u
OLD_REV=${OLD_REV:-baba25c}   # what bench_all_old was built from (run_gpu.sh --prepare-old)
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --repeats 200 --min-repeats 50 --dists uniform,entropy:3"
A="$C --min-log2 14 --max-log2 20 --step 1 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64"
for r in 1 2 3 4; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 100 $x $A --seed $r --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$? bad=$(grep -c ',scankit,.*,\(error\|wrong\|mismatch\)' $d/$v$r.csv) rows=$(grep -c ',scankit,' $d/$v$r.csv)"
  done
done
grep -h ",scankit," $d/*.csv | awk -F, '$10!="ok"{print FILENAME,$1,$2,$3,$10,$14}' | head
python3 - $d <<'PY'
import csv,sys,statistics
d=sys.argv[1]
def rows(f):
    try: return {(r['primitive'],int(r['n']),r['distribution']):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']=='scankit' and r['time_ms'] and r['status']=='ok'}
    except FileNotFoundError: return {}
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2,3,4)] for k in ('old','new')}
print('| primitive | n | dist | old ms | new ms | new/old |')
for k in sorted(set(k for x in v['new'] for k in x)):
    a=[x[k] for x in v['old'] if k in x]; b=[x[k] for x in v['new'] if k in x]
    if a and b: print('| %s | 2^%d | %s | %.4f | %.4f | %.2f |'%(k[0],k[1].bit_length()-1,k[2],statistics.median(a),statistics.median(b),statistics.median(b)/statistics.median(a)))
PY

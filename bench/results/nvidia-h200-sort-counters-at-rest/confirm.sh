# After stress.sh: eight more rounds of small sorts of the new build (fresh seeds, every result
# checked), CUB's sorts of the same keys at those sizes, and the large sizes once, old and new.
set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --repeats 200 --min-repeats 50 --dists uniform,entropy:3"
A="$C --min-log2 14 --max-log2 20 --step 1 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64,topk,segsort_large"
for r in 11 12 13 14 15 16 17 18; do
  timeout 100 $B/bench_all $A --seed $r --csv $d/n$r.csv 2>>$d/log
  echo "new seed $r rc=$? ok=$(grep -c ',scankit,.*,ok,' $d/n$r.csv) rows=$(grep -c ',scankit,' $d/n$r.csv)"
done
grep -h ",scankit," $d/n*.csv | awk -F, '$10!="ok"{print $1,$2,$3,$10,$14}' | head
timeout 120 $B/bench_cub --min-log2 14 --max-log2 20 --step 1 --dists uniform,entropy:3 --prims sort_keys,sort_pairs,sort_keys64,sort_pairs64 --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
L="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform --min-log2 22 --max-log2 28 --step 2 --prims sort_keys,sort_pairs"
timeout 100 $B/bench_all_old $L --csv $d/old_big.csv 2>>$d/log; echo "old big rc=$?"
timeout 100 $B/bench_all $L --csv $d/new_big.csv 2>>$d/log; echo "new big rc=$?"
python3 - $d <<'PY'
import csv,sys,statistics,glob
d=sys.argv[1]
def rows(f, impl='scankit'):
    return {(r['primitive'],int(r['n']),r['distribution']):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']==impl and r['time_ms'] and r['status']=='ok'}
runs=[rows(f) for f in sorted(glob.glob(d+'/n*.csv'))]
cub=rows(d+'/cub.csv','cub')
print('| primitive | n | dist | new ms (median of rounds) | CUB ms | CUB/new |')
for k in sorted(set(k for x in runs for k in x)):
    m=statistics.median([x[k] for x in runs if k in x]); c=cub.get(k)
    print('| %s | 2^%d | %s | %.4f | %s | %s |'%(k[0],k[1].bit_length()-1,k[2],m,'%.4f'%c if c else '-','%.2f'%(c/m) if c else '-'))
o,nw=rows(d+'/old_big.csv'),rows(d+'/new_big.csv')
print('| primitive | n | old ms | new ms | new/old |')
for k in sorted(nw):
    if k in o: print('| %s | 2^%d | %.4f | %.4f | %.3f |'%(k[0],k[1].bit_length()-1,o[k],nw[k],nw[k]/o[k]))
PY
cd $d && tar czf $OUT/csv.tgz *.csv log && cd / && rm -rf $d

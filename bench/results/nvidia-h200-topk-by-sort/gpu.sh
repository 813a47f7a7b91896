# Top-k (k = 1000, sorted output, as bench_all runs it) by the selection (SCANKIT_TOPK_SORT_BELOW=0)
# and by a whole sort (SCANKIT_TOPK_SORT_BELOW=4294967295) of the same keys, alternated three times,
# 2^14-2^24, uniform and entropy:3; CUB's full sort of the same keys in the same command.
set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
A="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.2 --dists uniform,entropy:3 --min-log2 14 --max-log2 24 --step 1 --prims topk"
for r in 1 2 3; do
  SCANKIT_TOPK_SORT_BELOW=0 timeout 100 $B/bench_all $A --csv $d/sel$r.csv 2>>$d/log; echo "sel$r rc=$?"
  SCANKIT_TOPK_SORT_BELOW=4294967295 timeout 100 $B/bench_all $A --csv $d/sort$r.csv 2>>$d/log; echo "sort$r rc=$?"
done
timeout 100 $B/bench_cub --min-log2 14 --max-log2 24 --step 1 --dists uniform,entropy:3 --prims sort_keys --csv $d/cub.csv 2>>$d/log; echo "cub rc=$?"
python3 - $d <<'PY'
import csv,sys,statistics
d=sys.argv[1]
def rows(f, impl='scankit', prim='topk'):
    return {(int(r['n']),r['distribution']):(float(r['time_ms']) if r['time_ms'] else None, r['status']) for r in csv.DictReader(open(f)) if r['implementation']==impl and r['primitive']==prim}
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2,3)] for k in ('sel','sort')}
cub=rows(d+'/cub.csv','cub','sort_keys')
bad=[(k,x[k][1]) for z in v for x in v[z] for k in x if x[k][1]!='ok']
print('not ok:',bad[:5])
print('| n | dist | selection ms | whole sort ms | sort/selection | CUB sort_keys ms |')
for k in sorted(v['sort'][0]):
    a=statistics.median([x[k][0] for x in v['sel'] if x[k][0]]); b=statistics.median([x[k][0] for x in v['sort'] if x[k][0]])
    c=cub.get(k,(None,))[0]
    print('| 2^%d | %s | %.4f | %.4f | %.2f | %s |'%(k[0].bit_length()-1,k[1],a,b,b/a,'%.4f'%c if c else '-'))
PY
cd $d && tar czf $OUT/csv.tgz *.csv log

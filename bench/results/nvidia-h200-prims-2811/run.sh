set -u
# every primitive against CUB on one H200, uniform uint32: 2^16-2^24 all of
# them, 2^28 those of the new primitives and the sorts (one call, from the
# repository root with gpubuild-bench carried)
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; nvcc --version | tail -2
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
BIG=segsort_small,segsort_large,histogram,rle,reduce_by_key,topk,sort_less,merge_keys,lower_bound,sort_keys,sort_pairs
timeout 200 $B/bench_all $C --min-log2 16 --max-log2 24 --csv $OUT/small.csv 2>$OUT/small.log; echo "small rc=$?"
timeout 200 $B/bench_all $C --min-log2 28 --max-log2 28 --prims $BIG --csv $OUT/big.csv 2>$OUT/big.log; echo "big rc=$?"
timeout 60 $B/bench_cub --max-measure-s 0.3 --dists uniform --min-log2 16 --max-log2 24 --csv $OUT/cub_small.csv 2>$OUT/cub_small.log; echo "cub small rc=$?"
timeout 60 $B/bench_cub --max-measure-s 0.3 --dists uniform --min-log2 28 --max-log2 28 --prims $BIG --csv $OUT/cub_big.csv 2>$OUT/cub_big.log; echo "cub big rc=$?"
python3 - $OUT <<'PY'
import csv,sys
d=sys.argv[1]
def rows(f, impl):
    try: return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if (impl is None or r['implementation']==impl) and r['time_ms']}
    except FileNotFoundError: return {}
s={**rows(d+'/small.csv','scankit'),**rows(d+'/big.csv','scankit')}
c={**rows(d+'/cub_small.csv',None),**rows(d+'/cub_big.csv',None)}
print('| primitive | n | scankit ms | CUB ms | CUB/scankit |')
for k in sorted(s):
    print('| %s | 2^%d | %.4f | %s | %s |'%(k[0],k[1].bit_length()-1,s[k],'%.4f'%c[k] if k in c else '-','%.2f'%(c[k]/s[k]) if k in c else '-'))
PY

set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; slug=$($B/bench_all --print-slug); d=$OUT/results/$slug; mkdir -p $d
nvidia-smi -L
P=scan_inclusive,reduce,select_if,partition,sort_keys,sort_pairs,segscan,segreduce,histogram,reduce_by_key,rle,sort_keys64,sort_pairs64,topk,merge_keys
A="--min-log2 24 --max-log2 28 --step 2 --dists uniform --prims $P"
timeout 330 $B/bench_all --csv $d/bench_all.csv --budget 320 --no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.4 $A 2> $d/bench_all.log; echo "all rc=$?"
timeout 200 $B/bench_cub --csv $d/bench_cub.csv --budget 190 $A 2> $d/bench_cub.log; echo "cub rc=$?"
tail -n1 $d/bench_all.log
python3 - "$d" <<'PY'
import csv,sys,os
d=sys.argv[1]
sk={};cub={}
for r in csv.DictReader(open(os.path.join(d,'bench_all.csv'))):
    if r['implementation']=='scankit' and r['time_ms']: sk[(r['primitive'],int(r['n']))]=float(r['time_ms'])
for r in csv.DictReader(open(os.path.join(d,'bench_cub.csv'))):
    if r['time_ms']: cub[(r['primitive'],int(r['n']))]=float(r['time_ms'])
for k in sorted(sk):
    c=cub.get(k); print('%s 2^%d %.4f %s %s'%(k[0],k[1].bit_length()-1,sk[k],'%.4f'%c if c else '-','%.2f'%(c/sk[k]) if c else '-'))
PY

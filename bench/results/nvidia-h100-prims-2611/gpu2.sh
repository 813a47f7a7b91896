# gpu2.sh: bench_all (scankit) and bench_cub side by side on the chosen prims.
# env: PRIMS, DISTS, MINL, MAXL, STEP, AB/CB budgets, AT/CT timeouts
set -u
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; slug=$($B/bench_all --print-slug); d=$OUT/results/$slug; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
A="--min-log2 ${MINL:-20} --max-log2 ${MAXL:-28} --step ${STEP:-4} --dists ${DISTS:-uniform} ${PRIMS:+--prims $PRIMS}"
echo "run: $(date -u '+%F %H:%M UTC') $(nproc) cores; bench_all --budget ${AB:-300} --no-boost --no-host --serial-max-log2 20 --qsort-max-log2 16 --max-measure-s 0.5 $A; bench_cub --budget ${CB:-120} $A" > $d/run.txt
timeout ${AT:-330} $B/bench_all --csv $d/bench_all.csv --budget ${AB:-300} --no-boost --no-host --serial-max-log2 20 --qsort-max-log2 16 --max-measure-s 0.5 $A 2> $d/bench_all.log; echo "all rc=$?"
timeout ${CT:-170} $B/bench_cub --csv $d/bench_cub.csv --budget ${CB:-120} $A 2> $d/bench_cub.log; echo "cub rc=$?"
python3 - "$d" <<'PY'
import csv,sys,os
d=sys.argv[1]
def rows(f):
    p=os.path.join(d,f)
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []
sk={}; cub={}
for r in rows('bench_all.csv'):
    if r['implementation']=='scankit' and r['time_ms']: sk[(r['primitive'],r['n'],r['distribution'])]=float(r['time_ms'])
for r in rows('bench_cub.csv'):
    if r['time_ms']: cub[(r['primitive'],r['n'],r['distribution'])]=float(r['time_ms'])
print('| primitive | n | dist | scankit ms | CUB ms | CUB/scankit |')
for k in sorted(sk, key=lambda k:(k[0],int(k[1]),k[2])):
    c=cub.get(k)
    print('| %s | 2^%d | %s | %.4f | %s | %s |'%(k[0],int(k[1]).bit_length()-1,k[2],sk[k],'%.4f'%c if c else '-','%.2f'%(c/sk[k]) if c else '-'))
PY

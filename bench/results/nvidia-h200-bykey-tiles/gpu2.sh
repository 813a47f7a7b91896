set -u
# Where the time of the tiles' encoding and reduction goes (each launch's
# start and end, SCANKIT_LOG=1 profiling, named by a SCANKIT_TRACE run) at
# 2^16, 2^24 and 2^28; then the tiles' shapes at 2^24-2^28. From the
# repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/run2; mkdir -p $d/tl $d/tiles
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --repeats 3 --min-repeats 3 --warmups 2 --dists uniform"
for k in 16 24 28; do
  for p in rle reduce_by_key; do
    SCANKIT_TRACE=1 timeout 60 $B/bench_all $C --min-log2 $k --max-log2 $k --prims $p --csv $d/tl/$p-$k.csv 2>&1 | grep -o "scankit launch: kernel=[a-z_0-9]*" > $d/tl/$p-$k.names
    SCANKIT_LOG=1 timeout 60 $B/bench_all $C --min-log2 $k --max-log2 $k --prims $p --csv $d/tl/$p-$k.csv > $d/tl/$p-$k.log 2>&1; echo "$p 2^$k rc=$?"
  done
done
python3 - $d/tl <<'PY' | tee $d/timeline.txt
import sys,glob,os,re,csv
d=sys.argv[1]
for f in sorted(glob.glob(d+'/*.log')):
    names=[l.split('=')[1].strip() for l in open(f[:-4]+'.names')]
    block=[]
    for line in open(f):
        m=re.search(r'profile: launch (\d+) of (\d+): ([\d.]+) \.\. ([\d.]+) us \(([\d.]+) us\)',line)
        if not m: continue
        if m.group(1)=='1': block=[]
        block.append((float(m.group(3)),float(m.group(4)),float(m.group(5))))
    if not block: print(os.path.basename(f),'no timeline'); continue
    t=[r for r in csv.DictReader(open(f[:-4]+'.csv')) if r['implementation']=='scankit']
    print('## %s: span %.1f us, %d launches (bench median %s ms)'%(os.path.basename(f)[:-4], block[-1][1] if block else 0, len(block), t[0]['time_ms'] if t else '?'))
    prev=0.0
    for i,(s,e,du) in enumerate(block):
        nm=names[-len(block)+i] if len(names)>=len(block) else '?'
        print('  %-28s start %8.1f  gap %6.1f  dur %7.1f'%(nm,s,s-prev,du)); prev=e
PY
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 24 --max-log2 28 --prims rle,reduce_by_key"
for t in 256x16 256x32 128x16 128x32 512x8 256x8 64x32 512x16; do
  timeout 40 $B/bench_all $S --no-boost --no-host --tile $t --csv $d/tiles/t$t.csv 2>>$d/tiles/log; echo "tile $t rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/tiles | tee $d/tiles/table.md
cd $OUT && tar czf run2.tgz run2 && rm -rf run2

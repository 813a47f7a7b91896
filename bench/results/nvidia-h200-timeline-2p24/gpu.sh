set -u
# where the device time of one call goes at 2^24 (and 2^28 for the long segments; uniform uint32): each launch's start and
# end from the first's (SCANKIT_LOG=1, profiling events) in the last timed call, named by a separate
# SCANKIT_TRACE run (the trace's output slows the host between launches and the GPU's clocks drop)
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --repeats 3 --min-repeats 3 --warmups 2 --dists uniform"
for k in 24 28; do
  for p in segsort_large segsort_small rle reduce_by_key merge_keys partition sort_pairs; do
    [ $k = 28 ] && [ $p != segsort_large ] && continue
    SCANKIT_TRACE=1 timeout 120 $B/bench_all $C --min-log2 $k --max-log2 $k --prims $p --csv $d/$p-$k.csv 2>&1 | grep -o "scankit launch: kernel=[a-z_0-9]*" > $d/$p-$k.names
    SCANKIT_LOG=1 timeout 120 $B/bench_all $C --min-log2 $k --max-log2 $k --prims $p --csv $d/$p-$k.csv > $d/$p-$k.log 2>&1; echo "$p 2^$k rc=$?"
  done
done
python3 - $d <<'PY'
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
cp $d/*.csv $OUT/ 2>/dev/null; rm -rf $d

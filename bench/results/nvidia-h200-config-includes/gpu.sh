set -u
# program configurations with include lines for the shared sources (new) against the whole texts
# (old, 927c3b1), alternated twice, small sizes where the host's time between launches shows;
# then the new build's per-launch timeline of the sort and top-k at 2^16 (SCANKIT_LOG=1)
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --dists uniform"
P=scan_inclusive,sort_keys,sort_pairs,topk,merge_keys,histogram,segreduce,reduce_by_key,segsort_small,sort_less,partition
A="$C --min-log2 16 --max-log2 22 --step 2 --prims $P"
for r in 1 2; do
  for v in old new; do
    x=$B/bench_all_$v; [ $v = new ] && x=$B/bench_all
    timeout 100 $x $A --csv $d/$v$r.csv 2>>$d/log; echo "$v$r rc=$?"
  done
done
python3 - $d <<'PY'
import csv,sys
d=sys.argv[1]
def rows(f):
    return {(r['primitive'],int(r['n'])):float(r['time_ms']) for r in csv.DictReader(open(f)) if r['implementation']=='scankit' and r['time_ms']}
v={k:[rows(d+'/%s%d.csv'%(k,i)) for i in (1,2)] for k in ('old','new')}
print('| primitive | n | old ms | new ms | new/old |')
print('| --- | --- | ---: | ---: | ---: |')
for k in sorted(v['new'][0]):
    o,nw=(min(x[k] for x in v[z] if k in x) for z in ('old','new'))
    print('| %s | 2^%d | %.4f | %.4f | %.2f |'%(k[0],k[1].bit_length()-1,o,nw,nw/o))
PY
for p in sort_keys topk; do
  SCANKIT_LOG=1 timeout 60 $B/bench_all $C --repeats 3 --min-repeats 3 --warmups 2 --min-log2 16 --max-log2 16 --prims $p --csv $d/tl-$p.csv > $d/tl-$p.log 2>&1
  echo "## $p 2^16 (last call: start, end, us)"; grep "profile: launch" $d/tl-$p.log | awk '/launch 1 of/{b=""} {b=b $0 "\n"} END{printf "%s", b}' | sed 's/.*profile: //'
done
grep -i "wrong\|error" $d/log | sort | uniq -c | head -5
cp $d/*.csv $d/log $OUT/ ; rm -rf $d

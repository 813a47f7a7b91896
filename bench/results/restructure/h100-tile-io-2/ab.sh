#!/usr/bin/env bash
# variants: name=binary:defines ; rounds alternate
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia
rounds=$1; shift; args=$1; shift
d=$OUT/ab; mkdir -p $d
for r in $(seq 1 $rounds); do
  for v in "$@"; do
    name=${v%%=*}; rest=${v#*=}; bin=${rest%%:*}; defs=${rest#*:}
    SCANKIT_KERNEL_DEFINES="$defs" $bin --seed 1 --csv $d/$name-$r.csv $args > $d/$name-$r.log 2>&1 || echo "$name $r failed"
  done
done
# primitive,n,dist,impl,...,time_ms col 7
for v in "$@"; do name=${v%%=*}; cat $d/$name-*.csv | awk -F, -v nm=$name '$4=="scankit"{k=$1" "$2; t[k]=t[k]" "$7} END{for(k in t) print nm, k, t[k]}'; done | sort -k2,2 -k3,3n -k1,1
tar -C $OUT -czf $OUT/ab.tgz ab && rm -rf $d

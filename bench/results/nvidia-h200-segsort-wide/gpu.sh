set -u
# segsort_small (segments of 1-64 keys, uniform uint32) with the tile kernel's variants chosen by
# SCANKIT_KERNEL_DEFINES (experiment knobs in segsort.cl): base = as built (8-byte words of bits and
# place, one read a key compared); SKX_WIDE = each word with its segment's window start on top, so
# that a key counts the words below its own over any span holding its segment, read SKX_VEC words
# a time (1, 2, 4) over the segment's span rounded out to SKX_VEC; SKX_LSEARCH = each key's segment
# found among the tile's segment starts copied to local memory instead of in the offsets.
# SKX_EACH_WG: the work-group of the one-item kernels (offsets' check). Medians of 3 alternated rounds
# (bench's own median of repeats each), 2^24-2^28, then test_segsort with the chosen variant.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/${RUN:-run1}; mkdir -p $d/v
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 24 --max-log2 28 --step 2 --prims segsort_small --dists uniform"
for r in 1 2 3; do
  for v in base w1:SKX_WIDE,SKX_VEC=1 w2:SKX_WIDE,SKX_VEC=2 w4:SKX_WIDE,SKX_VEC=4 w2l:SKX_WIDE,SKX_VEC=2,SKX_LSEARCH w4l:SKX_WIDE,SKX_VEC=4,SKX_LSEARCH; do
    name=${v%%:*}; D=""; [ "$name" != base ] && D=$(echo ${v#*:} | tr , ' ')
    SCANKIT_KERNEL_DEFINES="$D" timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/v/${name}_r$r.csv 2>>$d/v/log; echo "$name $r rc=$?"
  done
  SKX_EACH_WG=256 SCANKIT_KERNEL_DEFINES="SKX_WIDE SKX_VEC=4 SKX_LSEARCH" timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/v/w4le_r$r.csv 2>>$d/v/log; echo "w4le $r rc=$?"
done
timeout 60 $B/bench_cub $S --csv $d/v/cub_r1.csv 2>>$d/v/log; echo "cub rc=$?"
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/v | tee $d/v/table.md
( time SCANKIT_KERNEL_DEFINES="SKX_WIDE SKX_VEC=4 SKX_LSEARCH" timeout 150 $T/test_segsort -j4 ) > $d/test_segsort_w4l.txt 2>&1; echo "test_segsort w4l rc=$?"; grep -E "Synthesis|real|FAIL" $d/test_segsort_w4l.txt | head -5
grep -i -E "wrong|error" $d/v/log | grep -v " 0 wrong" | head
cd $OUT && tar czf ${RUN:-run1}.tgz ${RUN:-run1} && rm -rf ${RUN:-run1}

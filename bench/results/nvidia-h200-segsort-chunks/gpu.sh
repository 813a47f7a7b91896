set -u
# segsort_small (segments of 1-64 keys, uniform uint32) with the tile's ranking by chunks
# (SCANKIT_KERNEL_DEFINES="SK_SEG_CHUNK=C": each key counted among its segment's keys in its
# C-aligned chunk of the window, the chunks rewritten sorted, then binary searches of the segment's
# other chunks) against the count over the whole segment (base), one round each, 2^24-2^28;
# test_segsort with C=16 first. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/t/lib:$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; T=gpubuild-bench/t; d=$OUT/${RUN:-run1}; mkdir -p $d/v
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
( SCANKIT_KERNEL_DEFINES="SK_SEG_CHUNK=16" timeout 60 $T/test_segsort -j4 ) > $d/test_segsort_c16.txt 2>&1; echo "test_segsort c16 rc=$?"; grep -E "Synthesis|FAIL" $d/test_segsort_c16.txt | head -3
S="--serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 24 --max-log2 28 --step 2 --prims segsort_small --dists uniform"
for v in base c8:8 c16:16 c32:32; do
  name=${v%%:*}; D=""; [ "$name" != base ] && D="SK_SEG_CHUNK=${v#*:}"
  SCANKIT_KERNEL_DEFINES="$D" timeout 60 $B/bench_all $S --no-boost --no-host --csv $d/v/${name}_r1.csv 2>>$d/v/log; echo "$name rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $d/v | tee $d/v/table.md
grep -i -E "wrong|error" $d/v/log | grep -v " 0 wrong" | head
cd $OUT && tar czf ${RUN:-run1}.tgz ${RUN:-run1} && rm -rf ${RUN:-run1}

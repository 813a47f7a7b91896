set -u
# Where segsort_small's time goes (segments of 1-64 keys, uniform uint32), 2^24 and 2^28:
# each launch's device time (SCANKIT_LOG=1 profile lines) as built and with the tile
# kernel's parts left out (SCANKIT_KERNEL_DEFINES, results then wrong):
#   SK_SEGX_NORANK   no ranking loop (each key stored at its own place)
#   SK_SEGX_NOSEARCH no binary search of each key's segment (segments of 48 from the window's start)
# and CUB at the same sizes. From the repository root with gpubuild-bench carried.
export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p /etc/OpenCL/vendors; echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export SCANKIT_DEVICE=nvidia SCANKIT_CACHE_DIR=/tmp/skc
B=gpubuild-bench/bench; d=$OUT/r; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv > $d/env.txt 2>&1
C="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --repeats 5 --min-repeats 5 --warmups 2 --dists uniform --prims segsort_small"
for k in 24 28; do
  for v in base SK_SEGX_NORANK SK_SEGX_NOSEARCH "SK_SEGX_NORANK SK_SEGX_NOSEARCH"; do
    tag=$(echo $k-$v | tr ' ' '+')
    if [ "$v" = base ]; then D=""; else D="$v"; fi
    SCANKIT_KERNEL_DEFINES="$D" SCANKIT_LOG=1 timeout 100 $B/bench_all $C --min-log2 $k --max-log2 $k --csv $d/$tag.csv > $d/$tag.log 2>&1; echo "$tag rc=$?"
    grep "profile: launch" $d/$tag.log | tail -4 | sed "s/^/$tag /"
  done
  timeout 60 $B/bench_cub $C --min-log2 $k --max-log2 $k --csv $d/cub-$k.csv > $d/cub-$k.log 2>&1; echo "cub $k rc=$?"; grep -h cub $d/cub-$k.csv | head -3
done
cd $OUT && tar czf r.tgz r && rm -rf r

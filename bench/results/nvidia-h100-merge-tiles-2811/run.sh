#!/usr/bin/env bash
# The merge's tile on one H100: bench_all's merge_keys and merge_pairs at
# 2^24 and 2^28, uniform uint32, for each GPU tile (--tile WxI: work-group
# size x items per work-item; "default" is the automatic 256 x 16 for keys,
# 256 x 8 for pairs), in one command, the tiles in turn twice. From the
# repository root with gpubuild-bench (bench/run_gpu.sh --prepare) at the
# commit of this file.
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
R=${OUT:?}; export SCANKIT_CACHE_DIR=/tmp/skc LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib
{ date -u; nproc; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/env.txt 2>&1
for round in 1 2; do
  for t in default 128x8 128x16 256x4 256x8 256x16 512x4 512x8 64x16 128x32; do
    tile=(); [ $t = default ] || tile=(--tile $t)
    gpubuild-bench/bench/bench_all --prims merge_keys,merge_pairs --min-log2 24 --max-log2 28 \
      --step 2 --dists uniform --no-boost --no-host --device nvidia --repeats 9 \
      --serial-max-log2 20 "${tile[@]}" --csv $R/r$round-$t.csv 2>> $R/log.txt
    awk -F, -v t=$t -v r=$round '$4=="scankit" {printf "%s %s %s %s %.4f\n", r, t, $1, $2, $7}' $R/r$round-$t.csv
  done
done | tee $R/summary.txt

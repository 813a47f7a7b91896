#!/usr/bin/env bash
# The CPU-shape sort on PoCL's 16 cores of a one-H200 machine, by buckets
# of the top digit (the default) and digit by digit from the lowest
# (--sort-bucket-bytes 1), side by side with Highway's vqsort (one thread,
# every thread): bench_all's sort_keys and sort_pairs, uniform uint32,
# 2^22-2^24 with the peers, then 2^26 without them (PoCL's device memory),
# two rounds of each variant in turn. From the repository root with
# gpubuild-bench (bench/run_gpu.sh --prepare; Highway's libhwy.so.1 and
# libhwy_contrib.so.1 copied into gpubuild-bench/lib) at this commit.
set -u
R=${OUT:?}; export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib SCANKIT_CACHE_DIR=/tmp/skc-cpu
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; lscpu | grep -E "L1d|L2|L3"; uptime; clinfo -l 2>/dev/null; } > $R/env.txt 2>&1
common=(--prims sort_keys,sort_pairs --dists uniform --no-boost --no-host --shape cpu
        --device pocl --repeats 7 --qsort-max-log2 20)
for r in 1 2; do
  for v in buckets passes; do
    extra=(); [ $v = passes ] && extra=(--sort-bucket-bytes 1)
    peers=(--serial-max-log2 24); [ $r = 2 ] && peers=(--serial-max-log2 0)
    gpubuild-bench/bench/bench_all "${common[@]}" "${extra[@]}" "${peers[@]}" --min-log2 22 --max-log2 24 \
      --csv $R/${v}_r$r.csv 2> $R/${v}_r$r.log
    gpubuild-bench/bench/bench_all "${common[@]}" "${extra[@]}" --serial-max-log2 0 --min-log2 26 --max-log2 26 \
      --csv $R/${v}26_r$r.csv 2> $R/${v}26_r$r.log
  done
done
for f in $R/*.csv; do
  awk -F, -v f=$(basename $f .csv) '$10=="ok" {printf "%-12s %-10s %9s %-13s %10.3f\n", f, $1, $2, $4, $7}' $f
done | tee $R/summary.txt

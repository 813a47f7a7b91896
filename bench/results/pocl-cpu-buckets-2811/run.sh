#!/usr/bin/env bash
# The CPU-shape sort by buckets of the top digit (the default) and digit by
# digit from the lowest (--sort-bucket-bytes 1), each run beside Highway's
# vqsort on one thread and on both (bench_all's vqsort, vqsort_mt) and the
# serial LSD sort: uniform uint32 keys and pairs, 2^20-2^24, three rounds
# of the two variants in turn. From the repository root with a Release
# build in build-release/ (Highway found: libhwy-dev). Cores free.
set -eu
O=${OUT:-$PWD/bench/results/pocl-cpu-buckets-2811}
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; lscpu | grep -E "L1d|L2|L3"; uptime; dpkg -l libhwy-dev pocl-opencl-icd | tail -2; } > $O/env.txt 2>&1
for r in 1 2 3; do
  for v in buckets passes; do
    extra=(); [ $v = passes ] && extra=(--sort-bucket-bytes 1)
    build-release/bench/bench_all --prims sort_keys,sort_pairs --min-log2 20 --max-log2 24 \
      --dists uniform --no-boost --no-host --shape cpu --repeats 7 --qsort-max-log2 10 \
      --serial-max-log2 24 "${extra[@]}" --csv $O/${v}_r$r.csv 2>> $O/bench_all.log
  done
done

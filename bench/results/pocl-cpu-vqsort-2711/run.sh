#!/usr/bin/env bash
# scankit's CPU-shape sort (PoCL, both cores) against Highway's vqsort on one
# thread and on every core (bench_all's vqsort and vqsort_mt rows), uint32
# keys and pairs, uniform, 2^20-2^24; run from the repository root with a
# build in build/ (Highway found: libhwy-dev). Cores free.
set -eu
O=${OUT:-$PWD/bench/results/pocl-cpu-vqsort-2711}
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; uptime; dpkg -l libhwy-dev | tail -1; } > $O/env.txt 2>&1
build/bench/bench_all --prims sort_keys,sort_pairs --min-log2 20 --max-log2 24 --dists uniform \
  --no-boost --no-host --shape cpu --repeats 5 --qsort-max-log2 20 --serial-max-log2 24 \
  --csv $O/bench_all.csv 2> $O/bench_all.log

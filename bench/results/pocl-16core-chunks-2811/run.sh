#!/usr/bin/env bash
# The CPU-shape sort on PoCL's 16 cores of a one-H100 machine: bench_all's
# sort_keys and sort_pairs (uniform uint32, 2^24 and 2^26) with the default
# chunks (4 per compute unit: 64) beside Highway's vqsort (one thread,
# every thread) and the serial LSD sort, then with --chunks 16, 24, 32
# (SK_PARAM_CPU_CHUNKS) alone. From the repository root with
# gpubuild-bench (bench/run_gpu.sh --prepare; Highway's libhwy.so.1 and
# libhwy_contrib.so.1 copied into gpubuild-bench/lib) at this commit.
set -u
R=${OUT:?}; export LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; uptime; clinfo -l 2>/dev/null; } > $R/env.txt 2>&1
common=(--prims sort_keys,sort_pairs --min-log2 24 --max-log2 26 --step 2 --dists uniform
        --no-boost --no-host --shape cpu --device pocl --repeats 5 --qsort-max-log2 20)
gpubuild-bench/bench/bench_all "${common[@]}" --serial-max-log2 26 --csv $R/default.csv 2> $R/default.log
for c in 16 24 32; do
  gpubuild-bench/bench/bench_all "${common[@]}" --serial-max-log2 0 --chunks $c --csv $R/chunks$c.csv 2> $R/chunks$c.log
done
for f in $R/default.csv $R/chunks*.csv; do
  awk -F, -v f=$(basename $f .csv) '$10=="ok" {printf "%-9s %-10s %9s %-13s %10.3f\n", f, $1, $2, $4, $7}' $f
done | tee $R/summary.txt

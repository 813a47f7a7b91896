#!/usr/bin/env bash
# The one-item kernels' work-group on PoCL (2 cores, CPU shape): the build
# with 256 (build-rel, at 0651f9f) against the same tree with 64
# (/tmp/t64/build-rel: primitives/launch.c's EACH_WG back to 64), the
# primitives that launch them on the CPU shape (segment totals by offsets:
# the check and the gather; top-k; polynomial evaluation at many points;
# histogram's bins), 2^20-2^24, three alternated rounds.
set -u
out=${1:-bench/results/pocl-cpu-each-wg}
S="--no-boost --no-host --serial-max-log2 10 --qsort-max-log2 10 --max-measure-s 0.3 --min-log2 20 --max-log2 24 --step 2 --prims segreduce,topk,poly_eval,histogram --dists uniform"
export SCANKIT_CACHE_DIR=/tmp/skc-each
for r in 1 2 3; do
  /tmp/t64/build-rel/bench/bench_all $S --csv $out/wg64_r$r.csv 2>>$out/log; echo "64 $r rc=$?"
  build-rel/bench/bench_all $S --csv $out/wg256_r$r.csv 2>>$out/log; echo "256 $r rc=$?"
done
python3 bench/results/nvidia-h200-reduce-histogram/summary.py $out | tee $out/table.md

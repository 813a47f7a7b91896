#!/usr/bin/env bash
# compare.sh - two builds of bench_all side by side on one machine: the
# same primitives, sizes, data and seed, run alternately ROUNDS times
# (old, new, old, new, ...), so that a drift of the machine hits both;
# prints the median of each build's per-round times (each itself a median
# of bench_all's repeats) and new / old for every (primitive, n).
#
#   bench/compare.sh OLD_BENCH_ALL NEW_BENCH_ALL OUT_DIR [bench_all options]
#
# e.g. on the GPU machine, with $OUT set:
#   bench/compare.sh gpubuild-old/bench/bench_all gpubuild-bench/bench/bench_all \
#       $OUT/compare --no-boost --no-host --min-log2 24 --max-log2 28 --step 2 \
#       --dists uniform --repeats 11
# ROUNDS (default 2) sets the rounds. The CSVs of every run stay in OUT_DIR;
#   bench/compare.sh --report OUT_DIR
# prints the table again from them (e.g. from rounds cut short).
set -euo pipefail
if [ "${1:-}" = --report ] && [ $# -eq 2 ]; then
  out=$2 rounds=0
else
  [ $# -ge 3 ] || { echo "usage: compare.sh OLD NEW OUT_DIR [bench_all options]" >&2; exit 2; }
  old=$1 new=$2 out=$3
  shift 3
  rounds=${ROUNDS:-2}
fi
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
  for side in old new; do
    bin=$old
    [ "$side" = new ] && bin=$new
    "$bin" --seed 1 --csv "$out/$side-$r.csv" "$@" >"$out/$side-$r.log" 2>&1 ||
      { echo "compare.sh: $side round $r failed (see $out/$side-$r.log)" >&2; exit 1; }
  done
done
# primitive,n,distribution,implementation,...,time_ms (column 7); scankit rows only.
awk -F, '
  function median(list,   a, k, i, j, t) {
    k = split(list, a, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  FNR == 1 { side = FILENAME ~ /\/old-[0-9]+\.csv$/ ? "old" : "new"; next }
  $4 == "scankit" && $10 == "ok" {
    key = $1 "," $2 "," $3
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
    t[side, key] = t[side, key] " " $7
  }
  END {
    printf "%-16s %11s %-9s %12s %12s %8s\n", "primitive", "n", "dist", "old ms", "new ms", "new/old"
    for (i = 1; i <= n; i++) {
      key = order[i]
      if (!((("old", key) in t) && (("new", key) in t))) continue
      o = median(t["old", key]); w = median(t["new", key])
      split(key, f, ",")
      printf "%-16s %11s %-9s %12.4f %12.4f %8.3f\n", f[1], f[2], f[3], o, w, w / o
    }
  }' "$out"/old-*.csv "$out"/new-*.csv | tee "$out/compare.txt"

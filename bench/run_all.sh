#!/usr/bin/env bash
# run_all.sh - runs bench_all (scankit, serial C, Boost.Compute) and, where it
# was built, bench_cub (CUB), on the same data; merges their CSVs and writes
# results.csv, results.md and one PNG plot per primitive (with gnuplot) into
# bench/results/<device-slug>/ (or --out DIR).
#
#   bench/run_all.sh [--quick] [--build DIR] [--out DIR] [--no-cub] [ARGS...]
#   bench/run_all.sh --report DIR        only merge + table + plots of DIR
#
# ARGS go to both programs (e.g. --max-log2 24 --budget 600 --repeats 7).
# The device is $SCANKIT_DEVICE (or --device SPEC among ARGS), as for every
# scankit program. --quick: sizes 2^10..2^16, few repeats, every primitive
# and every peer that is built; meant to finish in well under 2 minutes.
# Exit status: 0 when every result of every implementation was right and
# nothing failed, 1 otherwise (2 on usage errors).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=""
out=""
quick=0
no_cub=0
report_only=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; args+=(--quick) ;;
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --no-cub) no_cub=1 ;;
    --report) report_only=$2; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) args+=("$1") ;;
  esac
  shift
done

# ---- the report: merge, markdown table, plots ------------------------------
report() {
  local dir=$1
  local merged=$dir/results.csv
  local inputs=("$dir/bench_all.csv")
  [ -f "$dir/bench_cub.csv" ] && inputs+=("$dir/bench_cub.csv")
  [ -f "$dir/bench_all.csv" ] || { echo "run_all: no $dir/bench_all.csv" >&2; return 1; }

  # results.csv: every row; CUB's ratio_to_scankit filled in from bench_all's
  # scankit time of the same case, and CUB's input checksum compared with
  # bench_all's (the same generated data, or the row becomes an error).
  awk -F, -v OFS=, '
    FNR == 1 { if (NR == 1) print; next }
    FNR == NR || FILENAME ~ /bench_all\.csv$/ {
      key = $1 FS $2 FS $3
      if ($4 == "scankit" && $10 == "ok") sk[key] = $7
      if ($4 == "scankit") sum[key] = $13
      print; next
    }
    {
      key = $1 FS $2 FS $3
      if ($10 == "ok" && (key in sk) && sk[key] > 0) $9 = sprintf("%.4f", $7 / sk[key])
      if ($10 != "unavailable" && (key in sum) && sum[key] != $13) {
        $10 = "error"; $14 = "input checksum " $13 " differs from bench_all " sum[key]
      }
      print
    }' "${inputs[@]}" > "$merged"

  # results.md
  {
    local dev drv
    dev=$(awk -F, '$4 == "scankit" { print $5; exit }' "$merged")
    drv=$(awk -F, '$4 == "scankit" { print $6; exit }' "$merged")
    echo "# scankit against its peers: ${dev}"
    echo
    echo "- scankit: ${drv}"
    awk -F, '$4 == "boost_compute" && $10 == "ok" { print "- Boost.Compute: " $6; exit }' "$merged"
    awk -F, '$4 == "cub" && $10 == "ok" { d = $6; sub(/; (cub|thrust)::.*$/, "", d); print "- CUB: " $5 ", " d; exit }' "$merged"
    awk -F, '$4 == "cub" && $10 == "ok" && $1 ~ /^merge_/ && !seen[$1]++ {
        m = $6; sub(/^.*; /, "", m); l = l (l ? ", " : "") $1 " by " m }
      END { if (l) print "- CUB merges: " l }' "$merged"
    awk -F, '$4 ~ /^serial/ { print "- serial C: " $5 ", " $6; exit }' "$merged"
    awk -F, '$4 ~ /^vqsort/ && $10 == "ok" { v[$4] = $5 ", " $6 }
      END { if ("vqsort" in v) print "- vqsort (host wall time): " v["vqsort"]
            if ("vqsort_mt" in v) print "- vqsort_mt (host wall time): " v["vqsort_mt"] }' "$merged"
    [ -f "$dir/run.txt" ] && sed 's/^/- /' "$dir/run.txt"
    echo
    echo "Times in ms: scankit and Boost.Compute = device time from OpenCL profiling"
    echo "events, CUB = CUDA events, scankit host = end to end through the host-array"
    echo "form (copies in and out included), serial = one host core. Medians of"
    echo "repeated runs after warm-ups; every result was checked against the serial"
    echo "reference first. x/scankit = that time / scankit's device time (above 1:"
    echo "scankit is faster). Rows: the largest size run for each primitive,"
    echo "uniform input."
    echo
    awk -F, '
      function cell(k,   v) { v = t[k]; return v != "" ? sprintf("%.3f", v) : (k in bad) ? bad[k] : "-" }
      function ratio(k, s) { return (t[k] == "" || s == "" || s == 0) ? "-" : sprintf("%.2f", t[k] / s) }
      NR == 1 { next }
      {
        key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
        if ($10 == "ok") t[key] = $7; else bad[key] = $10
        if ($3 == "uniform" && $4 == "scankit" && $10 == "ok" && $2 + 0 > maxn[$1] + 0) maxn[$1] = $2
        if (!($1 in seen)) { seen[$1] = 1; order[++np] = $1 }
        if (!(($1, $3) in seend)) { seend[$1, $3] = 1; dists[$1] = dists[$1] " " $3 }
      }
      END {
        print "| primitive | n | scankit ms | Gelem/s | scankit host ms | serial ms | qsort ms | Boost.Compute ms | CUB ms | serial/scankit | Boost/scankit | CUB/scankit |"
        print "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= np; i++) {
          p = order[i]; n = maxn[p]
          if (n == "") { print "| " p " | - | unavailable | | | | | | | | | |"; continue }
          b = p SUBSEP n SUBSEP "uniform" SUBSEP
          s = t[b "scankit"]
          ser = (b "serial_radix") in t ? b "serial_radix" : b "serial"
          printf "| %s | 2^%d | %s | %.2f | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, log(n) / log(2) + 0.5,
            cell(b "scankit"), n / (s * 1e6), cell(b "scankit_host"), cell(ser), cell(b "serial_qsort"),
            cell(b "boost_compute"), cell(b "cub"),
            ratio(ser, s), ratio(b "boost_compute", s), ratio(b "cub", s)
        }
        print ""
        print "Every distribution at the same size (serial = the loop, or the LSD radix sort):"
        print ""
        print "| primitive | n | distribution | scankit ms | serial ms | qsort ms | Boost.Compute ms | CUB ms | serial/scankit | Boost/scankit | CUB/scankit |"
        print "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        for (i = 1; i <= np; i++) {
          p = order[i]; n = maxn[p]
          if (n == "") continue
          nd = split(substr(dists[p], 2), ds, " ")
          if (nd < 2) continue
          for (j = 1; j <= nd; j++) {
            b = p SUBSEP n SUBSEP ds[j] SUBSEP
            s = t[b "scankit"]
            ser = (b "serial_radix") in t ? b "serial_radix" : b "serial"
            printf "| %s | 2^%d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, log(n) / log(2) + 0.5, ds[j],
              cell(b "scankit"), cell(ser), cell(b "serial_qsort"),
              cell(b "boost_compute"), cell(b "cub"),
              ratio(ser, s), ratio(b "boost_compute", s), ratio(b "cub", s)
          }
        }
      }' "$merged"
    echo
    local nbad
    nbad=$(awk -F, 'NR > 1 && ($10 == "wrong" || $10 == "error")' "$merged" | wc -l)
    if [ "$nbad" -gt 0 ]; then
      echo "**$nbad row(s) wrong or failed:**"
      echo
      awk -F, 'NR > 1 && ($10 == "wrong" || $10 == "error") { print "- " $1 " n=" $2 " " $3 " " $4 ": " $10 " " $14 }' "$merged"
    else
      echo "No implementation gave a wrong result."
    fi
    local unav
    unav=$(awk -F, 'NR > 1 && $10 == "unavailable" { u[$4 ": " $14] = 1 } END { for (k in u) print "- " k }' "$merged" | sort)
    if [ -n "$unav" ]; then
      echo
      echo "Unavailable:"
      echo
      echo "$unav"
    fi
    echo
    echo "Plots: throughput (Gelem/s) against n, uniform input, one per primitive: \`<primitive>.png\`."
    echo "All rows: \`results.csv\`."
  } > "$dir/results.md"

  # plots
  local nsizes
  nsizes=$(awk -F, 'NR > 1 && $10 == "ok" { print $2 }' "$merged" | sort -u | wc -l)
  if [ "$nsizes" -lt 2 ]; then
    echo "run_all: one size only; no plots" >&2
  elif command -v gnuplot >/dev/null 2>&1; then
    local tmp
    tmp=$(mktemp -d)
    awk -F, -v tmp="$tmp" 'NR > 1 && $3 == "uniform" && $10 == "ok" {
        f = tmp "/" $1 "." $4 ".dat"; print $2, $8 >> f; close(f) }' "$merged"
    for prim in $(awk -F, 'NR > 1 && $3 == "uniform" && $10 == "ok" { print $1 }' "$merged" | sort -u); do
      local plot="" sep=""
      for f in "$tmp/$prim".*.dat; do
        local impl=${f##*/$prim.}; impl=${impl%.dat}
        sort -n -o "$f" "$f"
        plot+="${sep}'$f' using 1:2 with linespoints title '$impl'"
        sep=", "
      done
      gnuplot <<EOF || echo "run_all: gnuplot failed for $prim" >&2
set terminal pngcairo size 900,600 noenhanced
set output '$dir/$prim.png'
set title "$prim, uniform uint32 input\\n${dev//[\'\"]/}"
set xlabel 'n (elements)'
set ylabel 'throughput (Gelem/s)'
set logscale x 2
set logscale y 10
set format x '2^%L'
set key left top
set grid
plot $plot
EOF
    done
    rm -rf "$tmp"
  else
    echo "run_all: gnuplot not found; no plots (results.csv and results.md are written)" >&2
  fi

  # the verdict
  if awk -F, 'NR > 1 && ($10 == "wrong" || $10 == "error") { bad = 1 } END { exit !bad }' "$merged"; then
    echo "run_all: some results were wrong or failed; see $dir/results.md" >&2
    return 1
  fi
  return 0
}

if [ -n "$report_only" ]; then
  report "$report_only"
  exit $?
fi

# ---- the runs -----------------------------------------------------------------
if [ -z "$build" ]; then
  for d in "$root/build" "$root/build-bench"; do
    [ -x "$d/bench/bench_all" ] && { build=$d; break; }
  done
fi
bench_all=$build/bench/bench_all
bench_cub=$build/bench/bench_cub
[ -x "$bench_all" ] || { echo "run_all: no bench_all in ${build:-build/} (build with SCANKIT_BUILD_BENCH and the apps)" >&2; exit 2; }

slug=$("$bench_all" --print-slug "${args[@]}") || { echo "run_all: no OpenCL device" >&2; exit 1; }
[ -n "$out" ] || out=$here/results/$slug
mkdir -p "$out"
rm -f "$out/bench_all.csv" "$out/bench_cub.csv" "$out/results.csv" "$out/results.md" "$out"/*.png
{
  echo "run: $(date -u '+%Y-%m-%d %H:%M UTC') on $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command: run_all.sh ${args[*]}"
} > "$out/run.txt"

status=0
start=$(date +%s)
echo "run_all: bench_all -> $out" >&2
"$bench_all" --csv "$out/bench_all.csv" "${args[@]}" 2> >(tee "$out/bench_all.log" >&2) || status=1
if [ $no_cub = 0 ] && [ -x "$bench_cub" ]; then
  cub_args=()
  skip=0
  for a in "${args[@]}"; do   # bench_cub has no OpenCL options
    if [ $skip = 1 ]; then skip=0; continue; fi
    case "$a" in
      --device|--shape) skip=1 ;;
      --no-boost|--no-host) ;;
      *) cub_args+=("$a") ;;
    esac
  done
  echo "run_all: bench_cub -> $out" >&2
  "$bench_cub" --csv "$out/bench_cub.csv" "${cub_args[@]}" 2> >(tee "$out/bench_cub.log" >&2) || status=1
fi
echo "run_all: benchmarks took $(( $(date +%s) - start )) s" >&2
report "$out" || status=1
echo "run_all: $out/results.md" >&2
exit $status

#!/usr/bin/env bash
# hyperfine.sh - whole-process times of the command-line programs, with
# hyperfine: `scan`, `compact --if 'x % 2 == 1'` and `radixsort` (where
# built) on one file of 2^24 uint32 made by datagen (uniform, seed 1), each
# with a cold kernel cache and a warm one, and `sort -n` on the same numbers
# written as text. Results beside bench_all's, in bench/results/<slug>/:
# hyperfine.md (--export-markdown), hyperfine.csv (--export-csv), hyperfine.txt.
#
#   bench/hyperfine.sh [--build DIR] [--out DIR] [--n N] [--runs R] [--quick]
#
#   cold  every run starts with empty kernel caches: SCANKIT_CACHE_DIR points
#         to a folder that --prepare empties before each run, and so do the
#         OpenCL drivers' own caches (POCL_CACHE_DIR, CUDA_CACHE_PATH), so the
#         time includes compiling every kernel the program uses;
#   warm  SCANKIT_CACHE_DIR is filled by a warm-up run and kept: the programs
#         load kernel binaries from it.
# The device is $SCANKIT_DEVICE, as for every scankit program. --quick: 2^20
# elements, 3 runs. Needs hyperfine (scripts/setup.sh --bench installs it).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=""
out=""
n=16M
runs=10
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --n) n=$2; shift ;;
    --runs) runs=$2; shift ;;
    --quick) n=1M; runs=3 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "hyperfine.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

command -v hyperfine >/dev/null 2>&1 || { echo "hyperfine.sh: hyperfine is not installed (scripts/setup.sh --bench)" >&2; exit 2; }
if [ -z "$build" ]; then
  for d in "$root/build" "$root/build-bench"; do
    [ -x "$d/apps/scan" ] && { build=$d; break; }
  done
fi
apps=$build/apps
for tool in datagen scan compact; do
  [ -x "$apps/$tool" ] || { echo "hyperfine.sh: no $apps/$tool (build the apps)" >&2; exit 2; }
done
if [ -z "$out" ]; then
  slug=""
  [ -x "$build/bench/bench_all" ] && slug=$("$build/bench/bench_all" --print-slug) || true
  out=$here/results/${slug:-unknown-device}
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/scankit-hyperfine.XXXXXX")
trap 'rm -rf "$work"' EXIT
cold=$work/cache-cold
warm=$work/cache-warm
mkdir -p "$warm"

echo "hyperfine.sh: generating $n uint32 (datagen --dist uniform --seed 1)" >&2
"$apps/datagen" -n "$n" --type uint32 --dist uniform --seed 1 -o "$work/u32.bin"
# the same numbers as text, one per line, for sort -n
od -An -v -tu4 -w4 "$work/u32.bin" | tr -d ' ' > "$work/u32.txt"
count=$(wc -l < "$work/u32.txt")

q() { printf '%q' "$1"; }
cold_env="env SCANKIT_CACHE_DIR=$(q "$cold") POCL_CACHE_DIR=$(q "$cold/pocl") CUDA_CACHE_PATH=$(q "$cold/cuda")"
warm_env="env SCANKIT_CACHE_DIR=$(q "$warm")"
empty_cold="rm -rf $(q "$cold") && mkdir -p $(q "$cold/pocl") $(q "$cold/cuda")"

declare -a hf=()
add() { # name prepare command
  hf+=(--command-name "$1" --prepare "$2" "$3")
}
scan_cmd="$(q "$apps/scan") $(q "$work/u32.bin") -o $(q "$work/out.scan.bin")"
compact_cmd="$(q "$apps/compact") $(q "$work/u32.bin") --if 'x % 2 == 1' -o $(q "$work/out.compact.bin")"
add "scan, cold cache" "$empty_cold" "$cold_env $scan_cmd"
add "scan, warm cache" "true" "$warm_env $scan_cmd"
add "compact --if, cold cache" "$empty_cold" "$cold_env $compact_cmd"
add "compact --if, warm cache" "true" "$warm_env $compact_cmd"
if [ -x "$apps/radixsort" ]; then
  sort_cmd="$(q "$apps/radixsort") $(q "$work/u32.bin") -o $(q "$work/out.sorted.bin")"
  add "radixsort, cold cache" "$empty_cold" "$cold_env $sort_cmd"
  add "radixsort, warm cache" "true" "$warm_env $sort_cmd"
else
  echo "hyperfine.sh: radixsort is not built; left out" >&2
fi
add "sort -n (text, $(nproc) threads)" "true" "LC_ALL=C sort -n $(q "$work/u32.txt") -o $(q "$work/out.sorted.txt")"

{
  echo "hyperfine: $count uint32 (datagen -n $n --dist uniform --seed 1), $runs runs after 1 warm-up"
  echo "device: $("$build/bench/bench_all" --print-slug 2>/dev/null || echo "\$SCANKIT_DEVICE=${SCANKIT_DEVICE:-}")"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/hyperfine.txt"

hyperfine --warmup 1 --runs "$runs" --export-markdown "$out/hyperfine.md" \
  --export-csv "$out/hyperfine.csv" "${hf[@]}" | tee -a "$out/hyperfine.txt"

# every program must have produced the right answer
if [ -x "$apps/radixsort" ]; then
  od -An -v -tu4 -w4 "$work/out.sorted.bin" | tr -d ' ' | cmp -s - "$work/out.sorted.txt" ||
    { echo "hyperfine.sh: radixsort and sort -n disagree" >&2; exit 1; }
fi
echo "hyperfine.sh: $out/hyperfine.md" >&2

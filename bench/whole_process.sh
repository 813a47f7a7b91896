#!/usr/bin/env bash
# whole_process.sh - `radixsort INPUT -o OUTPUT` from fork to exit, beside
# what a user would otherwise run on the same file, with hyperfine in one
# run: `cp INPUT OUTPUT` (the floor: one read and one write), the NumPy
# one-liner (np.sort(np.fromfile(f, np.uint32)).tofile(o)) and, where CuPy
# is installed, the same through cupy.sort; radixsort in one piece and, with
# --memory, in runs merged on the device. The file: datagen's uniform
# uint32 (seed 7), synced and read once before (in the page cache, clean);
# every command gets one warm-up run (kernel caches warm) and RUNS timed
# runs (medians in the table), each from a clean page cache: the last
# output removed and nothing dirty (hyperfine --prepare 'rm -f OUT; sync';
# otherwise the previous outputs are written back during the next command:
# bench/results/nvidia-h100-whole-2711). Every sorted output is compared
# byte for byte with the first.
#
#   bench/whole_process.sh [--build DIR] [--out DIR] [--n N] [--runs R]
#                          [--memory SIZE]... [--extra NAME=COMMAND]...
#
#   --n        elements (datagen's suffixes; default 256M = 1 GiB)
#   --memory   a radixsort --memory run (repeatable)
#   --extra    one more command, {in} and {out} standing for the files
#              (e.g. an older radixsort binary)
# Writes whole_process.md (hyperfine --export-markdown) and
# whole_process.txt (the commands, versions, each --time breakdown) to
# --out (default: the current directory). On the GPU machine: from
# binaries built by bench/run_gpu.sh --prepare (gpubuild-bench/apps).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/gpubuild-bench
out=$PWD
n=256M
runs=5
memories=()
extras=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --n) n=$2; shift ;;
    --runs) runs=$2; shift ;;
    --memory) memories+=("$2"); shift ;;
    --extra) extras+=("$2"); shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "whole_process.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
hf=$(command -v hyperfine || echo "$build/bin/hyperfine")
[ -x "$hf" ] || { echo "whole_process.sh: no hyperfine" >&2; exit 2; }
apps=$build/apps
mkdir -p "$out"
work=$(mktemp -d "${WORK_DIR:-/tmp}/scankit-whole.XXXXXX")
trap 'rm -rf "$work"' EXIT
in=$work/k.bin
"$apps/datagen" -n "$n" --type uint32 --seed 7 -o "$in"
sync; cat "$in" > /dev/null

names=(cp radixsort)
cmds=("cp $in $work/out.bin" "$apps/radixsort $in -o $work/out.bin")
for m in "${memories[@]}"; do
  names+=("radixsort --memory $m")
  cmds+=("$apps/radixsort $in -o $work/out.bin --memory $m")
done
for x in "${extras[@]}"; do
  names+=("${x%%=*}")
  c=${x#*=}
  c=${c//\{in\}/$in}
  cmds+=("${c//\{out\}/$work/out.bin}")
done
py="import numpy as np; np.sort(np.fromfile('$in', np.uint32)).tofile('$work/out.bin')"
if python3 -c 'import numpy' 2>/dev/null; then
  names+=(numpy)
  cmds+=("python3 -c \"$py\"")
fi
cupy="import numpy as np, cupy as cp; cp.sort(cp.asarray(np.fromfile('$in', np.uint32))).get().tofile('$work/out.bin')"
if python3 -c 'import cupy' 2>/dev/null; then
  names+=(cupy)
  cmds+=("python3 -c \"$cupy\"")
fi

# Every sorted output the same as the first's.
first=""
for i in "${!cmds[@]}"; do
  [ "${names[$i]}" = cp ] && continue
  rm -f "$work/out.bin"
  bash -c "${cmds[$i]}" > /dev/null
  if [ -z "$first" ]; then
    mv "$work/out.bin" "$work/first.bin"
    first=${names[$i]}
  else
    cmp -s "$work/out.bin" "$work/first.bin" ||
      { echo "whole_process.sh: ${names[$i]}'s output differs from $first's" >&2; exit 1; }
  fi
done
rm -f "$work/first.bin"

args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
{
  echo "whole_process.sh --n $n --runs $runs, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
  nvidia-smi -L 2>/dev/null || true
  python3 -c 'import numpy; print("numpy", numpy.__version__)' 2>/dev/null || true
  python3 -c 'import cupy; print("cupy", cupy.__version__)' 2>/dev/null || true
  for i in "${!cmds[@]}"; do echo "${names[$i]}: ${cmds[$i]}"; done
} > "$out/whole_process.txt"
"$hf" --warmup 1 --runs "$runs" --prepare "rm -f $work/out.bin; sync" \
  --export-markdown "$out/whole_process.md" "${args[@]}" |
  tee -a "$out/whole_process.txt"
for i in "${!cmds[@]}"; do
  case "${names[$i]}" in
    radixsort*)
      echo "== ${names[$i]} --time" >> "$out/whole_process.txt"
      bash -c "${cmds[$i]} --time" 2>> "$out/whole_process.txt" > /dev/null ;;
  esac
done
cat "$out/whole_process.md"

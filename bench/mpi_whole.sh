#!/usr/bin/env bash
# mpi_whole.sh - `mpirun -np P radixsort-mpi INPUT -o OUTPUT` from fork to
# exit for each P, beside plain `radixsort INPUT -o OUTPUT` and `cp` (the
# floor: one read and one write), with hyperfine in one run per size. The
# file: datagen's uniform uint32 (seed 7), synced and read once before (in
# the page cache, clean); every command gets one warm-up run (kernel caches
# warm) and RUNS timed runs (medians in the table), each from a clean page
# cache (hyperfine --prepare 'rm -f OUT; sync': otherwise the previous
# outputs are written back during the next command, as in
# bench/results/nvidia-h100x2-mpi-16g-2711). Every timed run, warm-up included,
# passes --time, whose lines are kept; the phase table gives their medians
# over the timed runs, per rank. Every sorted output is compared byte for
# byte with radixsort's.
#
#   bench/mpi_whole.sh [--build DIR] [--out DIR] [--n N]... [--ranks P]...
#                      [--runs R] [--mpirun PATH] [--mpi-flag FLAG]...
#
#   --build     a build with radixsort, radixsort-mpi and datagen in apps/
#               (default: build)
#   --n         elements (datagen's suffixes; repeatable; default 64M)
#   --ranks     a radixsort-mpi run on P ranks (repeatable; default 1 and 2)
#   --mpirun    the launcher (default: mpirun from PATH); Open MPI's gets
#               --bind-to none (each rank's OpenCL threads may use every
#               core, as radixsort's do) and --oversubscribe
#   --mpi-flag  one more flag for the launcher (repeatable), e.g.
#               "-x POCL_MAX_PTHREAD_COUNT=1" or "--mca btl_vader_single_copy_mechanism none"
# Writes mpi_whole.md (per size: hyperfine's table, then the --time phases)
# and mpi_whole.txt (the commands, versions, hyperfine's report, every
# --time line) to --out (default: the current directory).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/build
out=$PWD
sizes=()
ranks=()
runs=5
mpirun=$(command -v mpirun || true)
mpi_flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --n) sizes+=("$2"); shift ;;
    --ranks) ranks+=("$2"); shift ;;
    --runs) runs=$2; shift ;;
    --mpirun) mpirun=$2; shift ;;
    --mpi-flag) mpi_flags+=("$2"); shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "mpi_whole.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#sizes[@]} -gt 0 ] || sizes=(64M)
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2)
hf=$(command -v hyperfine || echo "$build/bin/hyperfine")
[ -x "$hf" ] || { echo "mpi_whole.sh: no hyperfine" >&2; exit 2; }
[ -n "$mpirun" ] || { echo "mpi_whole.sh: no mpirun (--mpirun PATH)" >&2; exit 2; }
if "$mpirun" --version 2>/dev/null | grep -q 'Open MPI\|OpenRTE'; then
  mpi_flags=(--bind-to none --oversubscribe "${mpi_flags[@]}")
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
build=$(cd "$build" && pwd)
apps=$build/apps
mkdir -p "$out"
work=$(mktemp -d "${WORK_DIR:-/tmp}/scankit-mpi-whole.XXXXXX")
trap 'rm -rf "$work"' EXIT
md=$out/mpi_whole.md
txt=$out/mpi_whole.txt

{
  echo "mpi_whole.sh --n ${sizes[*]} --ranks ${ranks[*]} --runs $runs,"\
       "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(uname -srm)"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -m1 'model name' /proc/cpuinfo || true
  nvidia-smi -L 2>/dev/null || true
  "$mpirun" --version 2>&1 | head -n 1
  "$apps/radixsort" --version
  "$apps/radixsort" --list-devices || true
  "$hf" --version
} > "$txt"
: > "$md"

# The commands for one file: names[], cmds[] (each without --time).
commands() {
  local in=$1 p
  names=(cp radixsort)
  cmds=("cp $in $work/out.bin" "$apps/radixsort $in -o $work/out.bin")
  for p in "${ranks[@]}"; do
    names+=("radixsort-mpi -np $p")
    cmds+=("$mpirun -np $p ${mpi_flags[*]} $apps/radixsort-mpi $in -o $work/out.bin")
  done
}

# Every sorted output the same as radixsort's.
check_outputs() {
  local i
  "$apps/radixsort" "$1" -o "$work/ref.bin"
  for i in "${!cmds[@]}"; do
    [ "${names[$i]}" = cp ] && continue
    rm -f "$work/out.bin"
    bash -c "${cmds[$i]}" > /dev/null
    cmp -s "$work/out.bin" "$work/ref.bin" ||
      { echo "mpi_whole.sh: ${names[$i]}'s output differs from radixsort's" >&2; exit 1; }
  done
  rm -f "$work/ref.bin"
}

# The median of every --time column of radixsort-mpi, per rank, over the
# timed runs (the first block of each file is the warm-up's).
phase_table() {
  local p f
  echo "| command | rank | read | device | sort | split | exchange | merge | wait | write | total | sent MiB | received MiB |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for p in "${ranks[@]}"; do
    f=$work/time_np$p.txt
    awk -v name="radixsort-mpi -np $p" '
      /^rank / { block++; next }
      block > 1 && NF >= 12 {
        r = $1; k = ++count[r]
        for (c = 2; c <= 12; c++) v[r, c, k] = $c
        if (r > top) top = r
      }
      function median(r, c,   n, i, j, t, a) {
        n = count[r]
        for (i = 1; i <= n; i++) a[i] = v[r, c, i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
          t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      }
      END {
        for (r = 0; r <= top; r++) {
          line = "| " name " | " r
          for (c = 2; c <= 10; c++) line = line sprintf(" | %.0f ms", median(r, c))
          for (c = 11; c <= 12; c++) line = line sprintf(" | %.1f", median(r, c) / 1048576)
          print line " |"
        }
      }' "$f"
  done
}

for n in "${sizes[@]}"; do
  in=$work/k.bin
  "$apps/datagen" -n "$n" --type uint32 --seed 7 -o "$in" > /dev/null
  sync; cat "$in" > /dev/null
  commands "$in"
  check_outputs "$in"
  args=()
  for i in "${!cmds[@]}"; do
    c=${cmds[$i]}
    case "${names[$i]}" in
      radixsort-mpi*) c="$c --time 2>> $work/time_np${names[$i]##* }.txt" ;;
      radixsort) c="$c --time 2>> $work/time_radixsort.txt" ;;
    esac
    args+=(-n "${names[$i]}" "$c")
  done
  rm -f "$work"/time_*.txt
  {
    echo
    echo "== n = $n ($(stat -c %s "$in") bytes)"
    for i in "${!cmds[@]}"; do echo "${names[$i]}: ${cmds[$i]}"; done
  } >> "$txt"
  "$hf" --warmup 1 --runs "$runs" --prepare "rm -f $work/out.bin; sync" \
    --export-markdown "$work/hf.md" "${args[@]}" | tee -a "$txt"
  {
    echo
    echo "## n = $n uint32 ($(( $(stat -c %s "$in") / 1048576 )) MiB), $runs runs"
    echo
    cat "$work/hf.md"
    echo
    echo "--time phases of radixsort-mpi, medians of the timed runs:"
    echo
    phase_table
  } >> "$md"
  for f in "$work"/time_*.txt; do
    echo "-- $(basename "$f" .txt) (warm-up first, then the timed runs)" >> "$txt"
    cat "$f" >> "$txt"
  done
  rm -f "$in"
done
cat "$md"

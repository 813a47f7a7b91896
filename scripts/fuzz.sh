#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with clang, AddressSanitizer and
# UBSan (into ${SCANKIT_FUZZ_BUILD_DIR:-build-fuzz}), then fuzzes each one,
# starting from its seeds in fuzz/corpus/<target>/, for an equal share of
# the time. One worker per target, one target after the other (the machine
# may be shared), or all at once with --parallel.
#
#   scripts/fuzz.sh                   60 s in all, split over the targets
#   scripts/fuzz.sh --seconds 1200    the longer run: 10 minutes per target
#   scripts/fuzz.sh --parallel        the targets at once (as many cores),
#                                     each for its share: half the wall time
#                                     for two targets, the same fuzzing
#
# Exits 1 when a target crashes, leaks, trips a sanitizer or fails one of
# its own checks. Its failing input is left in BUILD/findings/<target>/
# (reproduce: BUILD/fuzz/<target> FILE); new inputs worth keeping go to
# BUILD/corpus/<target>/, never into the repository. Once the bug is fixed,
# copy the failing input into fuzz/corpus/<target>/: the normal test run
# replays that directory (ctest: <target>_replays_its_corpus).
#
# Installs clang and libFuzzer's runtime (scripts/setup.sh --fuzz) when
# they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
parallel=0
while [ $# -gt 0 ]; do
  case "$1" in
    --parallel) parallel=1; shift ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz: unknown argument '$1' (use --seconds N, --parallel)" >&2; exit 2 ;;
  esac
done
case "$seconds" in
  ''|*[!0-9]*) echo "fuzz: --seconds needs a whole number, not '$seconds'" >&2; exit 2 ;;
esac

targets=(fuzz_element_file fuzz_cli)
share=$(( seconds / ${#targets[@]} ))
[ "$share" -ge 1 ] || share=1

scripts/setup.sh --fuzz
build=${SCANKIT_FUZZ_BUILD_DIR:-build-fuzz}
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSCANKIT_BUILD_FUZZERS=ON -DSCANKIT_BUILD_TESTS=OFF -DSCANKIT_BUILD_BENCH=OFF \
  -DBUILD_SHARED_LIBS=OFF >/dev/null
cmake --build "$build" --target "${targets[@]}" -j"$(nproc)"

# Options per target: inputs up to 128 KiB for the reader (past the 64 KiB
# first buffer of a pipe read); the parsers' usage messages go nowhere.
declare -A extra=(
  [fuzz_element_file]="-max_len=131072"
  [fuzz_cli]="-max_len=4096 -close_fd_mask=2"
)

# fuzz_one TARGET: fuzzes it for its share; its log in BUILD/findings/.
fuzz_one() {
  local t=$1
  mkdir -p "$build/corpus/$t" "$build/findings/$t"
  # shellcheck disable=SC2086 # the options are words
  "$build/fuzz/$t" -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$t/" ${extra[$t]} \
    "$build/corpus/$t" "fuzz/corpus/$t" >"$build/findings/$t.log" 2>&1
}

# report TARGET STATUS: its statistics, or the end of its log when it failed.
report() {
  if [ "$2" -ne 0 ]; then
    failed+=("$1")
    tail -n 40 "$build/findings/$1.log" >&2
  fi
  grep -E "^stat::number_of_executed_units|^Done" "$build/findings/$1.log" >&2 || true
}

failed=()
declare -A pids=()
for t in "${targets[@]}"; do
  echo "== $t: ${share} s" >&2
  if [ "$parallel" = 1 ]; then
    fuzz_one "$t" &
    pids[$t]=$!
  else
    status=0
    fuzz_one "$t" || status=$?
    report "$t" "$status"
  fi
done
for t in "${!pids[@]}"; do
  status=0
  wait "${pids[$t]}" || status=$?
  report "$t" "$status"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in $build/findings/)" >&2
  exit 1
fi
echo "fuzz: ${targets[*]}: no failure in ${share} s each" >&2

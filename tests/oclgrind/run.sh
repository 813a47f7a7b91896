#!/bin/sh
# run.sh - runs programs under Oclgrind's checks; any report fails.
#
#   run.sh PROGRAM [ARGS...]     passes (exit 0) when PROGRAM succeeds under
#                                oclgrind --data-races --uninitialized
#                                --check-api and the log stays empty
#   run.sh --scan-kernels DRIVER the scan kernel check, og_driver in two passes:
#                                every case with all three checks except the
#                                CPU shape's built-in operators, then those
#                                without --uninitialized (their 8-wide code
#                                makes that plugin of Oclgrind 21.10 crash)
#   run.sh --sort-kernels DRIVER the radix sort check, og_sort in three passes:
#                                the GPU shape with all three checks; its
#                                one-sweep configurations again with the
#                                look-back read by volatile loads (as on
#                                NVIDIA GPUs; the test hook --hook
#                                poll-volatile) without --data-races;
#                                the CPU shape without --uninitialized (its
#                                histogram scan is the uint32 add scan above)
#   run.sh --sort-kernels=PASS DRIVER
#                                one of those passes: gpu, gpu-volatile or
#                                cpu (ctest runs each as a test of its own,
#                                so that they share the cores and each has
#                                its own time limit)
#   run.sh --self-test PROGRAM [ARGS...]
#                                passes when the first form FAILS on PROGRAM
#                                because Oclgrind logged a data race (run it
#                                on planted_race)
#
# The drivers (og_bykey, og_driver, og_compact, og_histogram, og_merge, og_search,
# og_segscan, og_segsort, og_sort, og_sortby, og_topk) share one harness, og_harness.c,
# and its options.
#
# Oclgrind 21.10 exits with the program's own status even when it reports a
# race, so the check reads the log: an empty log is the only pass. Logs are
# kept in the current directory as oclgrind-NAME.log. $OCLGRIND names the
# oclgrind executable (default: oclgrind from PATH). Exit 77 (skipped) when it
# is not installed, 2 on bad usage, 1 on failure.
set -u

OCLGRIND=${OCLGRIND:-oclgrind}
ALL_CHECKS="--data-races --uninitialized --check-api"

usage() {
    echo "usage: run.sh [--self-test | --scan-kernels | --sort-kernels[=PASS]] PROGRAM [ARGS...]" >&2
    exit 2
}

# og_run LOG FLAGS PROGRAM [ARGS...]: runs PROGRAM under oclgrind FLAGS,
# logging to LOG. Sets og_status (the program's exit status) and og_log
# (empty, reported or missing). Programs are always compiled from source
# (the on-disk binary cache is off); under the oclgrind wrapper only
# Oclgrind's device is visible. The GPU shape's look-back falls back after 8
# polls of an empty word (Oclgrind runs work-groups one after another, so
# only the test hook withhold leaves words empty: its successors reduce
# those tiles after a few polls rather than thousands).
og_run() {
    log=$1
    flags=$2
    shift 2
    rm -f "$log"
    # shellcheck disable=SC2086 # FLAGS is a list of options
    env -u SCANKIT_DEVICE -u SCANKIT_SHAPE SCANKIT_CACHE_DIR=off SCANKIT_LB_SPIN=8 \
        "$OCLGRIND" $flags --log "$log" "$@"
    og_status=$?
    if [ ! -e "$log" ]; then
        og_log=missing
    elif [ -s "$log" ]; then
        og_log=reported
    else
        og_log=empty
    fi
}

# check LOG FLAGS PROGRAM [ARGS...]: 0 when the program succeeded and the
# log is empty; otherwise says why (with the log's first lines) and 1.
check() {
    log=$1
    flags=$2
    og_run "$@"
    verdict=0
    if [ "$og_log" = missing ]; then
        echo "run.sh: oclgrind wrote no log ($log)"
        verdict=1
    elif [ "$og_log" = reported ]; then
        echo "run.sh: Oclgrind made $(grep -c '^[A-Z]' "$log") report(s); first lines of $log:"
        head -n 30 "$log" | sed 's/^/    /'
        verdict=1
    fi
    if [ "$og_status" -ne 0 ]; then
        echo "run.sh: $3 exited with status $og_status"
        verdict=1
    fi
    shift 2
    if [ $verdict -eq 0 ]; then
        echo "run.sh: PASS: $* under oclgrind $flags, empty log"
    else
        echo "run.sh: FAIL: $* under oclgrind $flags"
    fi
    return $verdict
}

log_for() {
    echo "./oclgrind-$(basename "$1")$2.log"
}

scan_kernels() {
    driver=$1
    check "$(log_for "$driver" "")" "$ALL_CHECKS" \
        "$driver" --expect-oclgrind --cpu-builtin skip || return 1
    check "$(log_for "$driver" -cpu-builtin)" "--data-races --check-api" \
        "$driver" --expect-oclgrind --cpu-builtin only
}

# One pass of the sort check ($1: gpu, gpu-volatile or cpu) on driver $2.
sort_pass() {
    case $1 in
    gpu) check "$(log_for "$2" -gpu)" "$ALL_CHECKS" "$2" --expect-oclgrind --shape gpu ;;
    gpu-volatile)
        # The look-back polled by volatile loads, as on NVIDIA GPUs: a race by
        # the OpenCL 1.2 model (reads not atomic), so every check but that one.
        check "$(log_for "$2" -gpu-volatile)" "--uninitialized --check-api" \
            "$2" --expect-oclgrind --shape gpu --hook poll-volatile
        ;;
    cpu) check "$(log_for "$2" -cpu)" "--data-races --check-api" "$2" --expect-oclgrind --shape cpu ;;
    *) usage ;;
    esac
}

sort_kernels() {
    sort_pass gpu "$1" && sort_pass gpu-volatile "$1" && sort_pass cpu "$1"
}

# The planted race must make the check fail through the log alone (the
# program itself succeeds), and the log must name a data race.
self_test() {
    log=$(log_for "$1" "")
    if check "$log" "$ALL_CHECKS" "$@"; then
        echo "run.sh: SELF-TEST FAIL: the check passed a program with a planted race"
        return 1
    fi
    if [ "$og_status" -ne 0 ] || ! grep -q 'data race' "$log"; then
        echo "run.sh: SELF-TEST FAIL: expected a clean exit and a data race in $log"
        return 1
    fi
    echo "run.sh: the first data race Oclgrind reported:"
    grep -m 1 -A 12 'data race' "$log" | sed 's/^/    /'
    echo "run.sh: SELF-TEST PASS: the check failed on the planted race" \
        "(exit status $og_status, data race in the log)"
}

mode=plain
case "${1:-}" in
--self-test) mode=self_test; shift ;;
--scan-kernels) mode=scan_kernels; shift ;;
--sort-kernels) mode=sort_kernels; shift ;;
--sort-kernels=*) mode=sort_pass; pass=${1#--sort-kernels=}; shift ;;
-*) usage ;;
esac
[ $# -ge 1 ] || usage
if ! command -v "$OCLGRIND" >/dev/null 2>&1; then
    echo "run.sh: $OCLGRIND not found; skipping"
    exit 77
fi

case $mode in
plain) check "$(log_for "$1" "")" "$ALL_CHECKS" "$@" || exit 1 ;;
self_test) self_test "$@" || exit 1 ;;
scan_kernels) [ $# -eq 1 ] || usage; scan_kernels "$1" || exit 1 ;;
sort_kernels) [ $# -eq 1 ] || usage; sort_kernels "$1" || exit 1 ;;
sort_pass) [ $# -eq 1 ] || usage; sort_pass "$pass" "$1" || exit 1 ;;
esac

#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite, in two passes:
#
#   normal     the build in ${SCANKIT_BUILD_DIR:-build}: every test through
#              ctest (Criterion tests of every primitive, CLI tests, the
#              Oclgrind race/bounds check, valgrind's memcheck on every
#              program, the install test, the quick benchmark)
#   sanitize   a second build in ${SCANKIT_ASAN_BUILD_DIR:-build-asan} with
#              -DSCANKIT_SANITIZE=ON (AddressSanitizer, LeakSanitizer and
#              UBSan, each stopping at its first report) runs the tests
#              again, the programs the CLI tests start included; any report
#              fails the pass, leaks too (tests/sanitize/lsan.supp lists the
#              leaks of PoCL and Criterion, not scankit's, that are ignored,
#              each with its reason)
#
#   fuzz       a short fuzz run (scripts/fuzz.sh --seconds 60: the file
#              reader and the command-line parsing under libFuzzer)
#
# SCANKIT_TEST_PASSES picks them: "all" (default: the three), "normal",
# "sanitize" or "fuzz"; e.g. SCANKIT_TEST_PASSES=normal scripts/test.sh for
# a quick local run.
# Arguments go to both ctest runs (e.g. -R test_scan).
#
# The sanitizer pass leaves out what cannot run under the sanitizers or adds
# nothing there (see SANITIZE_EXCLUDE), and loads its kernels from the
# normal pass's on-disk program cache, so it compiles nothing again. ASan and
# LeakSanitizer reports are written to $sanitize_build/sanitizer-reports/, so
# those of processes whose stderr a test captures or whose exit status it
# does not see (the CLIs, Criterion's test processes, which leak-check only
# after their test has passed) are not lost; the pass fails if any is there.
# One exception: when every report is LeakSanitizer's tracer crashing at a
# process's exit (the leak check could not run), the failed tests run once
# more and must then pass with no report at all.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
passes=${SCANKIT_TEST_PASSES:-all}
build=${SCANKIT_BUILD_DIR:-build}
sanitize_build=${SCANKIT_ASAN_BUILD_DIR:-build-asan}

# Left out of the sanitizer pass:
#   oclgrind_*       run under Oclgrind's own OpenCL interpreter through
#                    LD_PRELOAD, which the ASan runtime refuses (it must be
#                    the first library loaded); they check the kernels, not
#                    the host code
#   install_*        builds a consumer without the sanitizers against the
#                    installed (sanitized) library: it cannot load
#   bench_*          a timing run (the benchmarks are not built here)
# (and a sanitized build defines no valgrind test: valgrind cannot run ASan
# programs; the normal pass runs it)
SANITIZE_EXCLUDE='^(oclgrind_|install_|bench_)'

case "$passes" in
all | normal | sanitize | fuzz) ;;
*)
    echo "test.sh: SCANKIT_TEST_PASSES must be all, normal, sanitize or fuzz (not '$passes')" >&2
    exit 2
    ;;
esac

scripts/setup.sh

# An absolute path for a build directory named on the command line.
absolute() {
    case "$1" in
    /*) echo "$1" ;;
    *) echo "$root/$1" ;;
    esac
}

run_normal_pass() {
    scripts/build.sh || return 1
    (cd "$build" && ctest --output-on-failure --timeout 1200 "$@")
}

# The tests keep their kernels in $build/tests/skt-cache (Criterion tests,
# which keep a SCANKIT_CACHE_DIR they are given) and $build/cli-test-cache
# (CLI tests, which set their own): point the former at the normal tree's,
# and copy the latter.
share_program_cache() {
    export SCANKIT_CACHE_DIR="$(absolute "$build")/tests/skt-cache"
    [ -d "$build/cli-test-cache" ] || return 0
    mkdir -p "$sanitize_build/cli-test-cache" &&
        cp -a "$build/cli-test-cache/." "$sanitize_build/cli-test-cache/"
}

# ASan and LeakSanitizer write their reports to files in $1 and abort the
# process (SIGABRT: no test accepts that status, not even one expecting a
# program to fail); stacks are unwound fully so that the suppressions can
# name PoCL's functions (see tests/sanitize/lsan.supp). UBSan ignores
# log_path when linked with ASan: its reports go to stderr, and it aborts
# too (the build adds -fno-sanitize-recover=all).
sanitizer_options() {
    local reports=$1
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1"
    ASAN_OPTIONS+=":fast_unwind_on_malloc=0:log_path=$reports/asan"
    export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
    export LSAN_OPTIONS="suppressions=$root/tests/sanitize/lsan.supp:print_suppressions=0"
}

# Fails (showing them) when the sanitizers wrote any report.
check_no_reports() {
    local reports=$1 f
    [ -z "$(ls -A "$reports")" ] && return 0
    for f in "$reports"/*; do
        echo "== $f"
        head -n 80 "$f"
    done
    echo "test.sh: sanitizer reports in $reports" >&2
    return 1
}

# True when every report in $1 is LeakSanitizer's own stop-the-world tracer
# crashing at a process's exit ("Tracer caught signal 11 ... LeakSanitizer
# has encountered a fatal error"): the leak check could not run, nothing
# was found. It strikes now and then, in processes that run PoCL's worker
# threads (google/sanitizers#1353 has the same signature).
only_tracer_crashes() {
    local reports=$1 f
    [ -n "$(ls -A "$reports")" ] || return 1
    for f in "$reports"/*; do
        grep -q '^Tracer caught signal' "$f" || return 1
        grep -q 'LeakSanitizer has encountered a fatal error' "$f" || return 1
        [ "$(grep -c -v -e '^Tracer caught signal' -e '==[0-9]*==LeakSanitizer has encountered a fatal error' \
            -e '==[0-9]*==HINT:' "$f")" = 0 ] || return 1
    done
}

# The sanitized ctest run; $1 is the reports directory, the rest goes to ctest.
sanitized_ctest() {
    local reports=$1
    shift
    (
        share_program_cache &&
            sanitizer_options "$reports" &&
            cd "$sanitize_build" &&
            ctest --output-on-failure --timeout 1200 -E "$SANITIZE_EXCLUDE" "$@"
    )
}

run_sanitize_pass() {
    local start=$SECONDS status=0 reports
    reports="$(absolute "$sanitize_build")/sanitizer-reports"
    SCANKIT_BUILD_DIR=$sanitize_build scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSCANKIT_SANITIZE=ON -DSCANKIT_BUILD_BENCH=OFF || return 1
    echo "test.sh: sanitizer pass: built in $((SECONDS - start)) s"
    rm -rf "$reports" && mkdir -p "$reports" || return 1
    start=$SECONDS
    sanitized_ctest "$reports" "$@" || status=1
    # A tracer crash leaves its test unchecked, not failed by a finding: the
    # failed tests run once more, and must then pass with every check.
    if [ "$status" != 0 ] && only_tracer_crashes "$reports"; then
        echo "test.sh: LeakSanitizer's tracer crashed (no report of a finding); running the failed tests again:" >&2
        cat "$reports"/* >&2
        rm -rf "$reports" && mkdir -p "$reports" || return 1
        status=0
        sanitized_ctest "$reports" --rerun-failed "$@" || status=1
    fi
    check_no_reports "$reports" || status=1
    echo "test.sh: sanitizer pass: tests ran in $((SECONDS - start)) s"
    return "$status"
}

status=0
if [ "$passes" = all ] || [ "$passes" = normal ]; then
    run_normal_pass "$@" || status=1
fi
if [ "$passes" = all ] || [ "$passes" = sanitize ]; then
    run_sanitize_pass "$@" || status=1
fi
if [ "$passes" = all ] || [ "$passes" = fuzz ]; then
    scripts/fuzz.sh --seconds 60 || status=1
fi
exit "$status"

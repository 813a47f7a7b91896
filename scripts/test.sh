#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite, in three passes:
#
#   normal     the build in ${SCANKIT_BUILD_DIR:-build}: every test through
#              ctest (Criterion tests of every primitive, CLI tests, the
#              Oclgrind race/bounds check, valgrind's memcheck on every
#              program, the install test, the quick benchmark); the CLI
#              tests only when the sanitizer pass does not run (see
#              NORMAL_EXCLUDE_WITH_SANITIZE)
#   sanitize   a second build in ${SCANKIT_ASAN_BUILD_DIR:-build-asan} with
#              -DSCANKIT_SANITIZE=ON (AddressSanitizer, LeakSanitizer and
#              UBSan, each stopping at its first report) runs the tests
#              again, the programs the CLI tests start included; any report
#              fails the pass, leaks too (tests/sanitize/lsan.supp lists the
#              leaks of PoCL and Criterion, not scankit's, that are ignored,
#              each with its reason); the suites run their lighter
#              matrix there (SKT_LIGHT=1, see below)
#
#   fuzz       a short fuzz run (scripts/fuzz.sh --seconds 60 --parallel: the file
#              reader and the command-line parsing under libFuzzer)
#
# SCANKIT_TEST_PASSES picks them: "all" (default: the three), "normal",
# "sanitize" or "fuzz"; e.g. SCANKIT_TEST_PASSES=normal scripts/test.sh for
# a quick local run.
# Arguments go to both ctest runs (e.g. -R test_scan). ctest runs
# ${SCANKIT_TEST_JOBS:-$(nproc)} tests at once (each Criterion suite runs
# two cases at once as well): the single-threaded ones (valgrind, Oclgrind,
# the programs' tests) then overlap the suites.
#
# It ends with one summary: for each pass that ran, the tests run, passed,
# failed and skipped (from ctest's JUnit file; for the fuzz pass, its
# targets) and the pass's seconds, build included; then "test.sh: PASS" or
# "test.sh: FAIL". It exits 1 when any pass failed, else 0.
#
# The sanitizer pass checks the host code, which runs there ~3x slower, so
# it sets SKT_LIGHT=1 (tests/skt_common.h, skt_light): every type, op,
# shape, tile setting, scan path and way of giving segments still runs, and
# every path of the host code, but a few of the largest sizes are capped
# where a larger one takes no host path that the capped one (or another
# test of that pass, which each cap names) does not take: test_scan's ~2^22
# scans and reductions (300007), test_compact's large runs (2^17 + 3),
# test_segscan's 140001 (33333), and test_scan_paths's runs past the
# streaming-store size (2^23 + 4099) for uint32 add only, the host path
# being the same for every type and op there. The kernels at those sizes
# are the normal pass's to check.
#
# The sanitizer pass leaves out what cannot run under the sanitizers or adds
# nothing there (see SANITIZE_EXCLUDE), and finds its kernels in the normal
# pass's caches (XDG_CACHE_HOME below), so it compiles nothing again. ASan and
# LeakSanitizer reports are written to $sanitize_build/sanitizer-reports/, so
# those of processes whose stderr a test captures or whose exit status it
# does not see (the CLIs, Criterion's test processes, which leak-check only
# after their test has passed) are not lost; the pass fails if any is there,
# and nothing runs twice.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
passes=${SCANKIT_TEST_PASSES:-all}
jobs=${SCANKIT_TEST_JOBS:-$(nproc)}
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
#   test_interval    the interval-of-summations proof: thousands of scans of
#                    every n up to 4096 that check the kernels' combining
#                    order; the host path they take (the monoid scans) is
#                    test_scan_monoid's, which runs here (under ASan the
#                    suite took 97 s against 23 s without)
#   test_ieee, test_determinism
#                    the kernels' float results bit for bit (signed zeros,
#                    NaN payloads, one association order run to run) on
#                    data chosen for them; the host code they run is the
#                    scans', segmented scans', compactions' and sort's of
#                    their own suites, which run here (together 39 s
#                    under ASan in CI)
# (and a sanitized build defines no valgrind test: valgrind cannot run ASan
# programs; the normal pass runs it). The MPI tests (test_mpi_sort_np*,
# test_cli_radixsort_mpi) run here under ASan and UBSan without the leak
# check, which their ENVIRONMENT_MODIFICATION turns off (tests/CMakeLists.txt):
# Open MPI's own leaks come from components it has unloaded, whose frames no
# suppression can name.
SANITIZE_EXCLUDE='^(oclgrind_|install_|bench_|test_interval$|test_ieee$|test_determinism$)'

# Left out of the normal pass when the sanitizer pass runs too (all passes,
# no ctest arguments): the programs' tests (test_cli_*). They check the
# command-line programs, host code that their sanitized build runs in the
# sanitizer pass (each test once rather than twice: together 111 s of the
# normal pass in CI); the normal pass's valgrind test still runs every
# program of the normal build.
NORMAL_EXCLUDE_WITH_SANITIZE='^test_cli_'

case "$passes" in
all | normal | sanitize | fuzz) ;;
*)
    echo "test.sh: SCANKIT_TEST_PASSES must be all, normal, sanitize or fuzz (not '$passes')" >&2
    exit 2
    ;;
esac

scripts/setup.sh

# The normal pass runs the full matrix whatever the caller's environment
# says; the sanitizer pass sets SKT_LIGHT itself.
unset SKT_LIGHT

# What the tests build (PoCL's kernel cache; scankit's disk cache on devices
# where the library keeps one) goes under XDG_CACHE_HOME: the normal tree's
# for every pass, so the sanitizer pass compiles nothing again, and nothing
# outside the build tree.
export XDG_CACHE_HOME="$root/$build/tests/cache"
case "$build" in /*) XDG_CACHE_HOME="$build/tests/cache" ;; esac

# An absolute path for a build directory named on the command line.
absolute() {
    case "$1" in
    /*) echo "$1" ;;
    *) echo "$root/$1" ;;
    esac
}

# The summary's rows, one per pass that ran (see summary_row).
summary=()

# One line of the summary's columns, without its newline.
summary_line() {
    printf '%-9s %-6s %6s %7s %7s %8s %8s  %s' "$@"
}

# Counts ctest's JUnit file $1: prints "TESTS PASSED FAILED SKIPPED NAMES",
# NAMES being the failed tests, comma-separated ("-" for none). Counted as
# ctest counts them: a test skipped by its SKIP_RETURN_CODE or disabled is
# skipped, one that could not run (no executable, a failed fixture) failed.
# Prints nothing when there is no such file (ctest did not get that far).
junit_counts() {
    [ -f "$1" ] || return 0
    awk '
        function done_case() {
            if (status == "") return
            tests++
            if (status == "run") passed++
            else if (status == "disabled" || (status == "notrun" && by_code)) skipped++
            else { failed++; names = names (names == "" ? "" : ",") name }
            status = ""
        }
        /^[ \t]*<testcase / {
            done_case()
            name = $0; sub(/.* name="/, "", name); sub(/".*/, "", name)
            status = $0; sub(/.* status="/, "", status); sub(/".*/, "", status)
            by_code = 0
            if ($0 ~ /\/>[ \t]*$/) done_case()
        }
        /^[ \t]*<skipped message="SKIP_RETURN_CODE=/ { by_code = 1 }
        /^[ \t]*<\/testcase>/ { done_case() }
        END {
            done_case()
            printf "%d %d %d %d %s\n", tests, passed, failed, skipped, names == "" ? "-" : names
        }' "$1"
}

# Adds a row to the summary: pass, its status (0 or not), its start
# ($SECONDS), "TESTS PASSED FAILED SKIPPED NAMES" (or empty: no results),
# then a note (may be empty).
summary_row() {
    local pass=$1 status=$2 start=$3 counts=$4 note=$5 tests passed failed skipped names
    local result=PASS
    [ "$status" = 0 ] || result=FAIL
    if [ -n "$counts" ]; then
        read -r tests passed failed skipped names <<<"$counts"
        [ "$names" = - ] || note="failed: $names${note:+; $note}"
        [ "$tests" != 0 ] || note="no test matched${note:+; $note}"
    else
        tests=- passed=- failed=- skipped=-
    fi
    summary+=("$(summary_line "$pass" "$result" "$tests" "$passed" \
        "$failed" "$skipped" "$((SECONDS - start))" "$note")")
}

print_summary() {
    local row
    echo
    echo "== test.sh summary"
    summary_line pass result tests passed failed skipped seconds note
    echo
    for row in "${summary[@]}"; do
        echo "${row%"${row##*[! ]}"}"
    done
    if [ "$status" = 0 ]; then
        echo "test.sh: PASS"
    else
        echo "test.sh: FAIL"
    fi
}

run_normal_pass() {
    local start=$SECONDS rc=0 junit
    junit="$(absolute "$build")/test-sh-normal.junit.xml"
    rm -f "$junit"
    if ! scripts/build.sh; then
        summary_row normal 1 "$start" "" "build failed"
        return 1
    fi
    local exclude=()
    if [ "$passes" = all ] && [ $# -eq 0 ]; then
        exclude=(-E "$NORMAL_EXCLUDE_WITH_SANITIZE")
    fi
    (cd "$build" && ctest --output-on-failure --timeout 1200 -j "$jobs" --output-junit "$junit" \
        "${exclude[@]}" "$@") || rc=1
    summary_row normal "$rc" "$start" "$(junit_counts "$junit")" ""
    return "$rc"
}



# ASan and LeakSanitizer write their reports to files in $1 and abort the
# process (SIGABRT: no test accepts that status, not even one expecting a
# program to fail); stacks are unwound fully so that the suppressions can
# name PoCL's functions (see tests/sanitize/lsan.supp), ten frames deep
# (malloc_context_size: deep enough for those names and for the caller of
# an OpenCL object scankit would leak; the default 30 made the pass 15%
# slower: every allocation of PoCL's compiler unwinds). UBSan ignores
# log_path when linked with ASan: its reports go to stderr, and it aborts
# too (the build adds -fno-sanitize-recover=all).
# intercept_tls_get_addr=0: the runtime's __tls_get_addr interceptor (GCC
# up to 13, LLVM up to 16) takes a dynamic TLS block that lands at offset
# 16 of a page (PoCL and LLVM, loaded by dlopen, take dynamic TLS) for one
# with glibc 2.19's header and reads the two words before it as an address
# and a length; LeakSanitizer's tracer then faults on them at exit now and
# then ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal
# error"), and no leak check runs. Without the interceptor the pass runs
# clean (no leak reported that the suppressions do not name).
sanitizer_options() {
    local reports=$1
    export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=1:intercept_tls_get_addr=0"
    ASAN_OPTIONS+=":fast_unwind_on_malloc=0:malloc_context_size=10:log_path=$reports/asan"
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

# The sanitized ctest run; $1 is the reports directory, the rest goes to ctest.
sanitized_ctest() {
    local reports=$1
    shift
    (
        sanitizer_options "$reports" &&
            export SKT_LIGHT=1 &&
            cd "$sanitize_build" &&
            ctest --output-on-failure --timeout 1200 -j "$jobs" -E "$SANITIZE_EXCLUDE" "$@"
    )
}

run_sanitize_pass() {
    local start=$SECONDS pass_start=$SECONDS status=0 reports junit counts note=""
    reports="$(absolute "$sanitize_build")/sanitizer-reports"
    junit="$(absolute "$sanitize_build")/test-sh-sanitize"
    rm -f "$junit".junit.xml
    if ! SCANKIT_BUILD_DIR=$sanitize_build scripts/build.sh -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSCANKIT_SANITIZE=ON -DSCANKIT_BUILD_BENCH=OFF; then
        summary_row sanitize 1 "$pass_start" "" "build failed"
        return 1
    fi
    echo "test.sh: sanitizer pass: built in $((SECONDS - start)) s"
    rm -rf "$reports" && mkdir -p "$reports" || return 1
    start=$SECONDS
    sanitized_ctest "$reports" --output-junit "$junit".junit.xml "$@" || status=1
    counts=$(junit_counts "$junit".junit.xml)
    if ! check_no_reports "$reports"; then
        status=1
        note="sanitizer reports in $reports${note:+; $note}"
    fi
    echo "test.sh: sanitizer pass: tests ran in $((SECONDS - start)) s"
    summary_row sanitize "$status" "$pass_start" "$counts" "$note"
    return "$status"
}

# The fuzz pass: scripts/fuzz.sh, its stderr kept to count its targets:
# one "== TARGET: N s" line each, and "fuzz: FAILED: TARGET... (inputs in
# ...)" naming those that failed.
run_fuzz_pass() {
    local start=$SECONDS rc=0 log ran names failed=()
    log=$(mktemp) || return 1
    { scripts/fuzz.sh --seconds 60 --parallel 2>&1 1>&3 3>&- | tee "$log" >&2 3>&-; } 3>&1 || rc=1
    ran=$(grep -c '^== fuzz_' "$log" || true)
    read -r -a failed <<<"$(sed -n 's/^fuzz: FAILED: \([^(]*\) (inputs in .*/\1/p' "$log" | tail -n 1)"
    if [ "$ran" = 0 ]; then
        summary_row fuzz "$rc" "$start" "" "no target ran (build failed?)"
    else
        names=$(IFS=,; echo "${failed[*]}")
        summary_row fuzz "$rc" "$start" "$ran $((ran - ${#failed[@]})) ${#failed[@]} 0 ${names:--}" \
            "fuzz targets, 60 s in all"
    fi
    rm -f "$log"
    return "$rc"
}

status=0
if [ "$passes" = all ] || [ "$passes" = normal ]; then
    run_normal_pass "$@" || status=1
fi
if [ "$passes" = all ] || [ "$passes" = sanitize ]; then
    run_sanitize_pass "$@" || status=1
fi
if [ "$passes" = all ] || [ "$passes" = fuzz ]; then
    run_fuzz_pass || status=1
fi
print_summary
exit "$status"

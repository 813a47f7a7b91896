# mpi_cli_common.sh - what the radixsort-mpi program tests share; sourced
# (bash) by test_cli_radixsort_mpi_{memory,signals,io}.sh.
#
#   mpi_cli_begin NAME APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
#       sets apps, mpiexec, np_flag and the array mpi_flags from the test's
#       arguments; makes a work directory, removed at exit, and enters it;
#       sets failures=0 and seed (SKT_SEED, else random; printed, so that
#       SKT_SEED repeats a run); fail and skip below then name NAME
#   fail MESSAGE...     reports a failure (with the seed) and counts it
#   skip REASON...      the test is skipped: exit 77
#   mpi_cli_need_strace skips unless the launcher is Open MPI's (the tests
#                       that hold a rank use its MPMD syntax) and strace
#                       can trace here
#   mpi_cli_end         exit 1 with the count of failures, else 0

mpi_cli_begin() {
    mpi_cli_name=$1
    apps=$2 mpiexec=$3 np_flag=$4
    shift 4
    mpi_flags=("$@")
    work=$(mktemp -d "${TMPDIR:-/tmp}/$mpi_cli_name.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
    cd "$work" || exit 1
    failures=0
    seed=${SKT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
    echo "$mpi_cli_name: seed $seed (SKT_SEED)"
}

fail() {
    echo "$mpi_cli_name: FAIL (seed $seed): $*" >&2
    failures=$((failures + 1))
}

skip() {
    echo "$mpi_cli_name: skipped: $*"
    exit 77
}

mpi_cli_need_strace() {
    local version
    version=$("$mpiexec" --version 2>/dev/null)
    [[ $version == *"Open MPI"* || $version == *OpenRTE* ]] ||
        skip "the MPMD runs are written for Open MPI's mpirun"
    command -v strace >/dev/null || skip "no strace"
    strace -f -qq -o /dev/null -e trace=none true 2>/dev/null || skip "strace cannot trace here"
}

mpi_cli_end() {
    if [ "$failures" -ne 0 ]; then
        echo "$mpi_cli_name: $failures failure(s)" >&2
        exit 1
    fi
    echo "$mpi_cli_name: all passed"
}

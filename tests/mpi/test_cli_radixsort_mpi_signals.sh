#!/usr/bin/env bash
# test_cli_radixsort_mpi_signals.sh - radixsort-mpi ended by a signal
# while its outputs' temporary files exist leaves no temporary file and
# no output: the directory lists what it listed before, an existing
# output unchanged. On 2 ranks, writing keys and values:
#
#   rank 0 gets SIGTERM (SIGINT) at the fchmod of its last (first) output's
#     temporary file: both (one) exist, nothing is written yet;
#   rank 1 gets SIGTERM as it writes its range (its first pwrite64):
#     mpirun then ends rank 0 with SIGTERM, while it waits for rank 1;
#   mpirun gets SIGINT while rank 1 is held before writing its range (a
#     delay of 20 s at its first pwrite64) and rank 0 waits for it: mpirun
#     sends SIGTERM to both.
#
# The moments are held, not raced: strace delivers the signal, or holds
# rank 1, at a system call (run through Open MPI's MPMD syntax: one rank
# under strace). Skipped (exit 77) where strace is missing or cannot
# trace, and under an MPI other than Open MPI.
#
# usage: test_cli_radixsort_mpi_signals.sh APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/mpi_cli_common.sh"
mpi_cli_begin test_cli_radixsort_mpi_signals "$@"

mpi_cli_need_strace

"$apps/datagen" -n 256K -s "$seed" -o keys.bin >/dev/null &&
    "$apps/datagen" -n 256K -s $((seed + 1)) -o values.bin >/dev/null ||
    { echo "test_cli_radixsort_mpi_signals: datagen failed" >&2; exit 1; }
mkdir out || exit 1
args=(keys.bin --values values.bin -o out/k.bin --values-out out/v.bin)

# A complete run first: the reference, and the kernels in the device's
# cache, so that the runs below make the same system calls.
"$apps/radixsort" keys.bin --values values.bin -o ref_k.bin --values-out ref_v.bin ||
    { echo "test_cli_radixsort_mpi_signals: radixsort failed" >&2; exit 1; }
"$mpiexec" "$np_flag" 2 "${mpi_flags[@]}" "$apps/radixsort-mpi" "${args[@]}" 2>err.txt &&
    cmp -s out/k.bin ref_k.bin && cmp -s out/v.bin ref_v.bin ||
    { echo "test_cli_radixsort_mpi_signals: the complete run failed: $(cat err.txt)" >&2; exit 1; }
# An existing output (the keys'), which a signal must leave as it was.
rm out/v.bin
echo "the output before" >out/k.bin
cp out/k.bin k_before.bin
before=$(ls -la --time-style=+ out | sort)

# expect_nothing_left WHAT RC: the run ended in failure and out/ is as it
# was.
expect_nothing_left() {
    local what=$1 rc=$2 failed=$failures
    [ "$rc" -ne 0 ] || fail "$what: exit 0"
    [ "$(ls -la --time-style=+ out | sort)" = "$before" ] ||
        fail "$what: out/ lists $(ls -A out | tr '\n' ' '), want only k.bin as it was"
    cmp -s out/k.bin k_before.bin || fail "$what: the existing output changed"
    rm -f out/.k.bin.* out/.v.bin.* out/v.bin
    cp k_before.bin out/k.bin
    [ "$failures" -eq "$failed" ] && echo "ok: $what: exit $rc, nothing left"
}

# traced RANK SYSCALL INJECTION: sets `run` to the command of
# radixsort-mpi on 2 ranks, RANK under strace with -e
# inject=SYSCALL:INJECTION.
traced() {
    local rank=$1 syscall=$2 inject=$3 plain=("$apps/radixsort-mpi" "${args[@]}")
    local under=(strace -f -qq -o /dev/null -e trace="$syscall" -e inject="$syscall:$inject"
                 "$apps/radixsort-mpi" "${args[@]}")
    local apps0=("${plain[@]}") apps1=("${under[@]}")
    [ "$rank" = 0 ] && apps0=("${under[@]}") apps1=("${plain[@]}")
    run=("$mpiexec" "${mpi_flags[@]}" "$np_flag" 1 "${apps0[@]}" : "$np_flag" 1 "${apps1[@]}")
}

traced 0 fchmod signal=TERM:when=2
"${run[@]}" 2>err.txt
expect_nothing_left "rank 0: SIGTERM once both temporary files exist" $?
traced 0 fchmod signal=INT:when=1
"${run[@]}" 2>err.txt
expect_nothing_left "rank 0: SIGINT once the first temporary file exists" $?
traced 1 pwrite64 signal=TERM:when=1
"${run[@]}" 2>err.txt
expect_nothing_left "rank 1: SIGTERM as it writes (mpirun ends rank 0)" $?

# mpirun gets SIGINT once the temporary files exist, rank 1 held.
traced 1 pwrite64 delay_enter=20000000:when=1
"${run[@]}" 2>err.txt &
pid=$!
for _ in $(seq 600); do
    compgen -G "out/.v.bin.*" >/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
done
if compgen -G "out/.v.bin.*" >/dev/null; then
    kill -INT "$pid"
    wait "$pid"
    expect_nothing_left "mpirun: SIGINT while the ranks write" $?
else
    wait "$pid"
    fail "mpirun: no temporary file appeared (exit $?): $(cat err.txt)"
fi

mpi_cli_end

#!/usr/bin/env bash
# test_cli_radixsort_mpi_io.sh - radixsort-mpi's reads and writes at its
# ranks' offsets (pread, pwrite), on 2 ranks, keys and values, one or both
# ranks under strace (Open MPI's MPMD syntax: a prefix for each rank):
#
#   a write interrupted (EINTR at rank 1's first pwrite64) is taken up
#     again: the outputs are radixsort's, byte for byte, and neither rank
#     fsyncs them (no --sync);
#   with --sync, a read interrupted (EINTR at rank 0's first pread64 of the
#     keys) is taken up again, the outputs are radixsort's, and rank 1
#     fsyncs each output's temporary file;
#   a full disk (ENOSPC at rank 1's first pwrite64), a failed read (EIO
#     at rank 1's first pread64 of the keys), a write that makes no
#     progress (rank 1's first pwrite64 returns 0) and a read that finds
#     the end of the keys first (rank 0's first pread64 of them returns 0):
#     one line from rank 0 with the reason, exit 1, no output and no
#     temporary file left;
#   through --mpi-io (collective MPI-IO), a full disk and a failed read
#     end the run the same way.
#
# strace's log shows each injected call on the file meant (the keys, an
# output's temporary file), so that no case passes by injecting into
# something else; reads are injected with -P (only those of the keys: the
# dynamic loader reads libraries with pread64 too). Skipped (exit 77)
# where strace is missing or cannot trace, and under an MPI other than
# Open MPI.
#
# usage: test_cli_radixsort_mpi_io.sh APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/mpi_cli_common.sh"
mpi_cli_begin test_cli_radixsort_mpi_io "$@"

mpi_cli_need_strace

"$apps/datagen" -n 256K -s "$seed" -o keys.bin >/dev/null &&
    "$apps/datagen" -n 256K -s $((seed + 1)) -o values.bin >/dev/null &&
    "$apps/radixsort" keys.bin --values values.bin -o ref_k.bin --values-out ref_v.bin ||
    { echo "test_cli_radixsort_mpi_io: datagen or radixsort failed" >&2; exit 1; }
mkdir out || exit 1
args=(keys.bin --values values.bin -o out/k.bin --values-out out/v.bin)

# begin: a case begins; ok MESSAGE: prints it unless the case failed.
begin() { before=$failures; }
ok() { [ "$failures" -eq "$before" ] && echo "ok: $*"; }

# run ARGS...: radixsort-mpi ARGS on 2 ranks, rank 0's command prefixed
# by the array r0, rank 1's by r1; stderr in err.txt. Sets rc.
run() {
    "$mpiexec" "${mpi_flags[@]}" "$np_flag" 1 "${r0[@]}" "$apps/radixsort-mpi" "$@" : \
        "$np_flag" 1 "${r1[@]}" "$apps/radixsort-mpi" "$@" 2>err.txt
    rc=$?
}

# traced LOG [-P FILE] INJECTION...: the strace prefix (in `prefix`) that
# logs reads, writes and syncs to LOG with each descriptor's path, and
# injects INJECTION (SYSCALL:WHAT; with -P, into calls on FILE only).
traced() {
    local log=$1 inject=() paths=()
    shift
    if [ "${1-}" = -P ]; then paths=(-P "$2"); shift 2; fi
    for i in "$@"; do inject+=(-e "inject=$i"); done
    prefix=(strace -f -qq -y -o "$log" "${paths[@]}" -e trace=pread64,pwrite64,fsync,fdatasync
            "${inject[@]}")
}

# injected LOG SYSCALL FILE: LOG shows SYSCALL injected on FILE (a
# pattern of its path).
injected() {
    grep -E "^[0-9]+ +$2\([0-9]+<[^>]*$3[^>]*>.*\(INJECTED" "$1" >/dev/null
}

# syncs LOG: the fsync/fdatasync calls in LOG on the outputs' temporary
# files.
syncs() {
    grep -cE "(fsync|fdatasync)\([0-9]+<[^>]*/out/\.[kv]\.bin\.[^>]*>" "$1"
}

# same WHAT: the run succeeded and both outputs are radixsort's.
same() {
    if [ "$rc" -ne 0 ]; then
        fail "$1: exit $rc: $(cat err.txt)"
    elif ! cmp -s out/k.bin ref_k.bin || ! cmp -s out/v.bin ref_v.bin; then
        fail "$1: the outputs differ from radixsort's"
    fi
    rm -f out/k.bin out/v.bin
}

# nothing_left WHAT MESSAGE: the run failed with one line matching MESSAGE
# (with ompio=1, radixsort-mpi's one line among Open MPI's own, in
# whichever order they came) and out/ is empty.
nothing_left() {
    local lines=1
    [ "$rc" -eq 1 ] || fail "$1: exit $rc, want 1"
    [ "${ompio-0}" = 1 ] && lines=$(wc -l <err.txt)
    [ "$(grep -c '^radixsort-mpi:' err.txt)" -eq 1 ] && [ "$(wc -l <err.txt)" -eq "$lines" ] ||
        fail "$1: $(wc -l <err.txt) lines on stderr, want radixsort-mpi's one: $(cat err.txt)"
    grep '^radixsort-mpi:' err.txt | grep -qE "^radixsort-mpi: $2" ||
        fail "$1: unexpected message: $(cat err.txt)"
    [ -z "$(ls -A out)" ] || fail "$1: left $(ls -A out | tr '\n' ' ')"
    rm -rf out
    mkdir out
}

keys=$work/keys.bin
temp="/out/\.[kv]\.bin\."

# An interrupted write; no --sync: no fsync of the outputs on either rank.
begin
what="EINTR at rank 1's first write"
traced trace0.txt
r0=("${prefix[@]}")
traced trace1.txt pwrite64:error=EINTR:when=1
r1=("${prefix[@]}")
run "${args[@]}"
injected trace1.txt pwrite64 "$temp" || fail "$what: not injected where meant"
n=$(($(syncs trace0.txt) + $(syncs trace1.txt)))
[ "$n" -eq 0 ] || fail "$what: the ranks synced the outputs $n times without --sync"
same "$what"
ok "$what: the outputs are radixsort's, not synced"

# An interrupted read; --sync: rank 1 fsyncs both outputs.
begin
what="EINTR at rank 0's first read, --sync"
traced trace0.txt -P "$keys" pread64:error=EINTR:when=1
r0=("${prefix[@]}")
traced trace1.txt
r1=("${prefix[@]}")
run "${args[@]}" --sync
injected trace0.txt pread64 keys.bin || fail "$what: not injected where meant"
n=$(syncs trace1.txt)
[ "$n" -ge 2 ] || fail "$what: rank 1 synced the outputs $n times, want both"
same "$what"
ok "$what: the outputs are radixsort's, $n fsyncs of them on rank 1"

# A full disk at rank 1's first write.
begin
r0=()
traced trace1.txt pwrite64:error=ENOSPC:when=1
r1=("${prefix[@]}")
run "${args[@]}"
injected trace1.txt pwrite64 "/out/\.k\.bin\." || fail "ENOSPC: not injected where meant"
nothing_left "ENOSPC at rank 1's first write" "out/k.bin: write failed: No space left on device"
ok "ENOSPC at rank 1's first write: $(cat err.txt)"

# A failed read at rank 1's first read of the keys.
begin
traced trace1.txt -P "$keys" pread64:error=EIO:when=1
r1=("${prefix[@]}")
run "${args[@]}"
injected trace1.txt pread64 keys.bin || fail "EIO: not injected where meant"
nothing_left "EIO at rank 1's first read" "keys.bin: read failed: Input/output error"
ok "EIO at rank 1's first read: $(cat err.txt)"

# A write that makes no progress (0 bytes written: where a full disk
# stops a write part way, the next one writes nothing) at rank 1's first
# write; a read of the keys that finds their end first (0 bytes read: the
# file shrank) at rank 0's.
begin
traced trace1.txt pwrite64:retval=0:when=1
r1=("${prefix[@]}")
run "${args[@]}"
injected trace1.txt pwrite64 "/out/\.k\.bin\." || fail "no progress: not injected where meant"
nothing_left "a write of 0 bytes on rank 1" "out/k.bin: write failed: No space left on device"
ok "a write of 0 bytes on rank 1: $(cat err.txt)"
begin
traced trace0.txt -P "$keys" pread64:retval=0:when=1
r0=("${prefix[@]}")
r1=()
run "${args[@]}"
injected trace0.txt pread64 keys.bin || fail "end of file: not injected where meant"
nothing_left "a read of 0 bytes on rank 0" "keys.bin: ends [0-9]+ bytes early"
ok "a read of 0 bytes on rank 0: $(cat err.txt)"

# --mpi-io: the same reads and writes through collective MPI-IO (Open
# MPI's OMPIO reads and writes with pread64 and pwrite64 too): a full disk
# and a failed read end the run with radixsort-mpi's one line (OMPIO
# prints one of its own from the failing rank, before or after it: the
# ranks' stderr reach mpirun's in either order), exit 1, nothing left. (OMPIO does not
# take up an interrupted call, EINTR: that is the MPI library's to do.)
r0=()
ompio=1
begin
traced trace1.txt pwrite64:error=ENOSPC:when=1
r1=("${prefix[@]}")
run "${args[@]}" --mpi-io
injected trace1.txt pwrite64 "/out/\.k\.bin\." || fail "--mpi-io ENOSPC: not injected where meant"
nothing_left "--mpi-io, ENOSPC at rank 1's first write" "out/k.bin: write failed"
ok "--mpi-io, ENOSPC at rank 1's first write: $(grep '^radixsort-mpi:' err.txt)"
begin
traced trace1.txt -P "$keys" pread64:error=EIO:when=1
r1=("${prefix[@]}")
run "${args[@]}" --mpi-io
injected trace1.txt pread64 keys.bin || fail "--mpi-io EIO: not injected where meant"
nothing_left "--mpi-io, EIO at rank 1's first read" "keys.bin: ends early"
ok "--mpi-io, EIO at rank 1's first read: $(grep '^radixsort-mpi:' err.txt)"

mpi_cli_end

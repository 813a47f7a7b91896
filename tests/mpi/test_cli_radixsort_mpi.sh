#!/usr/bin/env bash
# test_cli_radixsort_mpi.sh - radixsort-mpi against radixsort, byte for
# byte, under mpiexec with 1, 2 and 3 ranks: raw and .npy keys, descending,
# --balanced, pairs with a bit range, collective MPI-IO (--mpi-io), the
# local sort's copies in parts; and
# failures (a bad input, values
# that do not match, one rank's device): one line on stderr, a non-zero
# exit, no output and no temporary file left.
#
# usage: test_cli_radixsort_mpi.sh APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
# (ctest passes the build's apps/ and mpiexec; Open MPI gets --oversubscribe
# and -q, which keeps mpirun's own banner about a failed rank off stderr).
set -uo pipefail
apps=$1 mpiexec=$2 np_flag=$3
shift 3
mpi_flags=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/test_cli_radixsort_mpi.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failures=0

fail() {
    echo "test_cli_radixsort_mpi: FAIL: $*" >&2
    failures=$((failures + 1))
}

# mpi RANKS ARGS...: radixsort-mpi ARGS on RANKS ranks; stderr in err.txt.
mpi() {
    local ranks=$1
    shift
    "$mpiexec" "$np_flag" "$ranks" "${mpi_flags[@]}" "$apps/radixsort-mpi" "$@" 2>err.txt
}

# same RANKS OUT... -- ARGS...: both programs on ARGS (radixsort without
# --balanced, writing ref.OUT for each OUT), each output compared.
same() {
    local ranks=$1 outs=() refs=() args=() ref_args=() arg i
    shift
    while [ "$1" != -- ]; do outs+=("$1"); refs+=("ref.$1"); shift; done
    shift
    args=("$@")
    for arg in "${args[@]}"; do
        [ "$arg" = --balanced ] || [ "$arg" = --mpi-io ] && continue
        for i in "${!outs[@]}"; do [ "$arg" = "${outs[$i]}" ] && arg=${refs[$i]}; done
        ref_args+=("$arg")
    done
    rm -f "${outs[@]}" "${refs[@]}"
    "$apps/radixsort" "${ref_args[@]}" || { fail "radixsort ${ref_args[*]}"; return; }
    if ! mpi "$ranks" "${args[@]}"; then
        fail "P=$ranks radixsort-mpi ${args[*]}: exit $?: $(cat err.txt)"
        return
    fi
    for i in "${!outs[@]}"; do
        cmp -s "${outs[$i]}" "${refs[$i]}" ||
            fail "P=$ranks radixsort-mpi ${args[*]}: ${outs[$i]} differs from radixsort's"
    done
    echo "ok: P=$ranks radixsort-mpi ${args[*]}"
}

"$apps/datagen" -n 70001 -s 11 -o keys.bin >/dev/null &&
    "$apps/datagen" -n 70001 -s 12 -o values.bin >/dev/null &&
    "$apps/datagen" -n 5003 -t float64 --range -4:4 -s 13 -o floats.npy >/dev/null &&
    "$apps/datagen" -n 3001 -t int64 --dist few-unique -s 14 -o few.npy >/dev/null ||
    { echo "test_cli_radixsort_mpi: datagen failed" >&2; exit 1; }

for ranks in 1 2 3; do
    same "$ranks" out.bin -- keys.bin -o out.bin
    same "$ranks" out.npy -- floats.npy -o out.npy --descending --balanced
done
same 2 out.npy -- few.npy -o out.npy
same 3 out.bin vout.bin -- keys.bin --values values.bin -o out.bin --values-out vout.bin --bits 3:17
same 2 out.bin vout.bin -- keys.bin --values values.bin -o out.bin --values-out vout.bin \
    --descending --balanced
# collective MPI-IO reads and writes (--mpi-io): raw and .npy, pairs;
# fewer keys than ranks (ranks with nothing to read or write) and none
head -c 8 keys.bin >two.bin && : >none.bin
for ranks in 1 2 3; do
    same "$ranks" out.npy vout.bin -- keys.bin --values values.bin -o out.npy \
        --values-out vout.bin --descending --mpi-io
    same "$ranks" out.npy -- floats.npy -o out.npy --balanced --mpi-io --sync
    same "$ranks" out.bin -- two.bin -o out.bin --mpi-io
    same "$ranks" out.npy -- none.bin -o out.npy --mpi-io
done
# the local sort's copies of the keys and values in parts on threads, as
# from 64 MiB on (SCANKIT_COPY_PARTS_FROM: every copy here)
for ranks in 1 2; do
    SCANKIT_COPY_PARTS_FROM=1 same "$ranks" out.bin vout.bin -- keys.bin --values values.bin \
        -o out.bin --values-out vout.bin --descending
done

# A bad input: one line, from rank 0 only; exit 1 everywhere; nothing left.
head -c 4001 keys.bin >bad.bin
mkdir -p outdir
mpi 2 bad.bin -o outdir/out.bin
rc=$?
lines=$(wc -l <err.txt)
[ "$rc" -ne 0 ] || fail "bad input: exit 0"
[ "$lines" -eq 1 ] || fail "bad input: $lines lines on stderr, want 1: $(cat err.txt)"
grep -q '^radixsort-mpi: bad.bin: size 4001 is not a multiple of 4' err.txt ||
    fail "bad input: unexpected message: $(cat err.txt)"
[ -z "$(ls -A outdir)" ] || fail "bad input: left $(ls -A outdir)"
echo "ok: P=2 bad input: $(cat err.txt)"

# Values that do not match the keys, on 3 ranks.
head -c 40000 values.bin >short.bin
mpi 3 keys.bin --values short.bin -o outdir/out.bin --values-out outdir/v.bin
rc=$?
[ "$rc" -ne 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ -z "$(ls -A outdir)" ] ||
    fail "short values: exit $rc, stderr: $(cat err.txt), left: $(ls -A outdir)"
echo "ok: P=3 short values: $(cat err.txt)"

# One rank's device fails (Open MPI's MPMD syntax gives the last rank its
# own SCANKIT_DEVICE): rank 0 tells that rank's reason, once.
version=$("$mpiexec" --version 2>/dev/null)
if [[ $version == *"Open MPI"* || $version == *OpenRTE* ]]; then
    "$mpiexec" "${mpi_flags[@]}" "$np_flag" 2 "$apps/radixsort-mpi" keys.bin -o outdir/out.bin : \
        "$np_flag" 1 -x SCANKIT_DEVICE=nosuch "$apps/radixsort-mpi" keys.bin -o outdir/out.bin \
        2>err.txt
    rc=$?
    [ "$rc" -ne 0 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ -z "$(ls -A outdir)" ] &&
        grep -q "^radixsort-mpi: SCANKIT_DEVICE='nosuch': " err.txt ||
        fail "one rank's device: exit $rc, stderr: $(cat err.txt), left: $(ls -A outdir)"
    echo "ok: P=3, the last rank's device fails: $(cat err.txt)"
fi

if [ "$failures" -ne 0 ]; then
    echo "test_cli_radixsort_mpi: $failures failure(s)" >&2
    exit 1
fi
echo "test_cli_radixsort_mpi: all passed"

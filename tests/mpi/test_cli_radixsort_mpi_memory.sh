#!/usr/bin/env bash
# test_cli_radixsort_mpi_memory.sh - radixsort-mpi within --memory and
# --host-memory of about a MiB on files of a few MiB, on 1, 2 and 3 ranks:
# every rank sorts its share and merges the runs it received in several
# runs, some spilled to --temp-dir, and the output is radixsort's (one
# process, no budget), byte for byte. Every key type, pairs, descending,
# bit ranges, all-equal and few-unique keys. --time shows each rank's runs
# (at least two for a share over --memory) and that some spilled; the
# temporary directory is empty afterwards. Budgets too small are
# radixsort's message (exit 1, nothing left); a bad size is a usage error.
#
# The data comes from a seed printed first (SKT_SEED=<n> repeats a run).
#
# usage: test_cli_radixsort_mpi_memory.sh APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/mpi_cli_common.sh"
mpi_cli_begin test_cli_radixsort_mpi_memory "$@"
mkdir spill || exit 1

# gen FILE DATAGEN_ARGS...: FILE from the next seed.
gen_n=0
gen() {
    local file=$1
    shift
    gen_n=$((gen_n + 1))
    "$apps/datagen" -s $((seed + gen_n)) -o "$file" "$@" >/dev/null ||
        { echo "test_cli_radixsort_mpi_memory: datagen $* failed" >&2; exit 1; }
}

# check_runs SPILLS: every rank's line of --time in err.txt shows at least
# two runs of its local sort and of its merge, but for a rank that received
# nothing from the others: its own run is in order, not merged (one run);
# with SPILLS=1 some rank spilled a run.
check_runs() {
    awk -v spills="$1" 'NR > 1 {
             if (NF != 16 || $13 < 2 || ($14 < 2 && !($14 == 1 && $12 == 0))) bad = 1
             spilled += $15
         }
         END { exit bad || NR < 2 || (spills && spilled == 0) }' err.txt
}

# same RANKS SPILLS OUT [VOUT] -- ARGS...: radixsort-mpi ARGS --time
# --temp-dir spill on RANKS ranks against radixsort on ARGS without the
# budgets (writing ref.OUT, ref.VOUT), byte for byte; then check_runs.
same() {
    local ranks=$1 spills=$2 outs=() ref_args=() arg skip=0 i
    shift 2
    while [ "$1" != -- ]; do outs+=("$1"); shift; done
    shift
    for arg in "$@"; do
        if [ "$skip" = 1 ]; then skip=0; continue; fi
        case $arg in --memory | --host-memory | --balanced) [ "$arg" = --balanced ] || skip=1; continue ;; esac
        for i in "${!outs[@]}"; do [ "$arg" = "${outs[$i]}" ] && arg=ref.${outs[$i]}; done
        ref_args+=("$arg")
    done
    rm -f "${outs[@]}" "${outs[@]/#/ref.}"
    "$apps/radixsort" "${ref_args[@]}" || { fail "radixsort ${ref_args[*]}"; return; }
    if ! "$mpiexec" "$np_flag" "$ranks" "${mpi_flags[@]}" "$apps/radixsort-mpi" "$@" --time \
        --temp-dir spill 2>err.txt; then
        fail "P=$ranks radixsort-mpi $*: exit $?: $(cat err.txt)"
        return
    fi
    for i in "${!outs[@]}"; do
        cmp -s "${outs[$i]}" "ref.${outs[$i]}" ||
            fail "P=$ranks radixsort-mpi $*: ${outs[$i]} differs from radixsort's"
    done
    check_runs "$spills" || fail "P=$ranks radixsort-mpi $*: runs: $(cat err.txt)"
    [ -z "$(ls -A spill)" ] || fail "P=$ranks radixsort-mpi $*: left in --temp-dir: $(ls -A spill)"
    echo "ok: P=$ranks radixsort-mpi $*"
}

gen u32.bin -n 1M
gen vals.bin -n 1M
gen f64.npy -n 512K -t float64 --range -1e3:1e3
gen i64.bin -n 384K -t int64
gen v64.bin -n 384K -t uint64
gen i32.npy -n 768K -t int32 --dist few-unique
gen u64.bin -n 512K -t uint64 --dist equal
gen ve.bin -n 512K
gen f32.bin -n 1M -t float32
gen v32.bin -n 1M

same 1 1 out.bin -- u32.bin -o out.bin --memory 1M --host-memory 4M
same 2 1 out.npy -- f64.npy -o out.npy --descending --memory 1M --host-memory 2M
same 3 0 out.bin vout.bin -- i64.bin --type int64 --values v64.bin --values-type uint64 \
    -o out.bin --values-out vout.bin --bits 5:40 --memory 512K --host-memory 4M
same 2 1 out.npy -- i32.npy -o out.npy --descending --balanced --memory 1M --host-memory 2M
same 3 1 out.bin vout.bin -- u64.bin --type uint64 --values ve.bin -o out.bin \
    --values-out vout.bin --memory 256K --host-memory 1M
same 2 0 out.bin vout.bin -- f32.bin --type float32 --values v32.bin -o out.bin \
    --values-out vout.bin --bits 16:32 --memory 1M

# Budgets too small: radixsort's message, after the program's name; exit 1;
# no output, no temporary file.
mkdir -p outdir
"$apps/radixsort" u32.bin -o outdir/ref.bin --memory 1 2>ref_err.txt
want=$(sed 's/^radixsort: //' ref_err.txt)
"$mpiexec" "$np_flag" 2 "${mpi_flags[@]}" "$apps/radixsort-mpi" u32.bin -o outdir/out.bin \
    --memory 1 2>err.txt
rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <err.txt)" -eq 1 ] && [ -n "$want" ] &&
    [ "$(cat err.txt)" = "radixsort-mpi: $want" ] && [ -z "$(ls -A outdir)" ] ||
    fail "--memory 1: exit $rc, stderr: $(cat err.txt) (radixsort: $(cat ref_err.txt)), left: $(ls -A outdir)"
echo "ok: P=2 --memory 1: $(cat err.txt)"

# A bad size: a usage error, as radixsort's.
for bad in 0 12Q; do
    "$mpiexec" "$np_flag" 1 "${mpi_flags[@]}" "$apps/radixsort-mpi" u32.bin --host-memory "$bad" \
        2>err.txt
    rc=$?
    "$apps/radixsort" u32.bin --host-memory "$bad" 2>ref_err.txt
    ref_rc=$?
    [ "$rc" -eq 2 ] && [ "$ref_rc" -eq 2 ] &&
        [ "$(head -n 1 err.txt | sed 's/^radixsort-mpi: //')" = \
          "$(head -n 1 ref_err.txt | sed 's/^radixsort: //')" ] ||
        fail "--host-memory $bad: exit $rc ($ref_rc): $(cat err.txt) / $(cat ref_err.txt)"
done
echo "ok: bad sizes are usage errors"

mpi_cli_end

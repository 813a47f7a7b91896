#!/bin/sh
# run.sh - runs every command-line program under valgrind's memcheck on a
# small input; any memcheck error or definitely lost block fails.
#
#   run.sh APP_DIR WORK_DIR
#
# APP_DIR holds the built programs (datagen, scan, compact, radixsort,
# merge, segscan, polyeval, histogram, search). WORK_DIR is emptied first; the inputs, outputs and one
# memcheck log per run (NAME.vg.log) stay there.
#
# Kernels: under valgrind PoCL sees valgrind's virtual CPU (no AVX-512), so
# it would build its kernels for another CPU than outside valgrind, and
# building them under valgrind takes seconds each. So on x86-64 PoCL builds
# for a target that valgrind's CPU and every x86-64 CPU run (POCL_LLVM_CPU_NAME
# and its kernel library, POCL_KERNELLIB_NAME), in and out of valgrind; each
# command first runs without valgrind, which builds its kernels at native
# speed into the on-disk caches (scankit's in WORK_DIR.cache, kept between
# runs, and PoCL's own), and memcheck's run then loads them. Elsewhere the
# first run is under valgrind --tool=none (no instrumentation, ~10x faster
# than memcheck).
#
# What counts: memcheck errors (invalid reads and writes, uses of
# uninitialised values, bad frees, overlapping copies) and "definitely lost"
# blocks. Indirectly and possibly lost blocks and still reachable memory are
# not errors: PoCL and LLVM keep process-lifetime caches and pools that they
# never free, and blocks reachable only from those show up as such (scankit
# frees all it allocates and releases every OpenCL object it creates, so a
# leak of scankit's is a definite one). The suppressions in pocl.supp cover
# what the C library's loader, PoCL and LLVM do themselves; each entry says
# why it is not scankit's. $VALGRIND names the valgrind executable (default:
# valgrind from PATH). Exit 0 on success, 1 on failure (with the failing
# run's log), 77 (skipped) when valgrind is not installed or there is no
# OpenCL device.
set -u

[ $# -eq 2 ] || { echo "usage: run.sh APP_DIR WORK_DIR" >&2; exit 2; }
apps=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
VALGRIND=${VALGRIND:-valgrind}
VG_ERROR=99 # memcheck's exit status when it found something

command -v "$VALGRIND" >/dev/null 2>&1 || { echo "run.sh: no valgrind: skipped"; exit 77; }
apps=$(cd "$apps" && pwd) || exit 1
rm -rf "$work"
mkdir -p "$work" || exit 1
cd "$work" || exit 1
work=$PWD
export SCANKIT_CACHE_DIR="$work.cache" # kept between runs
unset SCANKIT_TRACE SCANKIT_LOG
warmup="$VALGRIND -q --tool=none"
if [ "$(uname -m)" = x86_64 ]; then
    export POCL_LLVM_CPU_NAME=x86-64 POCL_KERNELLIB_NAME=sse2
    warmup=
fi

if ! "$apps/scan" --list-devices 2>/dev/null | grep -q '^[0-9]'; then
    echo "run.sh: no OpenCL device: skipped"
    exit 77
fi

fail() {
    echo "run.sh: FAIL: $*"
    exit 1
}

# vg NAME PROGRAM [ARGS...]: runs PROGRAM without memcheck (it must
# succeed; this builds its kernels, see above), then under memcheck with the
# log in NAME.vg.log; fails on any report.
vg() {
    name=$1
    prog=$2
    shift 2
    start=$(date +%s)
    $warmup "$apps/$prog" "$@" >"$name.out" 2>"$name.err" ||
        fail "$prog $* exited with status $? ${warmup:+under $warmup }before memcheck: $(cat "$name.err")"
    warm=$(date +%s)
    "$VALGRIND" --tool=memcheck --error-exitcode=$VG_ERROR \
        --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
        --suppressions="$here/pocl.supp" --num-callers=40 --log-file="$name.vg.log" \
        "$apps/$prog" "$@" >"$name.out" 2>"$name.err"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "run.sh: $prog $* under memcheck exited with status $status"
        cat "$name.err"
        cat "$name.vg.log"
        fail "$name"
    fi
    checked=$(date +%s)
    echo "run.sh: ok: $prog $* ($((warm - start)) s to build," \
        "$((checked - warm)) s under memcheck)"
}

n=3001 # a few CPU chunks and GPU tiles; small enough for memcheck

# Inputs (datagen itself is checked once, below).
"$apps/datagen" -n $n --type float32 --seed 11 -o x.bin &&
    "$apps/datagen" -n $n --type uint8 --range 0:1 --seed 13 -o heads.u8 &&
    "$apps/datagen" -n $n --type uint64 --seed 14 -o v.bin &&
    "$apps/datagen" -n $n --type int64 --dist sorted --seed 15 -o a.npy &&
    "$apps/datagen" -n 1999 --type int64 --dist sorted --seed 16 -o b.npy &&
    "$apps/datagen" -n 1999 --type uint64 --seed 17 -o vb.bin ||
    fail "datagen could not write the inputs"

vg datagen datagen -n $n --type uint32 --dist few-unique --seed 12 -o k.npy
vg compact compact k.npy --if 'x % 3 == 0' --values v.bin --values-type uint64 -o k.compact.npy
# radixsort: streamed from the files in one run (the reading threads); then
# in memory (--check) as runs, some spilled to a file (the merge pass)
vg radixsort radixsort k.npy --values v.bin --values-type uint64 -o k.sorted.npy
vg radixsort-runs radixsort k.npy --values v.bin --values-type uint64 --memory 16K \
    --host-memory 24K --temp-dir . --check -o k.runs.npy
cmp k.sorted.npy k.runs.npy || fail "radixsort --memory 16K differs from the sort in one piece"
vg merge merge a.npy b.npy --values v.bin vb.bin --values-type uint64 --check -o m.npy
vg search search a.npy b.npy --upper -o ab.upper.npy
vg polyeval polyeval x.bin --points x.bin -o y.bin
vg histogram histogram x.bin --type float32 --bins 64 --range 0:1 -o x.hist.bin
# --memory: in chunks (apps/chunks.c); scan and segscan in one piece are
# the sanitizer pass's
vg scan-chunks scan x.bin --type float32 --exclusive --check --memory 4K -o x.scan4k.bin
vg compact-chunks compact k.npy --partition 'x % 3 == 0' --values v.bin --values-type uint64 \
    --memory 16K -o k.part.npy
vg segscan-chunks segscan x.bin --type float32 --flags heads.u8 --reduce --memory 4K \
    -o x.segreduce.bin
vg polyeval-chunks polyeval x.bin --points x.bin --memory 16K -o y4k.bin
cmp y.bin y4k.bin || fail "polyeval --memory 16K differs from the points in one piece"
vg histogram-chunks histogram x.bin --type float32 --bins 64 --range 0:1 --memory 4K \
    -o x.hist4k.bin
cmp x.hist.bin x.hist4k.bin || fail "histogram --memory 4K differs from the counts in one piece"
echo "run.sh: ok: every program is clean under memcheck"

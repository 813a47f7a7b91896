#!/usr/bin/env bash
# test_cli_radixsort_mpi_time.sh - radixsort-mpi --time on 2 ranks: its
# output is radixsort's, and rank 0 prints a header and one line per rank
# with the milliseconds of every phase, the bytes the rank sent and
# received (what one rank sent the other received) and its runs.
#
# usage: test_cli_radixsort_mpi_time.sh APPS_DIR MPIEXEC NUMPROC_FLAG [MPIEXEC_FLAG...]
set -uo pipefail
apps=$1 mpiexec=$2 np_flag=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/test_cli_radixsort_mpi_time.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

fail() {
    echo "test_cli_radixsort_mpi_time: FAIL: $*" >&2
    exit 1
}

header="rank read_ms device_ms sort_ms split_ms exchange_ms merge_ms wait_ms write_ms total_ms"
header+=" sent_bytes received_bytes sort_runs merge_runs spilled_runs cpus"

"$apps/datagen" -n 30011 -s 21 -o keys.bin >/dev/null || fail "datagen"
"$apps/radixsort" keys.bin -o ref.bin || fail "radixsort"
"$mpiexec" "$np_flag" 2 "$@" "$apps/radixsort-mpi" keys.bin -o out.bin --time 2>err.txt ||
    fail "radixsort-mpi --time: exit $?: $(cat err.txt)"
cmp -s out.bin ref.bin || fail "--time: the output differs from radixsort's"
[ "$(head -n 1 err.txt)" = "$header" ] || fail "--time: header: $(head -n 1 err.txt)"
[ "$(wc -l <err.txt)" -eq 3 ] || fail "--time: want a header and 2 lines: $(cat err.txt)"
# every line: its rank, 9 times in ms, 2 byte counts, the runs of its
# sort and merge (one each: no --memory), none spilled, and the processors
# it may run on (1 to those online); the bytes add up
cpus=$(getconf _NPROCESSORS_ONLN)
awk -v cpus="$cpus" 'NR > 1 {
         if (NF != 16 || $1 != NR - 2) bad = 1
         for (i = 2; i <= 16; i++) if ($i !~ /^[0-9]+(\.[0-9]+)?$/) bad = 1
         if ($13 != 1 || $14 != 1 || $15 != 0 || $16 < 1 || $16 > cpus) bad = 1
         if ($10 + 0 < $3 + $5 + $6 + $7 + $8 + $9) bad = 1   # total covers the phases
         sent += $11; received += $12
     }
     END { exit bad || sent != received || sent == 0 }' err.txt ||
    fail "--time: bad lines: $(cat err.txt)"
echo "ok: P=2 radixsort-mpi --time:"
cat err.txt
# bound to one processor (taskset, as a launcher's binding does), a rank
# says so: its cpus column is 1
if command -v taskset >/dev/null && [ "$cpus" -gt 1 ]; then
    taskset -c 0 "$mpiexec" "$np_flag" 1 "$@" "$apps/radixsort-mpi" keys.bin -o out.bin \
        --time 2>err.txt || fail "taskset -c 0 radixsort-mpi --time: exit $?: $(cat err.txt)"
    cmp -s out.bin ref.bin || fail "taskset -c 0: the output differs from radixsort's"
    awk 'NR == 2 { seen = 1; if ($16 != 1) bad = 1 } END { exit bad || !seen }' err.txt ||
        fail "taskset -c 0: want cpus 1: $(cat err.txt)"
    echo "ok: taskset -c 0 radixsort-mpi --time: cpus 1"
fi

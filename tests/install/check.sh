#!/bin/sh
# check.sh - installs a scankit build into a scratch prefix, then builds and
# runs tests/install/consumer/main.c against that prefix twice: with CMake
# (find_package(scankit) + scankit::scankit) and with pkg-config.
#
#   check.sh BUILD_DIR WORK_DIR [CONFIG]
#
# WORK_DIR is emptied first; the prefix, the consumer builds and one log per
# step stay there. $CMAKE and $CC name the tools (default cmake, cc).
# Exit 0 on success, 1 on failure (the failing step's log is shown), 77 when
# both consumers build but there is no OpenCL device to run them on.
set -u

[ $# -ge 2 ] || { echo "usage: check.sh BUILD_DIR WORK_DIR [CONFIG]" >&2; exit 2; }
build=$1
work=$2
config=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
CMAKE=${CMAKE:-cmake}
CC=${CC:-cc}
prefix=$work/prefix
no_device=0

fail() {
    echo "check.sh: FAIL: $*"
    exit 1
}

# step NAME COMMAND...: runs COMMAND with its output in WORK_DIR/NAME.log.
step() {
    name=$1
    shift
    if "$@" >"$work/$name.log" 2>&1; then
        echo "check.sh: ok: $name"
        return 0
    fi
    echo "check.sh: FAIL: $name: $*"
    tail -n 40 "$work/$name.log" | sed 's/^/    /'
    exit 1
}

# run_consumer NAME BINARY: runs it against the prefix's library and checks
# that this library, not another scankit, is the one loaded.
run_consumer() {
    name=$1
    bin=$2
    LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" \
        >"$work/$name.log" 2>&1
    rc=$?
    sed 's/^/    /' "$work/$name.log"
    if [ $rc -eq 77 ]; then
        no_device=1
    elif [ $rc -ne 0 ]; then
        fail "$name exited with status $rc"
    fi
    if command -v ldd >/dev/null 2>&1; then
        LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$bin" |
            grep libscankit | grep -q "$libdir/" ||
            fail "$name does not load libscankit from $libdir"
    fi
    echo "check.sh: ok: $name"
}

rm -rf "$work" || fail "cannot remove $work"
mkdir -p "$work" || fail "cannot create $work"

# 1. Install into the scratch prefix.
step install "$CMAKE" --install "$build" --prefix "$prefix" ${config:+--config "$config"}
[ -f "$prefix/include/scankit.h" ] || fail "no include/scankit.h under $prefix"
pc=$(find "$prefix" -path '*/pkgconfig/scankit.pc' | head -n 1)
[ -n "$pc" ] || fail "no pkgconfig/scankit.pc under $prefix"
libdir=$(dirname "$(dirname "$pc")")
ls "$libdir"/libscankit.* >/dev/null 2>&1 || fail "no libscankit in $libdir"
echo "check.sh: installed to $prefix (libdir ${libdir#"$prefix"/})"

# 2. CMake consumer: find_package must find the package in the prefix.
step cmake-configure "$CMAKE" -S "$here/consumer" -B "$work/cmake-build" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=Release
grep -q "^scankit_DIR:PATH=$prefix/" "$work/cmake-build/CMakeCache.txt" ||
    fail "find_package(scankit) found a package outside $prefix"
step cmake-build "$CMAKE" --build "$work/cmake-build"
run_consumer cmake-run "$work/cmake-build/consumer"

# 3. pkg-config consumer: only the flags from the installed scankit.pc.
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs scankit) ||
    fail "pkg-config --cflags --libs scankit"
echo "check.sh: pkg-config flags: $flags"
# shellcheck disable=SC2086 # the flags are meant to split into words
step pkgconfig-build "$CC" -std=c11 -Wall -Wextra -o "$work/consumer-pc" \
    "$here/consumer/main.c" $flags
run_consumer pkgconfig-run "$work/consumer-pc"

if [ $no_device -eq 1 ]; then
    echo "check.sh: SKIP: both consumers build, no OpenCL device to run them"
    exit 77
fi
echo "check.sh: PASS"

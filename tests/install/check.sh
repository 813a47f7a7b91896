#!/bin/sh
# check.sh - installs a scankit build into a scratch prefix, then builds and
# runs tests/install/consumer/main.c against that prefix twice: with CMake
# (find_package(scankit) + scankit::scankit) and with pkg-config. Then a
# third time with scankit as a subproject (tests/install/subproject/:
# add_subdirectory of this source tree, no option set), which must build
# the library alone (no tests, so no Criterion), leave the parent's cache
# and build type alone, and give the consumer none of scankit's flags.
#
#   check.sh BUILD_DIR WORK_DIR [CONFIG]
#
# WORK_DIR is emptied first; the prefix, the consumer builds and one log per
# step stay there. $CMAKE and $CC name the tools (default cmake, cc).
# Exit 0 on success, 1 on failure (the failing step's log is shown), 77 when
# the consumers build but there is no OpenCL device to run them on.
set -u

[ $# -ge 2 ] || { echo "usage: check.sh BUILD_DIR WORK_DIR [CONFIG]" >&2; exit 2; }
build=$1
work=$2
config=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
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

# run_consumer NAME BINARY [LIBDIR]: runs it (against LIBDIR's library
# when given, checking that this library, not another scankit, is the one
# loaded).
run_consumer() {
    name=$1
    bin=$2
    lib=${3:-}
    if [ -n "$lib" ]; then
        LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$bin" \
            >"$work/$name.log" 2>&1
    else
        "$bin" >"$work/$name.log" 2>&1
    fi
    rc=$?
    sed 's/^/    /' "$work/$name.log"
    if [ $rc -eq 77 ]; then
        no_device=1
    elif [ $rc -ne 0 ]; then
        fail "$name exited with status $rc"
    fi
    if [ -n "$lib" ] && command -v ldd >/dev/null 2>&1; then
        LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ldd "$bin" |
            grep libscankit | grep -q "$lib/" ||
            fail "$name does not load libscankit from $lib"
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
run_consumer cmake-run "$work/cmake-build/consumer" "$libdir"

# 3. pkg-config consumer: only the flags from the installed scankit.pc.
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs scankit) ||
    fail "pkg-config --cflags --libs scankit"
echo "check.sh: pkg-config flags: $flags"
# shellcheck disable=SC2086 # the flags are meant to split into words
step pkgconfig-build "$CC" -std=c11 -Wall -Wextra -o "$work/consumer-pc" \
    "$here/consumer/main.c" $flags
run_consumer pkgconfig-run "$work/consumer-pc" "$libdir"

# 4. Subproject consumer: this source tree added with add_subdirectory, no
#    scankit option and no build type set (so the library follows the
#    parent's BUILD_SHARED_LIBS: static).
sub=$work/subproject-build
step subproject-configure "$CMAKE" -S "$here/subproject" -B "$sub" \
    -DSCANKIT_SOURCE_DIR="$src" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
cache=$sub/CMakeCache.txt
for opt in TESTS APPS BENCH FUZZERS; do
    grep -qx "SCANKIT_BUILD_$opt:BOOL=OFF" "$cache" ||
        fail "subproject: SCANKIT_BUILD_$opt is not OFF by default"
done
! grep -q '^CRITERION' "$cache" || fail "subproject: scankit looked for Criterion"
! grep -q '^BUILD_SHARED_LIBS:' "$cache" ||
    fail "subproject: scankit put BUILD_SHARED_LIBS into the parent's cache"
grep -qx 'CMAKE_BUILD_TYPE:STRING=' "$cache" ||
    fail "subproject: scankit set the parent's build type ($(grep '^CMAKE_BUILD_TYPE:' "$cache"))"
[ ! -e "$sub/scankit/tests" ] || fail "subproject: scankit configured its tests"
# Compile lines: the consumer's has none of scankit's warning or sanitizer
# flags; the library's has the warnings (where the compiler takes them), so
# that the first check looks at something.
db=$sub/compile_commands.json
consumer_cmd=$(grep '"command":.*/consumer/main\.c"' "$db")
library_cmd=$(grep '"command":.*/primitives/scan\.c"' "$db")
[ -n "$consumer_cmd" ] || fail "subproject: no compile line for consumer/main.c in $db"
[ -n "$library_cmd" ] || fail "subproject: no compile line for primitives/scan.c in $db"
case "$consumer_cmd" in
*-Wall* | *-Wextra* | *-fsanitize*) fail "subproject: the consumer got scankit's flags: $consumer_cmd" ;;
esac
if grep -qE 'CMAKE_C_COMPILER_ID "(GNU|Clang|AppleClang)"' "$sub"/CMakeFiles/*/CMakeCCompiler.cmake; then
    case "$library_cmd" in
    *-Wextra*) ;;
    *) fail "subproject: scankit's own sources lost -Wextra: $library_cmd" ;;
    esac
fi
echo "check.sh: ok: subproject options, cache and flags"
step subproject-build "$CMAKE" --build "$sub"
run_consumer subproject-run "$sub/consumer"

if [ $no_device -eq 1 ]; then
    echo "check.sh: SKIP: the consumers build, no OpenCL device to run them"
    exit 77
fi
echo "check.sh: PASS"

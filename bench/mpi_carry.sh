#!/usr/bin/env bash
# mpi_carry.sh - a folder to carry to a machine without MPI (the GPU
# machines): this machine's Open MPI (Debian 12's 4.1.4: orterun, orted,
# its components, help files and the shared libraries it needs beyond a
# plain Ubuntu: libmpi, libopen-rte, libopen-pal, libpmix with its
# components, libhwloc, libevent, libmunge, libnuma), relocated through
# OPAL_PREFIX and PMIX_PREFIX; radixsort, radixsort-mpi and datagen built
# Release with scankit linked statically; hyperfine; env.sh to source
# there. Components that need libraries such a machine lacks (UCX,
# libfabric, verbs, PSM, OpenSHMEM) are left out. About 13 MiB.
#
#   bench/mpi_carry.sh [--out DIR] [--build DIR]
#
#   --out    the folder (default gpubuild-mpi, ignored by git)
#   --build  the build folder for the programs (default build-carry)
# Then, there (with bench/mpi_whole.sh beside it):
#   . gpubuild-mpi/env.sh
#   bench/mpi_whole.sh --build gpubuild-mpi --n 1G --ranks 1 --ranks 2
# Checked here by running it with the system's Open MPI hidden (unshare -m
# with tmpfs and /dev/null mounted over its files) and a clean environment.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
out=$root/gpubuild-mpi
build=$root/build-carry
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift ;;
    --build) build=$2; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "mpi_carry.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
multiarch=x86_64-linux-gnu
sys=/usr/lib/$multiarch
ompi=$out/ompi
plugins=$ompi/lib/$multiarch/openmpi/lib/openmpi3
pmix=$ompi/lib/$multiarch/pmix2

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DSCANKIT_BUILD_TESTS=OFF -DSCANKIT_BUILD_BENCH=OFF -DSCANKIT_MPI=ON > /dev/null
cmake --build "$build" -j"${JOBS:-1}" --target radixsort radixsort-mpi datagen > /dev/null

rm -rf "$out"
mkdir -p "$ompi/bin" "$ompi/share" "$plugins" "$pmix/lib/pmix" "$out/apps" "$out/bin"
cp "$build"/apps/{radixsort,radixsort-mpi,datagen} "$out/apps/"
cp -L "$(command -v hyperfine)" "$out/bin/"
cp -L /usr/bin/orterun "$ompi/bin/orterun"
cp -L /usr/bin/orterun "$ompi/bin/mpirun"
cp -L /usr/bin/orted "$ompi/bin/orted"
cp -rL /usr/share/openmpi "$ompi/share/"
for l in libmpi.so.40 libopen-rte.so.40 libopen-pal.so.40 libhwloc.so.15 libevent-2.1.so.7 \
         libevent_core-2.1.so.7 libevent_pthreads-2.1.so.7 libpmix.so.2 libmunge.so.2 \
         libmca_common_ompio.so.41 libmca_common_sm.so.40 libmca_common_monitoring.so.50 \
         libnuma.so.1; do
  cp -L "$sys/$l" "$ompi/lib/"
done
# components whose libraries are not carried
missing='libuc[pmst]\.|libpsm|libinfinipath|libibverbs|librdmacm|libfabric|libefa|libnl-|liboshmem|libmca_common_(ucx|ofi|verbs)'
for f in "$sys"/openmpi/lib/openmpi3/*.so "$sys"/pmix2/lib/pmix/*.so; do
  ldd "$f" | grep -Eq "$missing" && continue
  case "$f" in
    */pmix2/*) cp -L "$f" "$pmix/lib/pmix/" ;;
    *) cp -L "$f" "$plugins/" ;;
  esac
done
cat > "$out/env.sh" <<'ENV'
# . env.sh: the carried Open MPI 4.1.4 (Debian 12's), relocated, and the
# programs beside it on PATH
G=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$G/ompi
export PMIX_PREFIX=$G/ompi/lib/x86_64-linux-gnu/pmix2
export PMIX_MCA_mca_base_component_path=$PMIX_PREFIX/lib/pmix
export PATH=$G/ompi/bin:$G/apps:$G/bin:$PATH
export LD_LIBRARY_PATH=$G/ompi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0
# what Debian's /etc/openmpi/openmpi-mca-params.conf sets
export OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_mtl='^ofi'
export OMPI_MCA_btl='^uct,openib,ofi' OMPI_MCA_pml='^ucx' OMPI_MCA_osc='^ucx,pt2pt'
ENV
du -sh "$out"

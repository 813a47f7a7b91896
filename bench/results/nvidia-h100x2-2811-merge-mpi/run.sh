#!/usr/bin/env bash
# One command on a machine of two H100s (16 cores), from the repository root
# with gpubuild-bench (bench/run_gpu.sh --prepare, then `make bench_all
# bench_merge_runs radixsort datagen file_io` in it, Highway's libhwy.so.1
# and libhwy_contrib.so.1 copied into gpubuild-bench/lib) and gpubuild-mpi
# (bench/mpi_carry.sh), both at the commit of this file:
#   1. bench_merge_runs on one H100: the merge of P runs by rounds against
#      the radix sort of them, 2^24, 2^26, 2^28 uint32 keys and pairs;
#   2. the CPU-shape sort on PoCL's 16 cores against Highway's vqsort on one
#      thread and on every core (bench_all's vqsort rows), 2^24 and 2^26;
#   2b. (vqsort16) the same on 16 of the cores (taskset -c 0-15, PoCL on 16
#      threads), 2^24 and 2^26 for every peer;
#   3. the whole process at 16 GiB: cp, radixsort, radixsort-mpi on one
#      rank (one GPU) and on two (a GPU each) in one run (bench/mpi_whole.sh).
set -u
mkdir -p /etc/OpenCL/vendors && echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
R=${OUT:?}; mkdir -p $R/merge $R/vqsort $R/whole
export SCANKIT_CACHE_DIR=/tmp/skc
{ date -u; nproc; grep -m1 "model name" /proc/cpuinfo; uptime; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; clinfo -l 2>/dev/null; } > $R/env.txt 2>&1
part=${1:-all}
if [ "$part" = all ] || [ "$part" = merge ]; then
  for k in 24 26 28; do
    gpubuild-bench/bench/bench_merge_runs --device nvidia --min-log2 $k --max-log2 $k \
      --runs 2,4,8,16,32,64 --repeats 5 >> $R/merge/table.md 2>> $R/merge/log.txt
  done
fi
if [ "$part" = all ] || [ "$part" = vqsort ]; then
  LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib gpubuild-bench/bench/bench_all --prims sort_keys,sort_pairs \
    --min-log2 24 --max-log2 26 --step 2 --dists uniform --no-boost --no-host --shape cpu --device pocl \
    --repeats 5 --qsort-max-log2 20 --serial-max-log2 24 --csv $R/vqsort/bench_all.csv \
    > $R/vqsort/out.txt 2> $R/vqsort/log.txt
fi
if [ "$part" = all ] || [ "$part" = vqsort16 ]; then
  mkdir -p $R/vqsort16
  POCL_MAX_PTHREAD_COUNT=16 LD_LIBRARY_PATH=$PWD/gpubuild-bench/lib taskset -c 0-15 \
    gpubuild-bench/bench/bench_all --prims sort_keys,sort_pairs \
    --min-log2 24 --max-log2 26 --step 2 --dists uniform --no-boost --no-host --shape cpu --device pocl \
    --repeats 5 --qsort-max-log2 20 --serial-max-log2 26 --csv $R/vqsort16/bench_all.csv \
    > $R/vqsort16/out.txt 2> $R/vqsort16/log.txt
fi
if [ "$part" = all ] || [ "$part" = whole ]; then
  . gpubuild-mpi/env.sh; export PMIX_MCA_pcompress_base_silence_warning=1
  bash bench/mpi_whole.sh --build gpubuild-mpi --n 4G --ranks 1 --ranks 2 --runs 1 --out $R/whole
fi

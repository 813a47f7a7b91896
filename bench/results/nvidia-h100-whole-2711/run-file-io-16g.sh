#!/usr/bin/env bash
# file_io at 16 GiB, 8 threads, one repeat; the machine's dirty-page settings
set -u
B=$PWD/gpubuild-bench
W=/tmp/w; mkdir -p $W; rm -f $W/*
sysctl vm.dirty_ratio vm.dirty_background_ratio vm.dirty_bytes vm.dirty_background_bytes vm.dirty_expire_centisecs
$B/bench/file_io --bytes 16G --threads 8 --dir $W --repeats 1
grep -E "Dirty|Writeback:" /proc/meminfo

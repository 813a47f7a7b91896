#!/usr/bin/env python3
"""mpi_model.py - the time model of bench/NOTES-mpi.md: a sort of T bytes of
keys over N nodes of G GPUs, phase by phase, as radixsort-mpi does it now
(every phase after the other, no overlap), in markdown tables with the
arithmetic in each cell.

    python3 bench/mpi_model.py [--record BYTES]

Every rate is a parameter below, with where it comes from."""
import argparse

GB = 1e9
# measured: a rank's local sort of 16 GiB of uint32 from host memory and
# back (its copy of the input on threads, the host form through pinned
# buffers) 3.0-3.1 s on an H100 (bench/results/nvidia-h100-mpi-copy-2811);
# sort_keys of 2^28 uint32 on the device alone 7.606 ms
# (bench/results/nvidia-h100-80gb-hbm3/results.md)
HOST_SORT = 2**34 / 3.05            # bytes/s per GPU, a sort from host memory and back
DEVICE_SORT = 2**30 / 0.007606      # bytes/s per GPU, on the device alone
# assumed: a node of 8 H100 80 GB and 2 TB of host memory (a DGX H100)
GPUS, GPU_MEM, HOST_MEM = 8, 80 * GB, 2000 * GB
# radixsort-mpi holds a rank's share three times in host memory (read,
# sorted copy, received) and twice plus scratch on its device
HOST_COPIES, DEVICE_COPIES = 3, 2.1


def cell(num, den, unit="s"):
    return f"{num / GB:,.1f} GB / {den / GB:g} GB/s = {num / den:,.1f} {unit}"


def phases(total, nodes, disk, net, shm):
    node = total / nodes
    gpu = node / GPUS
    ranks = GPUS * nodes
    off_node = node * (nodes - 1) / nodes
    off_rank = gpu * (ranks - 1) / ranks
    rows = {
        "share a node / a GPU": f"{node / GB:,.1f} GB / {gpu / GB:,.2f} GB",
        "read (disk)": (node, disk),
        "local sort (host form)": (gpu, HOST_SORT),
        "exchange, network": (off_node, net),
        "exchange, shared memory as measured": (off_rank, shm),
        "merge (host form)": (gpu, HOST_SORT),
        "write (disk)": (node, disk),
    }
    exch = max(off_node / net, off_rank / shm)
    t = node / disk * 2 + 2 * gpu / HOST_SORT + exch
    fits = gpu * DEVICE_COPIES <= GPU_MEM and node * HOST_COPIES <= HOST_MEM
    return rows, t, fits


def table(total, nodes_list, disk, net, shm):
    print(f"\n{total / 1e12:g} TB, disk {disk / GB:g} GB/s a node, network {net / GB:g} GB/s "
          f"a node, MPI shared memory {shm / GB:g} GB/s a rank\n")
    cols = [phases(total, n, disk, net, shm) for n in nodes_list]
    print("| phase | " + " | ".join(f"N = {n} ({n * GPUS} GPUs)" for n in nodes_list) + " |")
    print("| --- |" + " ---: |" * len(nodes_list))
    for name in cols[0][0]:
        vals = []
        for rows, _, _ in cols:
            v = rows[name]
            vals.append(v if isinstance(v, str) else cell(*v))
        print(f"| {name} | " + " | ".join(vals) + " |")
    print("| total, phases in turn | " + " | ".join(f"**{t:,.0f} s**" for _, t, _ in cols) + " |")
    print("| fits in memory now | " + " | ".join("yes" if f else "no: out of core" for *_, f in cols)
          + " |")


def two_pass(total, nodes_list, disk, net):
    """Out of core, as the GraySort entries do it: pass 1 reads, partitions
    by the splitters and sends; each rank writes what it receives as sorted
    runs to its local disk (read, network and temp write overlapped: the
    slowest decides); pass 2 merges the runs (read temp, write output)."""
    print(f"\n{total / 1e12:g} TB out of core in two passes, disk {disk / GB:g} GB/s a node "
          f"(reads and writes share it), network {net / GB:g} GB/s a node\n")
    print("| phase | " + " | ".join(f"N = {n}" for n in nodes_list) + " |")
    print("| --- |" + " ---: |" * len(nodes_list))
    rows = {"pass 1 disk: read + temp write": [], "pass 1 network": [],
            "pass 1 sorts (host form, each byte once)": [], "pass 2 disk: temp read + write": [],
            "pass 2 merge (host form)": []}
    totals = []
    for n in nodes_list:
        node, gpu = total / n, total / n / GPUS
        p1 = [(2 * node, disk), (node * (n - 1) / n, net), (gpu, HOST_SORT)]
        p2 = [(2 * node, disk), (gpu, HOST_SORT)]
        for key, v in zip(rows, p1 + p2):
            rows[key].append(cell(*v))
        totals.append(max(a / b for a, b in p1) + max(a / b for a, b in p2))
    for key, vals in rows.items():
        print(f"| {key} | " + " | ".join(vals) + " |")
    print("| total, overlapped within a pass | " + " | ".join(f"**{t:,.0f} s**" for t in totals)
          + " |")


def splitting(nodes_list, total):
    """The cost of P^2 regular samples (3 uint64 each) gathered on every
    rank, and the size of one message of the exchange."""
    print(f"\nSplitting and messages for {total / 1e12:g} TB (P = {GPUS} N ranks)\n")
    print("| N | P | P^2 samples x 24 B, on every rank | messages a rank | bytes a message |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for n in nodes_list:
        P = GPUS * n
        msg = total / P / P
        print(f"| {n} | {P} | {P * P:,} x 24 B = {P * P * 24 / 1e6:,.1f} MB | {P - 1:,} | "
              f"{total / 1e12:g} TB / {P}^2 = {msg / 1e6:,.3f} MB |")


def main():
    p = argparse.ArgumentParser()
    p.parse_args()
    # two ranks of one machine moved 4 GiB each way in 2.26 s, 1.9 GB/s a
    # rank (bench/results/nvidia-h100x2-mpi-exchange-2811)
    shm = 2.0 * GB
    for disk, net in ((2 * GB, 25 * GB), (20 * GB, 25 * GB), (20 * GB, 50 * GB)):
        table(1e12, (4, 8, 16, 64), disk, net, shm)
    for net in (25 * GB, 50 * GB):
        table(100e12, (128, 512, 1024), 20 * GB, net, shm)
    for net in (25 * GB, 50 * GB):
        two_pass(100e12, (16, 64, 128), 20 * GB, net)
    splitting((1, 4, 16, 64, 128, 512, 1024), 1e12)
    splitting((64, 512, 1024), 100e12)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the HGTX association benchmark report: about a million kernels and
a million push/pop ranges on four threads, nested six deep, with graph
launches (bench/association.sh; docs in bench/README.md).

Per thread (two processes with two threads each, thread i drives device i):
  capture_graph (once): six graph nodes created by stream capture, then
    instantiated (nodes whose originalGraphNodeId is the captured node)
  iteration N                                   level 0
    forward / backward                          level 1
      layer L (4)                               level 2
        attention / mlp / norm (3)              level 3
          op A / op B (2)                       level 4
            launch 0 / launch 1 (2)             level 5: one hgLaunchKernel,
                                                two kernels each (two streams)
    graph_step: hgGraphLaunch -> six kernels of the captured graph
  = 180 ranges and 198 kernels per iteration.
Deterministic (a fixed LCG); timestamps in ns, kernels queue on their stream.
"""
import sqlite3
import sys

PROCESSES = 2
THREADS_PER_PROCESS = 2
GRAPH_NODES = 6


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-hgtx-deep.py OUT.asysrep KERNELS (e.g. 1000000)")
    out, kernels_wanted = sys.argv[1], int(sys.argv[2])
    threads = PROCESSES * THREADS_PER_PROCESS
    iterations = max(1, kernels_wanted // (198 * threads))

    seed = [12345]

    def rnd(lo, hi):
        seed[0] = (seed[0] * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return lo + (seed[0] >> 33) % (hi - lo)

    db = sqlite3.connect(out)
    db.executescript(
        """
        PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
        CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
          category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
          textId INTEGER, domainId INTEGER);
        CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
          correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
        CREATE TABLE HGGC_GRAPH_NODE_EVENTS (start INTEGER, end INTEGER, globalTid INTEGER, nameId INTEGER,
          graphNodeId INTEGER, originalGraphNodeId INTEGER, graphId INTEGER);
        CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
          streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
          shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
          blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
          staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
        """
    )
    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings) + 1
        return strings[text]

    api_launch, api_graph, api_capture = sid("hgLaunchKernel"), sid("hgGraphLaunch"), sid("hgStreamBeginCapture")
    kernel_names = []
    for i in range(24):
        demangled = f"void bench_kernel_{i}<float, {32 << (i % 4)}>(float const*, float*, int)"
        kernel_names.append((sid(demangled), sid(f"bench_kernel_{i}"), sid(f"_Z14bench_kernel_{i}ILi{i}EEvPKfPfi")))
    names = {n: sid(n) for n in ["capture_graph", "forward", "backward", "attention", "mlp", "norm",
                                 "op A", "op B", "launch 0", "launch 1", "graph_step"]}
    layer_names = [sid(f"layer {l}") for l in range(4)]

    hgtx, api, nodes, kern = [], [], [], []
    range_id = [0]
    end_time = 0
    for p in range(PROCESSES):
        pid = 5000 + p
        gpid = pid << 24
        for t in range(THREADS_PER_PROCESS):
            tid = pid + t
            gtid = gpid | tid
            device = p * THREADS_PER_PROCESS + t
            corr = [t * 100_000_000]  # unique per process, as HGGC correlation ids are
            now = [1_000_000 + device * 1000]
            free = {0: 0, 1: 0}  # two streams

            def push(text_id):
                range_id[0] += 1
                row = [now[0], None, 59, range_id[0], None, None, None, gtid, None, text_id, None]
                hgtx.append(row)
                now[0] += rnd(200, 600)
                return row

            def pop(row):
                now[0] += rnd(200, 600)
                row[1] = now[0]

            def launch(name_id, count, graph=None):
                corr[0] += 1
                start = now[0]
                now[0] += rnd(1500, 4000)
                api.append((start, now[0], 1, gtid, corr[0], name_id, 0, None))
                for k in range(count):
                    stream = k % 2
                    ks = max(free[stream], now[0] + rnd(500, 2000))
                    kd = rnd(2000, 20000)
                    free[stream] = ks + kd
                    names_k = kernel_names[(corr[0] * 7 + k) % len(kernel_names)]
                    node = graph[k] if graph else None
                    kern.append((ks, ks + kd, device, 1, 7 + stream, corr[0], gpid, *names_k,
                                 128, 1, 1, 256, 1, 1, 64, 0, 0, node, 1 if graph else None))
                now[0] += rnd(300, 900)

            # The graph: captured, then instantiated (node ids per process).
            cap = push(names["capture_graph"])
            launch(api_capture, 0)
            captured = []
            for k in range(GRAPH_NODES):
                node = 100 + t * 100 + k
                nodes.append((now[0], now[0] + 800, gtid, None, node, None, 1))
                captured.append(node)
                now[0] += 1000
            exec_nodes = []
            for k, orig in enumerate(captured):
                node = 1000 + t * 100 + k
                nodes.append((now[0], now[0] + 500, gtid, None, node, orig, 2))
                exec_nodes.append(node)
                now[0] += 700
            pop(cap)

            for it in range(iterations):
                iteration = push(sid(f"iteration {it}"))
                for phase in ("forward", "backward"):
                    ph = push(names[phase])
                    for layer in range(4):
                        lr = push(layer_names[layer])
                        for module in ("attention", "mlp", "norm"):
                            mr = push(names[module])
                            for op in ("op A", "op B"):
                                orr = push(names[op])
                                for leaf in ("launch 0", "launch 1"):
                                    lf = push(names[leaf])
                                    launch(api_launch, 2)
                                    pop(lf)
                                pop(orr)
                            pop(mr)
                        pop(lr)
                    pop(ph)
                gs = push(names["graph_step"])
                launch(api_graph, GRAPH_NODES, exec_nodes)
                pop(gs)
                pop(iteration)
                now[0] = max(now[0], min(free.values()))  # the host waits for the device now and then
            end_time = max(end_time, now[0], *free.values())

    db.executemany("INSERT INTO StringIds VALUES (?, ?)", [(i, s) for s, i in strings.items()])
    db.executemany("INSERT INTO HGTX_EVENTS VALUES (?,?,?,?,?,?,?,?,?,?,?)", sorted(hgtx, key=lambda r: r[0]))
    db.executemany("INSERT INTO HGGC_API VALUES (?,?,?,?,?,?,?,?)", sorted(api))
    db.executemany("INSERT INTO HGGC_GRAPH_NODE_EVENTS VALUES (?,?,?,?,?,?,?)", sorted(nodes))
    db.executemany("INSERT INTO HGGC_KERNEL VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", sorted(kern))
    db.executemany("INSERT INTO META_DATA VALUES (?, ?)", [
        ("format", "asysrep"), ("formatVersion", "1"), ("captureStart", "0"), ("captureEnd", str(end_time + 1000)),
        ("generator", f"bench/gen-hgtx-deep.py {kernels_wanted}")])
    db.commit()
    db.close()
    print(f"{out}: {len(kern)} kernels, {len(hgtx)} ranges, {len(api)} calls, {len(nodes)} graph nodes, "
          f"{iterations} iterations per thread")


if __name__ == "__main__":
    main()

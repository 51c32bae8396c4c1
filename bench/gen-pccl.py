#!/usr/bin/env python3
"""Writes the PCCL benchmark report (bench/pccl.sh; bench/README.md): DEVICES
ranks, one process, thread and PPU each, running COLLECTIVES AllReduces of
bf16 in a 64-rank communicator, one PCCL kernel per rank and collective
(64 x 100 000 = 6.4 M kernels by default).

Collective g runs at T = 100 us x g. On rank d:
  operator range  [T + o, T + o + 2000) "AllReduce, p:0, c:C, d:9, r:d, w:64,
                  h:00000000deadbeef, t:1, b:0x1000/0x2000", o = (97 d + 13 g) mod 5000
  hgLaunchKernel  [T + o + 100, T + o + 200), correlation id g + 1
  its kernel      [T + 10 us + skew, T + 45 us + jitter) on device d,
                  skew = (7919 g + 104729 d) mod 20000 (the late ranks vary),
                  jitter = (31 g + 17 d) mod 500
so the kernels of one collective overlap (one communication of 64) and
collectives never touch. C cycles through 1 Mi, 4 Mi, 16 Mi elements (three
pccl_op_sum rows). Deterministic; built with SQL recursive CTEs (SQLite does
the work), names through StringIds.
"""
import sqlite3
import sys


def main():
    if len(sys.argv) not in (2, 4):
        sys.exit("usage: gen-pccl.py OUT.asysrep [DEVICES COLLECTIVES]   (default 64 100000)")
    out = sys.argv[1]
    devices, collectives = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (64, 100000)
    db = sqlite3.connect(out)
    db.executescript("""
        PRAGMA journal_mode = OFF;
        PRAGMA synchronous = OFF;
        CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
        CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE HGTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, rangeId INTEGER,
          category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER,
          textId INTEGER, domainId INTEGER);
        CREATE TABLE HGGC_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
          correlationId INTEGER, nameId INTEGER, returnValue INTEGER, callchainId INTEGER);
        CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
          streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
          shortName INTEGER, mangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER,
          blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
          staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER, graphId INTEGER);
    """)
    counts = [1 << 20, 1 << 22, 1 << 24]
    strings = [(1, "hgLaunchKernel"), (2, "pcclKernel_AllReduce_RING_LL_Sum_bf16(pcclWorkElem)"),
               (3, "pcclKernel_AllReduce_RING_LL_Sum_bf16"), (4, "_Z37pcclKernel_AllReduce_RING_LL_Sum_bf1612pcclWorkElem")]
    # Operator texts: id 100 + 64 * (count index) + rank.
    for ci, c in enumerate(counts):
        for d in range(devices):
            strings.append((100 + devices * ci + d,
                            f"AllReduce, p:0, c:{c}, d:9, r:{d}, w:{devices}, h:00000000deadbeef, t:1, b:0x1000/0x2000"))
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", strings)
    db.executemany("INSERT INTO META_DATA VALUES (?, ?)", [
        ("format", "asysrep"), ("formatVersion", "1"), ("hostName", "bench"),
        ("generator", f"bench/gen-pccl.py {devices} {collectives}")])
    params = {"devices": devices, "collectives": collectives}
    grid = """
        WITH RECURSIVE g(g) AS (VALUES (0) UNION ALL SELECT g + 1 FROM g WHERE g + 1 < :collectives),
                       d(d) AS (VALUES (0) UNION ALL SELECT d + 1 FROM d WHERE d + 1 < :devices),
        p AS (SELECT g, d, 100000 * g AS t, (97 * d + 13 * g) % 5000 AS o,
                     (1000 + d) * 16777216 AS gpid, (1000 + d) * 16777216 + 1001 + d AS gtid FROM g, d)
    """
    db.execute(grid + """
        INSERT INTO HGTX_EVENTS SELECT t + o, t + o + 2000, 59, NULL, NULL, NULL, NULL, gtid, NULL,
                                       100 + :devices * (g % 3) + d, NULL FROM p ORDER BY g, o, d""", params)
    db.execute(grid + """
        INSERT INTO HGGC_API SELECT t + o + 100, t + o + 200, 1, gtid, g + 1, 1, 0, NULL FROM p ORDER BY g, o, d""",
               params)
    db.execute(grid + """
        INSERT INTO HGGC_KERNEL SELECT t + 10000 + (7919 * g + 104729 * d) % 20000, t + 45000 + (31 * g + 17 * d) % 500,
                                       d, 1, 13, g + 1, gpid, 2, 3, 4, 8, 1, 1, 512, 1, 1, 94, 0, 0, NULL, NULL
                                FROM p ORDER BY g, t + 10000 + (7919 * g + 104729 * d) % 20000, d""", params)
    db.commit()
    db.close()


if __name__ == "__main__":
    main()

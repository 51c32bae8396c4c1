#!/usr/bin/env bash
# Side-by-side timing of the device memory rules against hggc_ppu_kern_sum,
# on one generated report that holds both: EVENTS device memory allocations
# and releases (about half each) over CHAINS distinct call chains, and as
# many kernels. The rules run with 10 --callstack-group-config groups.
#   kern_sum : asys stats -r hggc_ppu_kern_sum REPORT
#   summary  : asys stats -r device_memory_usage_summary GROUPS REPORT
#   detail   : asys stats -r device_memory_usage_detail GROUPS REPORT
# Each runs REPEAT times as a whole process, interleaved with the others; the
# best wall time counts.
# Usage: bench/memory.sh [EVENTS] [CHAINS] [REPEAT]   (needs build/native/asys)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
events=${1:-5000000}
chains=${2:-20000}
repeat=${3:-3}
allocs=$((events / 2))
mkdir -p bench/out
report=bench/out/memory-$events-$chains.asysrep
if [ ! -f "$report" ]; then
  echo "bench: generating $report"
  start=$(date +%s.%N)
  # Strings: 1..100 kernel names, 1001..6000 symbols, 7001..7200 modules.
  # Chain c (1..CHAINS) has 8 + c % 9 frames; frame d's symbol and module are
  # drawn from c and d, so every chain is distinct. Allocation k (time 20k)
  # on process k % 2, device (k / 2) % 4, address (k % 200000) * 4096, chain
  # k % CHAINS + 1; it is released at 20k + 1010 (after 50 more allocations),
  # except every 97th. Kernel k: 100k .. 100k + 50 + k % 37, name k % 100.
  sqlite3 "$report" <<SQL
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format','asysrep'), ('formatVersion','1'), ('captureStart','0'),
  ('generator','bench/memory.sh');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99)
INSERT INTO StringIds SELECT i + 1, 'void bench::kernel_' || i || '<float, 128>(float const*, float*, int)' FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999)
INSERT INTO StringIds SELECT 1001 + i, CASE i % 5
  WHEN 0 THEN 'at::native::op_' || i || '(at::Tensor const&, c10::Scalar const&)'
  WHEN 1 THEN 'c10::ppu::PPUCachingAllocator::malloc_' || i || '(void**, int, unsigned long)'
  WHEN 2 THEN 'forward_' || i
  WHEN 3 THEN 'acblas::Workspace::allocate_' || i || '(unsigned long)'
  ELSE 'pccl::Buffers::alloc_' || i || '(unsigned long)' END FROM n;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 199)
INSERT INTO StringIds SELECT 7001 + i, CASE i % 4
  WHEN 0 THEN '/usr/lib/libmod' || i || '.so'
  WHEN 1 THEN '/opt/torch/lib/libtorch_part' || i || '.so'
  WHEN 2 THEN '/opt/app/model/layer' || i || '.py'
  ELSE '/opt/torch/nn/modules/mod' || i || '.py' END FROM n;
CREATE TABLE CALLCHAINS (id INTEGER, stackDepth INTEGER, symbol INTEGER, module INTEGER, unresolved INTEGER);
WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM c WHERE id < $chains),
  d(depth) AS (SELECT 0 UNION ALL SELECT depth + 1 FROM d WHERE depth < 16)
INSERT INTO CALLCHAINS SELECT id, depth, 1001 + (id * 7 + depth * 131) % 5000, 7001 + (id + depth * 17) % 200, 0
  FROM c, d WHERE depth < 8 + id % 9 ORDER BY id, depth;
CREATE TABLE PPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, globalTid INTEGER, deviceId INTEGER,
  contextId INTEGER, eventId INTEGER, address INTEGER, bytes INTEGER, memKind INTEGER,
  memoryOperationType INTEGER, accessFlags INTEGER, correlationId INTEGER, callchainId INTEGER);
WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < $allocs - 1),
  e(t, k, op) AS (SELECT 20 * k, k, 0 FROM n UNION ALL SELECT 20 * k + 1010, k, 1 FROM n WHERE k % 97 <> 0)
INSERT INTO PPU_MEMORY_USAGE_EVENTS SELECT t, (100 + k % 2) << 24, ((100 + k % 2) << 24) + 7, (k / 2) % 4, 1,
  row_number() OVER (ORDER BY t, op), (k % 200000) * 4096, 4096 * (1 + k % 64), 2, op, 0, NULL,
  CASE op WHEN 0 THEN k % $chains + 1 END FROM e ORDER BY t, op;
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER, mangledName INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,
  registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER,
  graphId INTEGER);
WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < $events - 1)
INSERT INTO HGGC_KERNEL SELECT 100 * k, 100 * k + 50 + k % 37, k % 4, 1, 7 + k % 3, k, (100 + k % 2) << 24,
  1 + k % 100, 1 + k % 100, 1 + k % 100, 128, 1, 1, 256, 1, 1, 64, 0, 0, NULL, NULL FROM n;
SQL
  echo "bench: generated in $(echo "$(date +%s.%N) - $start" | bc) s"
fi
groups=(
  --callstack-group-config 'acompute=libmod1[0-9]\.so'
  --callstack-group-config 'acompute=acblas::Workspace'
  --callstack-group-config 'pccl=pccl::Buffers::alloc_1[0-9]{2}\('
  --callstack-group-config 'torch=libtorch_part/CachingAllocator'
  --callstack-group-config 'nn=torch\/nn\/modules/at::native::op_'
  --callstack-group-config 'layers=model\/layer[0-9]+\.py/forward_/libmod'
  --callstack-group-config 'deep=libmod5/libmod9/libmod13'
  --callstack-group-config 'ops=^at::native::op_[0-9]*7\('
  --callstack-group-config 'python=\.py$'
  --callstack-group-config 'none=no_such_frame'
)
rows=$(sqlite3 "$report" "SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS")
kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")

# Wall time of one run of "$@", in seconds.
# The three side by side, interleaved, so that they see the same machine load
# (the best of REPEAT rounds counts).
t_kern=999999 t_sum=999999 t_det=999999
for _ in $(seq "$repeat"); do
  # best_timed (bench/lib.sh): a failed run or an empty table stops the bench.
  t=$(best_timed 1 build/native/asys stats -r hggc_ppu_kern_sum "$report") || exit 1
  t_kern=$(min_time "${t%% *}" "$t_kern")
  t=$(best_timed 1 build/native/asys stats -r device_memory_usage_summary "${groups[@]}" "$report") || exit 1
  t_sum=$(min_time "${t%% *}" "$t_sum")
  t=$(best_timed 1 build/native/asys stats -r device_memory_usage_detail "${groups[@]}" "$report") || exit 1
  t_det=$(min_time "${t%% *}" "$t_det")
done
{
  echo "| memory events | chains | kernels | hggc_ppu_kern_sum (s) | summary (s) | detail (s) | summary / kern_sum | detail / kern_sum |"
  echo "|---|---|---|---|---|---|---|---|"
  echo "| $rows | $chains | $kernels | $t_kern | $t_sum | $t_det | $(ratio "$t_sum" "$t_kern") | $(ratio "$t_det" "$t_kern") |"
} | tee bench/out/memory-results.md

#!/usr/bin/env bash
# Times `asys import` of a generated Kineto trace (bench/gen-kineto.py, about
# SIZE_MB megabytes of JSON; 1000 by default) and of its gzip, with the peak
# resident memory (/usr/bin/time -f '%e %M'). Best of REPEAT runs; the input
# is read once first so that every timed run finds it in the page cache.
# Targets: at least 200 MB/s of JSON, peak memory below twice the JSON size.
# Usage: bench/kineto-import.sh [SIZE_MB] [REPEAT]   (needs build/native/asys)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
size_mb=${1:-1000}
repeat=${2:-3}
mkdir -p bench/out
json=bench/out/kineto-${size_mb}mb.json
if [ ! -f "$json" ]; then
  echo "bench: generating $json"
  python3 bench/gen-kineto.py "$json" "$size_mb"
fi
if [ ! -f "$json.gz" ] || [ "$json" -nt "$json.gz" ]; then
  echo "bench: compressing $json.gz"
  gzip -1 -k -f "$json"
fi
out=bench/out/kineto-import.asysrep
bytes=$(stat -c %s "$json")
cat "$json" "$json.gz" >/dev/null

run() {  # "seconds peak_kib" of the best of REPEAT imports of $1
  BENCH_WRITES=$out best_timed "$repeat" build/native/asys import "$1" -o "$out"
}

timing=$(run "$json") || exit 1; read -r t_json m_json <<<"$timing"
kernels=$(sqlite3 "$out" "SELECT count(*) FROM HGGC_KERNEL")
rows=$(sqlite3 "$out" "SELECT (SELECT count(*) FROM HGGC_KERNEL) + (SELECT count(*) FROM HGGC_API) +
  (SELECT count(*) FROM HGTX_EVENTS) + (SELECT count(*) FROM HGGC_MEMCPY) + (SELECT count(*) FROM HGGC_MEMSET) +
  (SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS)")
report_bytes=$(stat -c %s "$out")
timing=$(run "$json.gz") || exit 1; read -r t_gz m_gz <<<"$timing"

mbps() { echo "scale=0; $bytes / 1000000 / $1" | bc; }
{
  echo "| input | JSON bytes | rows written | kernels | report bytes | time (s) | JSON MB/s | peak RSS (MiB) | peak / JSON size |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for v in "json $t_json $m_json" "json.gz $t_gz $m_gz"; do
    set -- $v
    echo "| $1 | $bytes | $rows | $kernels | $report_bytes | $2 | $(mbps "$2") | $(( $3 / 1024 )) | $(echo "scale=3; $3 * 1024 / $bytes" | bc) |"
  done
} | tee bench/out/kineto-import.md

#!/usr/bin/env bash
# Times `asys import` of a generated Kineto trace (bench/gen-kineto.py, about
# SIZE_MB megabytes of JSON; 1000 by default) and of its gzip, with the peak
# resident memory (/usr/bin/time -f '%e %M'). Best of REPEAT runs; the input
# is read once first so that every timed run finds it in the page cache.
# Targets: at least 200 MB/s of JSON, peak memory below twice the JSON size.
# Usage: bench/kineto-import.sh [SIZE_MB] [REPEAT]   (needs build/native/asys)
set -euo pipefail
cd "$(dirname "$0")/.."
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

run() {  # best "seconds peak_kib" of REPEAT imports of $1
  local best_t=999999 best_m=0 t m
  for _ in $(seq "$repeat"); do
    rm -f "$out"
    read -r t m < <( { /usr/bin/time -f '%e %M' build/native/asys import "$1" -o "$out" >/dev/null; } 2>&1 | tail -1)
    if [ "$(echo "$t < $best_t" | bc)" = 1 ]; then best_t=$t; best_m=$m; fi
  done
  echo "$best_t $best_m"
}

read -r t_json m_json < <(run "$json")
kernels=$(sqlite3 "$out" "SELECT count(*) FROM HGGC_KERNEL")
rows=$(sqlite3 "$out" "SELECT (SELECT count(*) FROM HGGC_KERNEL) + (SELECT count(*) FROM HGGC_API) +
  (SELECT count(*) FROM HGTX_EVENTS) + (SELECT count(*) FROM HGGC_MEMCPY) + (SELECT count(*) FROM HGGC_MEMSET) +
  (SELECT count(*) FROM PPU_MEMORY_USAGE_EVENTS)")
report_bytes=$(stat -c %s "$out")
read -r t_gz m_gz < <(run "$json.gz")

mbps() { echo "scale=0; $bytes / 1000000 / $1" | bc; }
{
  echo "| input | JSON bytes | rows written | kernels | report bytes | time (s) | JSON MB/s | peak RSS (MiB) | peak / JSON size |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for v in "json $t_json $m_json" "json.gz $t_gz $m_gz"; do
    set -- $v
    echo "| $1 | $bytes | $rows | $kernels | $report_bytes | $2 | $(mbps "$2") | $(( $3 / 1024 )) | $(echo "scale=3; $3 * 1024 / $bytes" | bc) |"
  done
} | tee bench/out/kineto-import.md

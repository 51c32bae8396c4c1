#!/usr/bin/env bash
# Side-by-side timing of hggc_ppu_kern_sum on one large generated report:
#   native  : build/native/asys stats -r hggc_ppu_kern_sum REPORT
#   sql     : the same aggregation as a plain GROUP BY in the sqlite3 shell
#             (count, sum, min, max, avg; SQLite has no median or stddev, so
#             the baseline does strictly less work than the rule)
#   wasm    : the WebAssembly engine under Node (open + run + render CSV)
# Each is run REPEAT times as a whole process; the best wall time counts.
# Usage: bench/run.sh [SCALE] [REPEAT]   (needs a built tree: npm run build)
set -euo pipefail
cd "$(dirname "$0")/.."
scale=${1:-250}
repeat=${2:-3}
mkdir -p bench/out
report=bench/out/bench-scale$scale.asysrep
if [ ! -f "$report" ]; then
  echo "bench: generating $report (scale $scale)"
  start=$(date +%s.%N)
  build/native/asys gen --seed 11 --scale "$scale" -o "$report"
  echo "bench: generated in $(echo "$(date +%s.%N) - $start" | bc) s"
fi
kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")
size=$(stat -c %s "$report")

best() {  # best wall time in seconds of REPEAT runs of "$@"
  local best=999999 t s
  for _ in $(seq "$repeat"); do
    s=$(date +%s.%N)
    "$@" >/dev/null
    t=$(echo "$(date +%s.%N) - $s" | bc)
    best=$(echo "if ($t < $best) $t else $best" | bc)
  done
  echo "$best"
}

sql="SELECT s.value, count(*), sum(k.end - k.start), min(k.end - k.start), max(k.end - k.start),
            CAST(avg(k.end - k.start) AS INTEGER)
     FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName
     GROUP BY k.demangledName ORDER BY 3 DESC"

t_native=$(best build/native/asys stats -r hggc_ppu_kern_sum "$report")
t_sql=$(best sqlite3 -csv "$report" "$sql")
t_wasm=$(best node bench/wasm-run.mjs "$report" hggc_ppu_kern_sum)

ratio() { echo "scale=2; $1 / $2" | bc; }
{
  echo "| report | kernels | bytes | native (s) | sqlite3 GROUP BY (s) | wasm under node (s) | sql / native | wasm / native |"
  echo "|---|---|---|---|---|---|---|---|"
  echo "| scale $scale | $kernels | $size | $t_native | $t_sql | $t_wasm | $(ratio "$t_sql" "$t_native") | $(ratio "$t_wasm" "$t_native") |"
} | tee bench/out/results.md

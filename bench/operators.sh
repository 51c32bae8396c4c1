#!/usr/bin/env bash
# Side-by-side timing of the operator rules against hggc_ppu_kern_sum on one
# demo-like report (asys gen --scale SCALE: 2500 gives 9.84 M kernels, 10.8 M
# HGGC API calls and 9.2 M HGTX rows, ~2 GB; kept in bench/out/ until you
# delete it):
#   kern_sum  : asys stats -r hggc_ppu_kern_sum REPORT     (the reference)
#   op_sum    : asys stats -r ppu_op_sum REPORT
#   breakdown : asys stats -r ppu_op_breakdown REPORT
#   proj_sum  : asys stats -r hgtx_ppu_proj_sum REPORT  (the same three tables and
#               association, no operators: what reading and associating cost)
# Each runs REPEAT times as a whole process, interleaved with the others so
# that all see the same machine load; the best wall time and that run's peak
# resident memory count (/usr/bin/time).
# Usage: bench/operators.sh [SCALE] [REPEAT]   (needs build/native/asys)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
scale=${1:-2500}
repeat=${2:-3}
mkdir -p bench/out
report=bench/out/demo-$scale.asysrep
if [ ! -f "$report" ]; then
  echo "bench: generating $report"
  build/native/asys gen --seed 7 --scale "$scale" --profile base -o "$report"
fi
kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")
ranges=$(sqlite3 "$report" "SELECT count(*) FROM HGTX_EVENTS")
calls=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_API")

declare -A best mem
rules=(hggc_ppu_kern_sum ppu_op_sum ppu_op_breakdown hgtx_ppu_proj_sum)
for r in "${rules[@]}"; do best[$r]=999999; mem[$r]=0; done
for _ in $(seq "$repeat"); do
  for r in "${rules[@]}"; do
    timing=$(best_timed 1 build/native/asys stats -r "$r" "$report"); read -r t m <<<"$timing"
    if (( $(echo "$t < ${best[$r]}" | bc) )); then best[$r]=$t; mem[$r]=$m; fi
  done
done
ref=${best[hggc_ppu_kern_sum]}
{
  echo "| report | kernels | HGTX rows | API calls | hggc_ppu_kern_sum (s) | ppu_op_sum (s) | ppu_op_breakdown (s) | hgtx_ppu_proj_sum (s) | op_sum / ref | breakdown / ref | proj_sum / ref | peak MiB (ref / op_sum / breakdown) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  echo "| $(basename "$report") | $kernels | $ranges | $calls | $ref | ${best[ppu_op_sum]} | ${best[ppu_op_breakdown]} |" \
       "${best[hgtx_ppu_proj_sum]} | $(ratio "${best[ppu_op_sum]}" "$ref") | $(ratio "${best[ppu_op_breakdown]}" "$ref") |" \
       "$(ratio "${best[hgtx_ppu_proj_sum]}" "$ref") |" \
       "$((mem[hggc_ppu_kern_sum] / 1024)) / $((mem[ppu_op_sum] / 1024)) / $((mem[ppu_op_breakdown] / 1024)) |"
} | tee bench/out/operators.md

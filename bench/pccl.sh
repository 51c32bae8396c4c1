#!/usr/bin/env bash
# PCCL rules benchmark (issue 9): on one report of DEVICES ranks running
# COLLECTIVES AllReduces (bench/gen-pccl.py; 64 x 100 000 = 6.4 M kernels,
# as many operator ranges and launch calls), times side by side, best of
# REPEAT whole-process runs each, with the peak resident memory of the best:
#   hggc_ppu_kern_sum (the reference), pccl_desync_trace, pccl_desync_summary,
#   pccl_op_sum
# and a bare sqlite3 scan of the kernel columns the desync rules read, to show
# what reading the table costs at the least.
# Usage: bench/pccl.sh [DEVICES] [COLLECTIVES] [REPEAT]   (needs npm run build)
set -euo pipefail
cd "$(dirname "$0")/.."
devices=${1:-64}
collectives=${2:-100000}
repeat=${3:-3}
mkdir -p bench/out
report=bench/out/pccl-$devices-$collectives.asysrep
if [ ! -f "$report" ]; then
  echo "bench: generating $report"
  python3 bench/gen-pccl.py "$report" "$devices" "$collectives"
fi
asys=build/native/asys

source bench/lib.sh

kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")
timing=$(best_timed "$repeat" $asys stats -r hggc_ppu_kern_sum "$report"); read -r t_ref m_ref <<<"$timing"
timing=$(best_timed "$repeat" $asys stats -r pccl_desync_trace "$report"); read -r t_trace m_trace <<<"$timing"
timing=$(best_timed "$repeat" $asys stats -r pccl_desync_summary "$report"); read -r t_sum m_sum <<<"$timing"
timing=$(best_timed "$repeat" $asys stats -r pccl_op_sum "$report"); read -r t_op m_op <<<"$timing"
timing=$(best_timed "$repeat" sqlite3 "$report" \
  "SELECT total(start)+total(end)+total(deviceId)+total(globalPid)+total(shortName)+total(demangledName) FROM HGGC_KERNEL")
read -r t_scan _ <<<"$timing"
{
  echo "| report | kernels | hggc_ppu_kern_sum (s) | pccl_desync_trace (s) | pccl_desync_summary (s) | pccl_op_sum (s) | trace / ref | summary / ref | op / ref | peak MiB (ref / trace / summary / op) | sqlite3 kernel scan (s) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  echo "| $(basename "$report") | $kernels | $t_ref | $t_trace | $t_sum | $t_op | $(ratio "$t_trace" "$t_ref") | $(ratio "$t_sum" "$t_ref") | $(ratio "$t_op" "$t_ref") | $((m_ref / 1024)) / $((m_trace / 1024)) / $((m_sum / 1024)) / $((m_op / 1024)) | $t_scan |"
} | tee bench/out/pccl.md

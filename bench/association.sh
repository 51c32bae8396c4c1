#!/usr/bin/env bash
# HGTX association benchmark (issue 7): on one report of about KERNELS
# kernels and as many push/pop ranges on four threads, nested six deep, with
# graph launches (bench/gen-hgtx-deep.py), times side by side, best of
# REPEAT whole-process runs each:
#   hggc_ppu_kern_sum (the reference), hgtx_kern_sum, hgtx_ppu_proj_sum,
#   asys analyze -r ppu_time_util
# and, to show what reading the tables costs at the least, a bare sqlite3
# scan of the columns each rule reads (kernels alone; kernels + HGTX + API).
# Usage: bench/association.sh [KERNELS] [REPEAT]   (needs npm run build)
set -euo pipefail
cd "$(dirname "$0")/.."
kernels_wanted=${1:-1000000}
repeat=${2:-3}
mkdir -p bench/out
report=bench/out/hgtx-deep-$kernels_wanted.asysrep
if [ ! -f "$report" ]; then
  echo "bench: generating $report"
  python3 bench/gen-hgtx-deep.py "$report" "$kernels_wanted"
fi
asys=build/native/asys

source bench/lib.sh

kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")
ranges=$(sqlite3 "$report" "SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 59")
t_ref=$(best $asys stats -r hggc_ppu_kern_sum "$report")
t_kern=$(best $asys stats -r hgtx_kern_sum "$report")
t_proj=$(best $asys stats -r hgtx_ppu_proj_sum "$report")
t_util=$(best $asys analyze -r ppu_time_util "$report")
scan_kernels="SELECT total(start)+total(end)+total(deviceId)+total(shortName)+total(demangledName)+total(globalPid) FROM HGGC_KERNEL"
scan_all="SELECT (SELECT total(start)+total(end)+total(deviceId)+total(globalPid)+total(correlationId)+total(graphNodeId)
                 +total(demangledName)+total(shortName)+total(mangledName) FROM HGGC_KERNEL)
          + (SELECT total(start)+total(end)+total(eventType)+total(rangeId)+total(globalTid)+total(endGlobalTid)
                 +total(domainId)+total(textId)+total(length(text)) FROM HGTX_EVENTS)
          + (SELECT total(start)+total(end)+total(globalTid)+total(correlationId)+total(nameId)+total(returnValue)
                 FROM HGGC_API)"
t_scan1=$(best sqlite3 "$report" "$scan_kernels")
t_scan3=$(best sqlite3 "$report" "$scan_all")
{
  echo "| report | kernels | ranges | hggc_ppu_kern_sum (s) | hgtx_kern_sum (s) | hgtx_ppu_proj_sum (s) | ppu_time_util (s) | kern / ref | proj / ref | util / ref | scan 1 table (s) | scan 3 tables (s) | scan ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  echo "| $(basename "$report") | $kernels | $ranges | $t_ref | $t_kern | $t_proj | $t_util | $(ratio "$t_kern" "$t_ref") | $(ratio "$t_proj" "$t_ref") | $(ratio "$t_util" "$t_ref") | $t_scan1 | $t_scan3 | $(ratio "$t_scan3" "$t_scan1") |"
} | tee bench/out/association.md

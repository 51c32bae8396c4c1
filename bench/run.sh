#!/usr/bin/env bash
# Every figure of bench/README.md's "Big reports" section, side by side in
# one run (needs a built tree: npm run build):
#   native   build/native/asys stats -r hggc_ppu_kern_sum REPORT (wall, peak RSS)
#   scan     the bare SQLite aggregate scan of the columns it reads, in the
#            sqlite3 shell (the issue's query; its sum() overflows int64 on
#            these timestamps, so sqlite3 reports "integer overflow" after
#            the scan: the error is expected, the time is the scan's)
#   wasm     the WebAssembly engine under Node: node bench/wasm-run.mjs
#   3 rules  asys stats -r hggc_ppu_kern_sum,hggc_ppu_kern_gb_sum,hgtx_sum
#            against the three run one by one
#   browser  the viewer in headless Chromium: drop -> summary, drop -> table,
#            the tab's peak memory, the engine's FileReaderSync reads
#            (node bench/browser-run.mjs)
#   ceiling  the WebAssembly engine's memory per kernel for each kernel rule
#            (node bench/ceiling.mjs), between the first and last report
# and last, that a 3 GB report opens in the viewer and answers
# hggc_ppu_kern_sum. Reports are generated with asys gen --seed 11 into
# bench/out/ (git-ignored) and kept for the next run.
# Usage: bench/run.sh [SCALE...]      default: 250 2500 (1 M and 9.8 M kernels)
#   REPEAT=N      best of N whole-process runs, native, scan and wasm taking
#                 turns (default 3; the browser: 2)
#   BIG_SCALE=N   the "3 GB" report's scale (default 4000: 3.08 GB); 0 skips it
set -euo pipefail
cd "$(dirname "$0")/.."
scales=("$@")
[ ${#scales[@]} -gt 0 ] || scales=(250 2500)
repeat=${REPEAT:-3}
browser_repeat=$(( repeat < 2 ? repeat : 2 ))
big_scale=${BIG_SCALE:-4000}
source bench/lib.sh
mkdir -p bench/out
for tool in build/native/asys build/wasm/asys_engine_node.cjs build/web/index.html; do
  [ -e "$tool" ] || { echo "bench: $tool missing: run npm run build first" >&2; exit 1; }
done

report_of() { echo "bench/out/bench-scale$1.asysrep"; }
ensure_report() {
  local report; report=$(report_of "$1")
  if [ ! -f "$report" ]; then
    echo "bench: generating $report (scale $1)" >&2
    build/native/asys gen --seed 11 --scale "$1" -o "$report"
  fi
}


# total(), not sum(): sum() of these timestamps overflows int64 and sqlite3
# exits non-zero after the scan; total() adds in floating point, the same scan.
scan_sql="SELECT total(start)+total(end)+total(deviceId)+total(shortName)+total(demangledName)+total(globalPid) FROM HGGC_KERNEL"

out=bench/out/results.md
{
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(lsb_release -ds 2>/dev/null || echo Linux); load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%Y-%m-%d)"
  echo
  echo "| report | kernels | bytes | native (s) | bare scan (s) | native / scan | wasm node (s) | wasm / native | native peak (MiB) | peak / size |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$out"
rules3="hggc_ppu_kern_sum,hggc_ppu_kern_gb_sum,hgtx_sum"
multi=()
browser=()
for scale in "${scales[@]}"; do
  ensure_report "$scale"
  report=$(report_of "$scale")
  kernels=$(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL")
  size=$(stat -c %s "$report")
  # Interleaved, so that other work on the machine weighs on all three alike.
  t_native=999999 t_scan=999999 t_wasm=999999 m_native=0
  for _ in $(seq "$repeat"); do
    timing=$(best_timed 1 build/native/asys stats -r hggc_ppu_kern_sum "$report"); read -r t m <<<"$timing"
    if (( $(echo "$t < $t_native" | bc) )); then t_native=$t; m_native=$m; fi
    timing=$(best_timed 1 sqlite3 "$report" "$scan_sql"); read -r t _ <<<"$timing"
    if (( $(echo "$t < $t_scan" | bc) )); then t_scan=$t; fi
    timing=$(best_timed 1 node bench/wasm-run.mjs "$report" hggc_ppu_kern_sum); read -r t _ <<<"$timing"
    if (( $(echo "$t < $t_wasm" | bc) )); then t_wasm=$t; fi
  done
  echo "| scale $scale | $kernels | $size | $t_native | $t_scan | $(ratio "$t_native" "$t_scan") | $t_wasm | $(ratio "$t_wasm" "$t_native") | $((m_native / 1024)) | $(echo "scale=3; $m_native * 1024 / $size" | bc | sed 's/^\./0./') |" >> "$out"

  # Three rules in one call against one by one, taking turns too.
  declare -A t_rule=([all]=999999)
  for r in ${rules3//,/ }; do t_rule[$r]=999999; done
  for _ in $(seq "$repeat"); do
    for r in all ${rules3//,/ }; do
      timing=$(best_timed 1 build/native/asys stats -r "$([ "$r" = all ] && echo "$rules3" || echo "$r")" "$report"); read -r t _ <<<"$timing"
      if (( $(echo "$t < ${t_rule[$r]}" | bc) )); then t_rule[$r]=$t; fi
    done
  done
  t_all=${t_rule[all]}
  sum=0
  each=""
  for r in ${rules3//,/ }; do
    sum=$(echo "$sum + ${t_rule[$r]}" | bc)
    each+=" ${t_rule[$r]} |"
  done
  multi+=("| scale $scale |$each $sum | $t_all | $(echo "$sum - $t_all" | bc | sed 's/^\./0./') | $(echo "2 * $t_scan" | bc | sed 's/^\./0./') |")

  # The browser, against the native time of this run.
  best_line=""
  for _ in $(seq "$browser_repeat"); do
    line=$(node bench/browser-run.mjs "$report")
    if [ -z "$best_line" ] || (( $(echo "$(jq .dropToTable <<<"$line") < $(jq .dropToTable <<<"$best_line")" | bc) )); then best_line=$line; fi
  done
  t_table=$(jq .dropToTable <<<"$best_line")
  browser+=("| scale $scale | $(jq .dropToSummary <<<"$best_line") | $t_table | $t_native | $(ratio "$t_table" "$t_native") | $(jq .peakMiB <<<"$best_line") | $(jq .fileReads <<<"$best_line") | $(jq .fileReadMiB <<<"$best_line") | $(jq .engineReadSeconds <<<"$best_line") |")
done

{
  echo
  echo "| report | ${rules3//,/ (s) | } (s) | one by one (s) | in one call (s) | saved (s) | 2 x bare scan (s) |"
  echo "|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${multi[@]}"
  echo
  echo "| report | drop -> summary (s) | drop -> table (s) | native (s) | browser / native | tab peak (MiB) | file reads | read (MiB) | engine in FileReaderSync (s) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${browser[@]}"
} >> "$out"

# The viewer's ceiling: engine memory per kernel, per rule, between the
# smallest and the largest report of this run.
if [ ${#scales[@]} -ge 2 ]; then
  { echo; node bench/ceiling.mjs "$(report_of "${scales[0]}")" "$(report_of "${scales[-1]}")"; } >> "$out"
fi

if [ "$big_scale" != 0 ]; then
  ensure_report "$big_scale"
  report=$(report_of "$big_scale")
  line=$(node bench/browser-run.mjs "$report")
  {
    echo
    echo "| report | bytes | kernels | opens | drop -> table (s) | rows | tab peak (MiB) |"
    echo "|---|---|---|---|---|---|---|"
    echo "| scale $big_scale | $(stat -c %s "$report") | $(sqlite3 "$report" "SELECT count(*) FROM HGGC_KERNEL") | yes | $(jq .dropToTable <<<"$line") | $(jq .rows <<<"$line") | $(jq .peakMiB <<<"$line") |"
  } >> "$out"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
cat "$out"

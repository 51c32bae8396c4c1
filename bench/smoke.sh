#!/usr/bin/env bash
# A smoke run of the bench scripts on tiny reports, for npm test: each must
# run and produce its table (or, for wasm-run, the CLI's bytes). No timing is
# asserted; a failed run fails the smoke, as it fails the bench.
set -euo pipefail
cd "$(dirname "$0")/.."
asys=build/native/asys
bash bench/rule-peaks.sh 1 >/dev/null  # generates bench/out/scale-1.asysrep
small=bench/out/scale-1.asysrep large=bench/out/scale-2.asysrep
[ -f "$large" ] || "$asys" gen --seed 11 --scale 2 -o "$large" >/dev/null
cmp <(node bench/wasm-run.mjs "$small" hggc_ppu_trace) <("$asys" stats -r hggc_ppu_trace "$small")
rows=$(node bench/ceiling.mjs "$small" "$large" | grep -c '^| hggc_')
[ "$rows" = 5 ] || { echo "bench smoke: ceiling.mjs printed $rows rule rows, expected 5" >&2; exit 1; }
# Every rule's row: 39 of asys stats and 2 of asys analyze.
bash bench/rules.sh "$small" 1 >/dev/null
rows=$(grep '^| ' bench/out/rules-scale-1.md | grep -vc '^| rule |\|^|---')
[ "$rows" = 41 ] || { echo "bench smoke: rules.sh printed $rows rule rows, expected 41" >&2; exit 1; }
# The native benches on tiny reports (a few seconds each): each prints its
# one table row.
smoke_row() {  # PATTERN SCRIPT ARGS...: the script's table row must be there
  local pattern=$1 out; shift
  out=$(bash "$@") || { echo "bench smoke: $* failed" >&2; exit 1; }
  grep -q "$pattern" <<<"$out" || { echo "bench smoke: $* printed no table row ($pattern): $out" >&2; exit 1; }
}
smoke_row '^| 1 | [0-9]* | [0-9.]* | [0-9.]* | [0-9.-]* |$' bench/compare.sh 1 1
smoke_row '^| demo-1.asysrep | [0-9]' bench/operators.sh 1 1
smoke_row '^| pccl-4-100.asysrep | 400 |' bench/pccl.sh 4 100 1
smoke_row '^| hgtx-deep-2000.asysrep | [0-9]' bench/association.sh 2000 1
smoke_row '^| [0-9]* | 50 | 2000 | [0-9.]* |' bench/memory.sh 2000 50 1
rm -rf bench/out/fleet-1
RANKS=2 REPEAT=1 bash bench/fleet.sh 1 >/dev/null
# Each size's row with its timed wall and the --verbose run's rounds, client CPU and phases.
rows=$(grep -cE '^\| [12] \| [0-9.]+ \| [0-9.]+ \| [0-9., ]+ \| [0-9]+ \| [0-9.]+ \| [0-9.]+ / [0-9.]+ \| [0-9]+ \|' bench/out/fleet-1.md)
[ "$rows" = 2 ] || { echo "bench smoke: fleet.sh printed $rows rows, expected 2" >&2; exit 1; }
grep -qE '^native asys stats .*: one at a time [0-9.]+ s, two at a time [0-9.]+ s, speed-up [0-9.]+$' bench/out/fleet-1.md ||
  { echo "bench smoke: fleet.sh printed no native comparison" >&2; exit 1; }
# The WebAssembly engine's timeline and reading benches under Node, and the
# native timeline benches (built beside the CLI): each prints its figures.
smoke_out() {  # PATTERN COMMAND...: the command's output must match
  local pattern=$1 out; shift
  out=$("$@") || { echo "bench smoke: $* failed" >&2; exit 1; }
  grep -q -- "$pattern" <<<"$out" || { echo "bench smoke: $* printed no figures ($pattern): $out" >&2; exit 1; }
}
smoke_out '"windows":\["1/1: [0-9.]* ms' node bench/timeline-run.mjs "$small" 1
smoke_out 'rows; open [0-9.]* ms' node bench/events-view-run.mjs "$small"
smoke_out '"mode":"base",.*"rows":[1-9]' node bench/kernel-groups-run.mjs "$small" base
smoke_out '"mode":"range",.*"rows":[1-9]' node bench/kernel-groups-run.mjs "$small" range
smoke_out '"graphCpuMs":[0-9]*,"graphRows":[1-9]' node bench/graph-rows-run.mjs "$small"
smoke_out '"reads":[1-9][0-9]*,"readBytes":[1-9]' node bench/wasm-reads.mjs "$small" hggc_ppu_kern_sum
smoke_out '"rule":"timeline","bytes":[0-9]*,"reads":[1-9][0-9]*,"readBytes":[1-9]' node bench/wasm-reads.mjs "$small" timeline
smoke_out ' hggc_ppu_kern_sum 1 wasm [0-9.]* [0-9.]* [0-9]* load=[0-9.]* same$' \
  env VARIANTS="native wasm" bash bench/wasm-sbs.sh "$small" 1 hggc_ppu_kern_sum
smoke_out '"events": [1-9][0-9]*, ' build/native/asys_timeline_bench "$small"
smoke_out '"mode": "base", .*"rows": [1-9]' build/native/asys_kernel_groups_bench "$small" base
smoke_row '^| json.gz | [0-9]* | [0-9]* | [0-9]* | [0-9]* | [0-9.]* | ' bench/kineto-import.sh 1 1
if [ -d ../shared/data/real ]; then smoke_row '^| .*\.json\.gz | [0-9]' bench/import-real.sh; fi
# The browser benches on the built viewer (npm test builds it first): a
# trace dropped, sorted and scrolled; two rounds of the soak.
out=$(SORT_COLUMN=Duration SCROLL_ROW=100 node bench/browser-run.mjs "$small" hggc_ppu_trace)
grep -q '"dropToTable":[0-9]' <<<"$out" || { echo "bench smoke: browser-run.mjs printed no table time: $out" >&2; exit 1; }
grep -q '"sortSeconds":[0-9]' <<<"$out" || { echo "bench smoke: browser-run.mjs printed no sort time: $out" >&2; exit 1; }
out=$(node bench/browser-compare.mjs "$small" "$large" ppu_kernel_summary_compare)
cli=$(("$("$asys" stats -r ppu_kernel_summary_compare "$small" "$large" | wc -l)" - 1))
grep -q "\"rows\":$cli," <<<"$out" || { echo "bench smoke: browser-compare.mjs did not show the CLI's $cli rows: $out" >&2; exit 1; }
# Every rule in the browser, three of them here: a trace, a compare, an
# analyze rule, each against the CLI's rows.
RULES="hggc_api_trace ppu_kernel_summary_compare ppu_gaps" bash bench/browser-rules.sh "$small" "$large" >/dev/null
out=$(node bench/timeline-frames.mjs "$small" 4)
grep -q '"frameMs":{.*"errors":\[\]' <<<"$out" || { echo "bench smoke: timeline-frames.mjs printed no frame times: $out" >&2; exit 1; }
out=$(node bench/browser-soak.mjs "$small" 2)
grep -q '"rounds":2' <<<"$out" || { echo "bench smoke: browser-soak.mjs did not run two rounds: $out" >&2; exit 1; }
echo "bench smoke: rule-peaks.sh, wasm-run.mjs, ceiling.mjs, rules.sh, compare.sh, operators.sh, pccl.sh, association.sh, memory.sh, fleet.sh, timeline-run.mjs, events-view-run.mjs, kernel-groups-run.mjs, graph-rows-run.mjs, wasm-reads.mjs, wasm-sbs.sh, asys_timeline_bench, asys_kernel_groups_bench, kineto-import.sh, import-real.sh (with ../shared), browser-run.mjs, browser-compare.mjs, browser-rules.sh, timeline-frames.mjs and browser-soak.mjs ran (soak.mjs runs in tests/wasm; run.sh is the Big reports section's driver over these)"

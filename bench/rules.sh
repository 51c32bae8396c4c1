#!/usr/bin/env bash
# The rule-speed table (issue 24): every rule of asys stats and asys analyze
# on one report, side by side in one run, with for each
#   native  asys stats|analyze -r RULE REPORT (a compare rule: REPORT REPORT,
#           the report against itself, both read in full)
#   scan    the bare sqlite3 scan of exactly the tables and columns the rule
#           reads, built from `asys ... --print-reads` (SQLite's authorizer
#           records them while the rule runs): total(col) of each integer or
#           real column, total(length(col)) of each text column, one
#           SELECT per table, of each report the rule reads
#   wasm    the WebAssembly engine under Node, node bench/wasm-run.mjs
# and the ratios native / scan and wasm / native. Best of REPEAT rounds, the
# three taking turns in each, so that load on the machine weighs on all
# alike. Every run's exit status is checked and its output must not be
# empty; the WebAssembly engine must answer the native CSV's bytes exactly.
# Usage: bench/rules.sh REPORT [REPEAT]   (default 3; needs build/native/asys
#        and build/wasm/asys_engine_node.cjs); RULES="a b" runs only those.
# Writes the markdown table to stdout and to bench/out/rules-<report>.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
report=${1:?usage: bench/rules.sh REPORT [REPEAT]}
repeat=${2:-3}
asys=build/native/asys
for tool in "$asys" build/wasm/asys_engine_node.cjs; do
  [ -e "$tool" ] || { echo "bench: $tool missing: build it first" >&2; exit 1; }
done
[ -f "$report" ] || { echo "bench: $report: no such report" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The scan query of a rule's read set ("REPORT_INDEX TABLE COLUMN..." lines
# of --print-reads): report 0 is main, report 1 the attached "r1".
scan_sql() {
  local parts=() index table columns sum c type
  while read -r index table columns; do
    [ -n "$columns" ] || continue
    sum=""
    for c in $columns; do
      type=$(sqlite3 "$report" "SELECT upper(type) FROM pragma_table_info('$table') WHERE name = '$c'")
      case $type in
        TEXT*) sum+="${sum:++}total(length(\"$c\"))" ;;
        *) sum+="${sum:++}total(\"$c\")" ;;
      esac
    done
    parts+=("(SELECT $sum FROM $([ "$index" = 0 ] && echo main || echo r1).\"$table\")")
  done
  local IFS=+
  echo "SELECT ${parts[*]}"
}

table=bench/out/rules-$(basename "$report" .asysrep).md
mkdir -p bench/out
{
  echo "Report: $report ($(stat -c %s "$report") bytes, $(sqlite3 "$report" 'SELECT count(*) FROM HGGC_KERNEL') kernels); $(nproc) cores; load average at start $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F); commit $(git rev-parse --short HEAD); best of $repeat"
  echo
  echo "| rule | tables read (columns) | native (s) | bare scan (s) | native / scan | wasm node (s) | wasm / native |"
  echo "|---|---|---|---|---|---|---|"
} >"$table"

row() {  # command rule
  local command=$1 rule=$2 args=("$report") flags=()
  case $rule in
    *_compare) args=("$report" "$report") ;;
    ppu_op_unit_test) flags=(-f true) ;;  # its tests go beside the report, every run
  esac
  local reads sql t_native=999999 t_scan=999999 t_wasm=999999 t
  reads=$("$asys" "$command" --print-reads "${flags[@]}" -r "$rule" "${args[@]}" 2>"$work/err") ||
    { echo "bench: $rule --print-reads failed: $(tail -1 "$work/err")" >&2; exit 1; }
  sql=$(scan_sql <<<"$reads")
  for _ in $(seq "$repeat"); do
    t=$(BENCH_OUT=$work/native best_timed 1 "$asys" "$command" "${flags[@]}" -r "$rule" "${args[@]}") || exit 1
    t_native=$(min_time "${t%% *}" "$t_native")
    t=$(best_timed 1 sqlite3 -cmd "ATTACH '$report' AS r1" "$report" "$sql") || exit 1
    t_scan=$(min_time "${t%% *}" "$t_scan")
    [ "$t_wasm" = refused ] && continue
    if ! t=$(BENCH_OUT=$work/wasm best_timed 1 node bench/wasm-run.mjs "$report" "$rule" "${args[1]:-}" 2>"$work/wasm-err"); then
      # The engine's memory budget refusing the rule before it starts
      # (core/rules/memory_estimate.cc) is an answer, recorded as such; any
      # other failure stops the bench.
      grep -q 'refused before it started' "$work/wasm-err" || { cat "$work/wasm-err" >&2; exit 1; }
      t_wasm=refused
      echo "bench: $rule: refused by the WebAssembly engine: $(sed 's/^bench: failed: .*(wasm-run: //; s/)$//' "$work/wasm-err")" >&2
      continue
    fi
    t_wasm=$(min_time "${t%% *}" "$t_wasm")
    cmp -s "$work/native" "$work/wasm" ||
      { echo "bench: $rule: the WebAssembly engine's CSV differs from the native one" >&2; exit 1; }
  done
  local wasm_ratio=refused
  [ "$t_wasm" = refused ] || wasm_ratio=$(ratio "$t_wasm" "$t_native")
  # "HGGC_KERNEL (6), StringIds (2)"; read in both reports: "(6) x2".
  local what
  what=$(awk '{n[$2] = NF - 2; c[$2]++} END {for (t in n) printf "%s (%d)%s\n", t, n[t], (c[t] > 1 ? " x2" : "")}' <<<"$reads" |
         sort | paste -sd';' | sed 's/;/, /g')
  echo "| $rule | $what | $t_native | $t_scan | $(ratio "$t_native" "$t_scan") | $t_wasm | $wasm_ratio |" | tee -a "$table"
}

for rule in $(rule_names "$asys" stats); do row stats "$rule"; done
for rule in $(rule_names "$asys" analyze); do row analyze "$rule"; done
# The issue's WebAssembly targets: the median wasm / native over the rules
# it ran (refusals are not times: counted apart), and the largest.
ratios=$(awk -F' *[|] *' '/^[|] [a-z]/ && $2 != "rule" && $8 != "refused" && $8 != "-" {print $8}' "$table" | sort -n)
refused=$(awk -F' *[|] *' '/^[|] [a-z]/ && $8 == "refused"' "$table" | wc -l)
median=$(awk '{r[NR] = $1} END {print NR ? (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2) : "-"}' <<<"$ratios")
{ echo; echo "wasm / native over $(grep -c . <<<"$ratios") rules: median $median, largest $(tail -1 <<<"$ratios"); refused by the WebAssembly engine's memory budget: $refused"; } | tee -a "$table"
echo >>"$table"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$table"
echo "bench: wrote $table" >&2

#!/usr/bin/env bash
# Every rule in the browser on one report and one build (issue 20, target
# 2), one rule after another in headless Debian Chromium: the statistics
# and expert rules through bench/browser-run.mjs (the rule chosen on the
# demo, then REPORT dropped as a disk-backed File), the compare rules
# through bench/browser-compare.mjs against SLOW (REPORT's `--profile slow`
# twin). A rule passes when its table is shown with no page error and as
# many rows as the native CLI's table of the same report (the CSV's lines
# less its header; a compare's first CSV file); anything else stops the
# script naming the rule, never a time. Writes bench/out/browser-rules-NAME.md:
# rule, rows, seconds from the drop (a compare: from the click) to the
# table, and the renderer's peak resident memory.
#   bench/browser-rules.sh REPORT SLOW     (after npm run build)
# RULES="a b ..." runs only those rules.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
report=${1:?usage: bench/browser-rules.sh REPORT SLOW}
slow=${2:?usage: bench/browser-rules.sh REPORT SLOW}
asys=build/native/asys
[ -f build/web/index.html ] || { echo "bench: no built viewer (npm run build)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The native table's rows: its CSV's lines less the header.
native_rows() {  # command rule
  local command=$1 rule=$2 csv=$work/out.csv
  if [ "$command" = compare ]; then
    "$asys" compare -r "$rule" -f true --output "$work/" "$report" "$slow" >/dev/null 2>"$work/err" &&
      mv "$work/$rule.csv" "$csv"
  elif [ "$rule" = ppu_op_unit_test ]; then  # its tests go beside the report
    cp "$report" "$work/r.asysrep" && "$asys" stats -r "$rule" -f true "$work/r.asysrep" >"$csv" 2>"$work/err"
  else
    "$asys" "$command" -r "$rule" "$report" >"$csv" 2>"$work/err"
  fi || { echo "bench: the CLI's $rule failed: $(tail -1 "$work/err")" >&2; exit 1; }
  echo $(( $(wc -l <"$csv") - 1 ))
  rm -f "$work"/*
}

table=bench/out/browser-rules-$(basename "$report" .asysrep).md
mkdir -p bench/out
{
  echo "Report: $report ($(stat -L -c %s "$report") bytes), compare against $slow; $(nproc) cores; $(date -u +%F); commit $(git rev-parse --short HEAD)"
  echo
  echo "| rule | rows (the CLI's too) | to the table (s) | renderer's peak (MiB) |"
  echo "|---|---|---|---|"
} >"$table"

run() {  # command rule
  local command=$1 rule=$2 out
  if [ "$command" = compare ]; then
    out=$(node bench/browser-compare.mjs "$report" "$slow" "$rule") || { echo "bench: $rule failed in the browser" >&2; exit 1; }
  else
    out=$(node bench/browser-run.mjs "$report" "$rule") || { echo "bench: $rule failed in the browser" >&2; exit 1; }
  fi
  out=$(tail -1 <<<"$out")
  local rows seconds peak errors expected
  rows=$(jq -r .rows <<<"$out")
  seconds=$(jq -r 'if .clickToTable then .clickToTable else .dropToTable end' <<<"$out")
  peak=$(jq -r .peakMiB <<<"$out")
  errors=$(jq -r '.errors | length' <<<"$out")
  [ "$errors" = 0 ] || { echo "bench: $rule: page errors: $(jq -c .errors <<<"$out")" >&2; exit 1; }
  expected=$(native_rows "$command" "$rule")
  [ "$rows" = "$expected" ] || { echo "bench: $rule: $rows rows in the browser, $expected in the CLI's table" >&2; exit 1; }
  echo "| $rule | $rows | $seconds | $peak |" | tee -a "$table"
}

for rule in $(rule_names "$asys" stats); do
  case $rule in
    *_compare) run compare "$rule" ;;
    *) run stats "$rule" ;;
  esac
done
for rule in $(rule_names "$asys" analyze); do run analyze "$rule"; done
echo "bench: wrote $table"

#!/usr/bin/env bash
# Every rule's wall time and peak resident memory on one report, for one or
# two builds side by side (BEFORE, if given, and build/native/asys taking
# turns rule by rule, so that the machine's load weighs on both alike).
#   bench/rule-peaks.sh SCALE [BEFORE]
# RULES="a b ..." runs only those rules.
# Generates bench/out/scale-SCALE.asysrep (asys gen --seed 11) and its
# `--profile slow` twin for the compare rules, runs each statistics, expert
# and compare rule once per build with its output sent to /dev/null, and
# writes bench/out/rule-peaks-SCALE.md: rule, wall seconds, CPU seconds as
# user/system (a build that holds gigabytes pays in system time for its
# page faults what a lean one may pay in user time), peak MiB, peak as a
# share of the report's size, and the peak in bytes a row of the tables the
# rule needs (the rows its memory estimate counts, from ASYS_PROFILE's
# "memory estimate" line): what a rule's `memoryPerRow` declares
# (core/rules/memory_estimate.h). A run that fails (exit status not 0, or no
# header line in its output) is an error of the script, never a time.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
scale=${1:?usage: bench/rule-peaks.sh SCALE [BEFORE]}
before=${2:-}
after=build/native/asys
mkdir -p bench/out
report=bench/out/scale-$scale.asysrep
slow=bench/out/scale-$scale-slow.asysrep
[ -f "$report" ] || "$after" gen --seed 11 --scale "$scale" -o "$report" >/dev/null
[ -f "$slow" ] || "$after" gen --seed 11 --scale "$scale" --profile slow -o "$slow" >/dev/null
bytes=$(stat -L -c %s "$report")  # -L: a report linked into bench/out, not generated there

# One run: prints "SECONDS USER/SYSTEM PEAK_KIB ROWS" (ROWS: the estimate's
# rows, 0 for a build that does not say them), or fails naming the rule.
measure() {
  local bin=$1 command=$2 rule=$3; shift 3
  local out err times
  out=$(mktemp) err=$(mktemp) times=$(mktemp)
  if ! ASYS_PROFILE=1 /usr/bin/time -f '%e %U/%S %M' -o "$times" "$bin" "$command" -r "$rule" "$@" >"$out" 2>"$err"; then
    echo "bench: $bin $command -r $rule failed: $(tail -1 "$err")" >&2
    rm -f "$out" "$err" "$times"
    return 1
  fi
  # Every rule's CSV starts with its header; a compare run writes its CSVs
  # and prints the first rows of each.
  if ! head -c 4096 "$out" | grep -q '^Row#\|^# '; then
    echo "bench: $bin $command -r $rule printed no table" >&2
    return 1
  fi
  local rows
  rows=$(sed -n 's/^asys-profile: memory estimate [^ ]* \([0-9]*\) rows.*/\1/p' "$err" | head -1)
  echo "$(cat "$times") ${rows:-0}"
  rm -f "$out" "$err" "$times"
}

table=bench/out/rule-peaks-$scale.md
{
  echo "Report: $report ($bytes bytes); $(nproc) cores; $(date -u +%F); commit $(git rev-parse --short HEAD)"
  echo
  if [ -n "$before" ]; then
    echo "| rule | before (s) | after (s) | before CPU user/sys (s) | after CPU user/sys (s) | before peak (MiB) | after peak (MiB) | after peak / report | after bytes / row |"
    echo "|---|---|---|---|---|---|---|---|---|"
  else
    echo "| rule | time (s) | CPU user/sys (s) | peak (MiB) | peak / report | bytes / row |"
    echo "|---|---|---|---|---|---|"
  fi
} >"$table"

row() {  # command rule args...
  local command=$1 rule=$2; shift 2
  local a b=""
  [ -n "$before" ] && b=$(measure "$before" "$command" "$rule" "$@")
  a=$(measure "$after" "$command" "$rule" "$@")
  local at au ak rows bt bu bk
  read -r at au ak rows <<<"$a"
  read -r bt bu bk _ <<<"${b:-0 0 0 0}"
  local share perRow="-"
  share=$(echo "scale=3; $ak * 1024 / $bytes" | bc)
  [ "$rows" -gt 0 ] && perRow=$(( (ak * 1024 + rows - 1) / rows ))
  if [ -n "$before" ]; then
    echo "| $rule | $bt | $at | $bu | $au | $(( bk / 1024 )) | $(( ak / 1024 )) | $share | $perRow |"
  else
    echo "| $rule | $at | $au | $(( ak / 1024 )) | $share | $perRow |"
  fi | tee -a "$table"
}

outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT
for rule in $(rule_names "$after" stats); do
  case $rule in
    *_compare) row compare "$rule" -f true --output "$outdir/" "$report" "$slow" ;;
    ppu_op_unit_test) row stats "$rule" -f true "$report" ;;  # its tests go beside the report
    *) row stats "$rule" "$report" ;;
  esac
done
for rule in $(rule_names "$after" analyze); do row analyze "$rule" "$report"; done
echo "bench: wrote $table"

#!/usr/bin/env bash
# asys fleet on RANKS rank reports of scale SCALE (default 32 of 100, issue 22's
# target): LocalCluster(1) against LocalCluster(2), side by side, REPEAT
# times taking turns. Both must answer the same bytes, or the bench stops.
# The timed runs are the command as a user runs it, without --verbose (with
# it, two workers' runs were 0.05-0.2 s longer in three sets of turns:
# docs/fleet.md, "Again, a session later"). The details (rounds, client
# CPU, phases, peak worker memory, largest replies) come from one --verbose
# run of each cluster size after the timed ones.
# Beside them, taking turns, the same rules natively: each report in an
# `asys stats` of its own, one process at a time against two at a time
# (what these cores give work that has no serial part and no client).
# Reports: `asys gen --ranks` when the build has it, else one `asys gen
# --seed` per rank; kept in bench/out/fleet-SCALE/ (or FLEET_DIR, a folder
# that has them already). Writes bench/out/fleet-SCALE.md: per cluster size the
# best wall time and the speed-up over one worker (issue 22's target: 1.7x
# with two), the load average before each run, the median rounds of all
# rules together, the client's own CPU (what a second worker cannot shorten),
# when the cluster was ready and how long the run took after the last
# report's head (the serial part), peak worker memory and the largest reply.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
ranks=${RANKS:-32}
scale=${1:-100}
repeat=${REPEAT:-2}
rules=${RULES:-hggc_ppu_kern_sum,hggc_ppu_kern_gb_sum,hggc_api_sum,osrt_sum,hggc_ppu_mem_time_sum,hgtx_sum}
asys=build/native/asys
dir=${FLEET_DIR:-bench/out/fleet-$scale}
res=bench/out/fleet-$scale  # the runs' outputs (never in FLEET_DIR)
mkdir -p "$dir" "$res"
if [ ! -f "$dir/rank-$((ranks - 1)).asysrep" ]; then
  if $asys gen --help | grep -q -- --ranks; then
    $asys gen --ranks "$ranks" --seed 11 --scale "$scale" --out-dir "$dir"
  else
    for i in $(seq 0 $((ranks - 1))); do $asys gen --seed $((11 + i)) --scale "$scale" -o "$dir/rank-$i.asysrep"; done
  fi
fi
reports=()
for i in $(seq 0 $((ranks - 1))); do reports+=("$dir/rank-$i.asysrep"); done
largest=$(stat -c %s "${reports[@]}" | sort -n | tail -1)

declare -A best_time native_best peak grown reply rounds client loads phases
# fleet_run WORKERS [ARG...]: one run on WORKERS workers, its table in
# out-WORKERS.txt and its stderr in err-WORKERS.txt; the bench stops if it fails.
fleet_run() {
  local workers=$1; shift
  if ! $asys fleet stats --local "$workers" "$@" -r "$rules" "${reports[@]}" \
      >"$res/out-$workers.txt" 2>"$res/err-$workers.txt"; then
    echo "bench: fleet --local $workers failed:" >&2; cat "$res/err-$workers.txt" >&2; exit 1
  fi
}
# native_run PROCS: asys stats of the rules on each report, PROCS at a time,
# each report's table in native-PROCS/; the bench stops if one fails.
native_run() {
  local out="$res/native-$1"
  rm -rf "$out" && mkdir -p "$out"
  if ! printf '%s\n' "${reports[@]}" | xargs -P "$1" -I{} sh -c '"$0" stats -r "$1" "$2" >"$3/$(basename "$2").txt"' \
      "$asys" "$rules" {} "$out"; then
    echo "bench: native asys stats failed" >&2; exit 1
  fi
}
# best_of BEST N COMMAND...: runs COMMAND N (its argument), and keeps in the
# array BEST at N the smaller of its wall time and what BEST[N] held.
best_of() {
  local -n best=$1; local n=$2 s t; shift 2
  s=$(date +%s.%N)
  "$@" "$n"
  t=$(echo "$(date +%s.%N) - $s" | bc)
  best[$n]=$(echo "if ($t < ${best[$n]:-$t}) $t else ${best[$n]:-$t}" | bc)
}
for run in $(seq "$repeat"); do
  for procs in 1 2; do best_of native_best "$procs" native_run; done
  diff -rq "$res/native-1" "$res/native-2" >/dev/null || { echo "bench: native runs answered differently" >&2; exit 1; }
  [ "$(find "$res/native-1" -name '*.txt' -size +0 | wc -l)" = "$ranks" ] || { echo "bench: a native table is missing" >&2; exit 1; }
  for workers in 1 2; do
    loads[$workers]="${loads[$workers]:-}${loads[$workers]:+, }$(cut -d' ' -f1 /proc/loadavg)"
    best_of best_time "$workers" fleet_run
  done
  cmp -s "$res/out-1.txt" "$res/out-2.txt" || { echo "bench: the two clusters answered differently" >&2; exit 1; }
  [ -s "$res/out-1.txt" ] || { echo "bench: no table" >&2; exit 1; }
done
# The details, from one --verbose run of each size (not timed).
for workers in 1 2; do
  fleet_run "$workers" --verbose
  peak[$workers]=$(sed -n 's/.*peak resident memory \(.*\) MiB, grown.*/\1/p' "$res/err-$workers.txt" | tr ',' '\n' | tr -d ' ' | sort -n | tail -1)
  grown[$workers]=$(sed -n 's/.*grown in the run by \(.*\) MiB/\1/p' "$res/err-$workers.txt" | tr ',' '\n' | tr -d ' ' | sort -n | tail -1)
  rounds[$workers]=$(sed -n 's/^asys fleet: \([0-9]*\) median rounds for all rules together.*/\1/p' "$res/err-$workers.txt")
  client[$workers]="$(sed -n 's/^asys fleet: client CPU \([0-9.]*\) s.*/\1/p' "$res/err-$workers.txt")"
  # Per rule: "RULE=BYTES" of its largest reply.
  reply[$workers]=$(sed -n 's/^asys fleet: \([a-z_]*\): .* largest reply \([0-9]*\) bytes/\1=\2/p' "$res/err-$workers.txt" | paste -sd' ')
  # The run's phases (--verbose timeline): when the cluster was ready, and
  # the part after the last report's head (rounds, merged tables, writing),
  # which a second worker shortens little.
  line=$(sed -n 's/^asys fleet: timeline (s since the client started): //p' "$res/err-$workers.txt")
  at() { echo "$line" | tr ',' '\n' | sed -n "s/^ *$1 \([0-9.]*\)$/\1/p"; }
  phases[$workers]="$(at 'cluster ready') / $(echo "$(at 'tables written') - $(at 'every head in')" | bc)"
done
cmp -s "$res/out-1.txt" "$res/out-2.txt" || { echo "bench: the two verbose runs answered differently" >&2; exit 1; }

{
  echo "# asys fleet, $ranks reports of scale $scale (largest $largest bytes), $(date -u +%F)"
  echo
  echo "rules: $rules; wall: best of $repeat runs without --verbose, the two sizes taking turns; rounds, client CPU, phases, memory and replies: one --verbose run of each size after them; $(nproc) cores"
  echo
  echo "| workers | wall (s) | speed-up | load before each run | median rounds | client CPU (s) | cluster ready / after the last head (s) | peak worker RSS (MiB) | grown in the run (MiB) | grown / largest report | largest reply per rule (bytes) |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for w in 1 2; do
    echo "| $w | ${best_time[$w]} | $(ratio "${best_time[1]}" "${best_time[$w]}") | ${loads[$w]} | ${rounds[$w]} | ${client[$w]} | ${phases[$w]} | ${peak[$w]} | ${grown[$w]} | $(echo "scale=3; ${grown[$w]} * 1048576 / $largest" | bc) | ${reply[$w]} |"
  done
  echo
  echo "native asys stats of the same rules, each report in its own process (best of $repeat, taking turns with the fleet): one at a time ${native_best[1]} s, two at a time ${native_best[2]} s, speed-up $(ratio "${native_best[1]}" "${native_best[2]}")"
} | tee "bench/out/fleet-$scale.md"

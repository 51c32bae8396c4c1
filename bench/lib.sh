# Shared by the bench scripts (source it): timing helpers and the rule list.
# A run that fails, or prints nothing, is an error that stops the bench, never
# a time.

# best_timed N CMD...: "seconds peak_KiB" of the fastest of N runs of CMD
# (GNU time's wall clock and that run's peak resident memory; stdout is
# checked, then discarded, or with BENCH_OUT=FILE set the last run's kept
# there). With BENCH_WRITES=FILE the run's output is FILE instead (an import's
# report): removed before each run, it must be there and not empty after.
# Use it as x=$(best_timed ...) || exit 1.
best_timed() {
  local n=$1; shift
  local best_t="" best_m=0 t m dir
  dir=$(mktemp -d)
  for _ in $(seq "$n"); do
    if [ -n "${BENCH_WRITES:-}" ]; then rm -f "$BENCH_WRITES"; fi
    if ! /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err"; then
      echo "bench: failed: $* ($(tail -1 "$dir/err"))" >&2
      rm -rf "$dir"
      exit 1
    fi
    if [ ! -s "${BENCH_WRITES:-$dir/out}" ]; then
      echo "bench: printed nothing: $*" >&2
      rm -rf "$dir"
      exit 1
    fi
    read -r t m < <(tail -1 "$dir/time")
    if [ -z "$best_t" ] || (( $(echo "$t < $best_t" | bc) )); then best_t=$t; best_m=$m; fi
  done
  if [ -n "${BENCH_OUT:-}" ]; then mv "$dir/out" "$BENCH_OUT"; fi
  rm -rf "$dir"
  echo "$best_t $best_m"
}

# best CMD...: the best wall time in seconds of $repeat runs of CMD.
best() {
  local timing
  timing=$(best_timed "$repeat" "$@") || exit 1
  echo "${timing%% *}"
}

# The smaller of two times.
min_time() { echo "if ($1 < $2) $1 else $2" | bc | sed 's/^\./0./'; }

# $1 / $2 to two places; "-" when $2 is 0 (a time below the clock's 10 ms).
ratio() {
  if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "-"; return; fi
  echo "scale=2; $1 / $2" | bc | sed 's/^\./0./'
}

# rule_names ASYS COMMAND: the rules of `ASYS COMMAND` (stats, analyze) in
# the order its --help-reports lists them; with RULES="a b ..." set, only
# those.
rule_names() {
  "$1" "$2" --help-reports | sed -n 's/^\([a-z0-9_]*\) -- .*/\1/p' |
    while read -r r; do
      if [ -z "${RULES:-}" ] || [[ " $RULES " == *" $r "* ]]; then echo "$r"; fi
    done
}

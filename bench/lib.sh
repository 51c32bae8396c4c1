# Shared by the bench scripts (source it): timing helpers.

# best wall time in seconds of $repeat runs of "$@" (stdout discarded); a
# run that fails stops the bench (use it as t=$(best ...), which set -e sees)
best() {
  local best=999999 t s
  for _ in $(seq "$repeat"); do
    s=$(date +%s.%N)
    if ! "$@" >/dev/null; then
      echo "bench: failed: $*" >&2
      exit 1
    fi
    t=$(echo "$(date +%s.%N) - $s" | bc)
    best=$(echo "if ($t < $best) $t else $best" | bc)
  done
  echo "$best"
}

ratio() { echo "scale=2; $1 / $2" | bc; }

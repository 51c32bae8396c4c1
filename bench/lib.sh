# Shared by the bench scripts (source it): timing helpers.

# best wall time in seconds of $repeat runs of "$@" (stdout discarded)
best() {
  local best=999999 t s
  for _ in $(seq "$repeat"); do
    s=$(date +%s.%N)
    "$@" >/dev/null
    t=$(echo "$(date +%s.%N) - $s" | bc)
    best=$(echo "if ($t < $best) $t else $best" | bc)
  done
  echo "$best"
}

ratio() { echo "scale=2; $1 / $2" | bc; }

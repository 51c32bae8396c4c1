#!/usr/bin/env bash
# Times `asys import` of the largest real Nsight Systems export and the
# largest real Kineto trace in ../shared/data/real (best of 3, with peak RSS).
# Timings live here, never in unit tests. Needs a built tree.
set -euo pipefail
cd "$(dirname "$0")/.."
data=../shared/data/real
mkdir -p bench/out
largest() { find "$data/$1" -name "$2" -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2; }
for input in "$(largest nsys-sqlite '*.sqlite')" "$(largest kineto '*.json.gz')"; do
  best=999999 rss=0
  for _ in 1 2 3; do
    read -r t m < <( { /usr/bin/time -f '%e %M' build/native/asys import "$input" -o bench/out/import.asysrep -f true >/dev/null; } 2>&1 | tail -1)
    best=$(echo "if ($t < $best) $t else $best" | bc)
    rss=$m
  done
  echo "| $(basename "$input") | $(stat -c %s "$input") | $best | $rss |"
done

#!/usr/bin/env bash
# Times `asys import` of the largest real Nsight Systems export and the
# largest real Kineto trace in ../shared/data/real (best of 3, with peak RSS).
# Timings live here, never in unit tests. Needs a built tree.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
data=../shared/data/real
mkdir -p bench/out
largest() { find "$data/$1" -name "$2" -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2; }
for input in "$(largest nsys-sqlite '*.sqlite')" "$(largest kineto '*.json.gz')"; do
  timing=$(BENCH_WRITES=bench/out/import.asysrep best_timed 3 build/native/asys import "$input" -o bench/out/import.asysrep -f true) || exit 1
  read -r best rss <<<"$timing"
  echo "| $(basename "$input") | $(stat -c %s "$input") | $best | $rss |"
done

#!/usr/bin/env bash
# Side-by-side timing of ppu_kernel_summary_compare against hggc_ppu_kern_sum
# (issue 11: comparing two reports costs at most 2.2x one summary, that is
# the two summaries plus the join). Two reports of `asys gen --scale SCALE`,
# profiles base and slow (kept in bench/out/):
#   kern_sum : asys stats -r hggc_ppu_kern_sum BASE
#   compare  : asys stats -r ppu_kernel_summary_compare BASE SLOW
# Each runs REPEAT times as a whole process, the two taking turns; the best
# wall time counts.
# Usage: bench/compare.sh [SCALE] [REPEAT]   (needs build/native/asys)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
scale=${1:-2500}
repeat=${2:-3}
asys=build/native/asys
mkdir -p bench/out
for profile in base slow; do
  report=bench/out/cmp-$profile-$scale.asysrep
  [ -f "$report" ] || "$asys" gen --seed 11 --scale "$scale" --profile "$profile" -o "$report"
done
base=bench/out/cmp-base-$scale.asysrep
slow=bench/out/cmp-slow-$scale.asysrep
kernels=$(sqlite3 "$base" "SELECT count(*) FROM HGGC_KERNEL")

# Turns: one run of each per round, so load on the machine weighs on both.
best_sum=999999 best_cmp=999999
for _ in $(seq "$repeat"); do
  t=$(repeat=1 best "$asys" stats -r hggc_ppu_kern_sum "$base")
  best_sum=$(min_time "$t" "$best_sum")
  t=$(repeat=1 best "$asys" stats -r ppu_kernel_summary_compare "$base" "$slow")
  best_cmp=$(min_time "$t" "$best_cmp")
done
echo "| scale | kernels per report | hggc_ppu_kern_sum (s) | ppu_kernel_summary_compare (s) | compare / summary |"
echo "|---|---|---|---|---|"
echo "| $scale | $kernels | $best_sum | $best_cmp | $(ratio "$best_cmp" "$best_sum") |"

#!/usr/bin/env bash
# The libFuzzer targets of tests/fuzz (docs/fuzzing.md): builds them with
# clang, AddressSanitizer and UBSan into build/fuzz, assembles each target's
# seeds, and runs them.
#
#   scripts/fuzz.sh smoke                  every target for a few seconds over its seeds
#                                          and what earlier runs kept (npm test)
#   scripts/fuzz.sh long SECONDS [TARGET...]
#                                          long runs (all targets when none is named),
#                                          as many at once as there are cores (or
#                                          FUZZ_JOBS), each
#                                          until SECONDS or 10 million executions;
#                                          logs in build/fuzz/long/, a summary at the end;
#                                          exits 1 when any target found something
#   scripts/fuzz.sh list                   the targets
#
# A finding stops the run with libFuzzer's report and leaves the input in
# build/fuzz/findings/TARGET/; once fixed, add it to tests/fuzz/seeds/TARGET/
# so every smoke run replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=build/fuzz
targets=(asysrep_reader rule_options time_filter callstack_groups ppu_op_config op_annotations kineto_import nsys_import)

build() {
  bash scripts/setup.sh >/dev/null
  # A build type of its own: no flags but NDEBUG, the optimisation and debug
  # information are ASYS_FUZZ's (CMakeLists.txt).
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Fuzz \
    -DCMAKE_C_FLAGS_FUZZ=-DNDEBUG -DCMAKE_CXX_FLAGS_FUZZ=-DNDEBUG -DASYS_FUZZ=ON >/dev/null
  # Only the fuzz targets: the sanitized tree also defines the CLI and the
  # timeline bench, two more whole-core links nobody runs here.
  cmake --build "$out" -j "$(nproc)" --target "${targets[@]/%/_fuzz}" >/dev/null
}

# Seeds are rebuilt on every call: committed texts, the golden fixtures as
# SQLite files (small pages, so mutations reach every table), the rules'
# declared options, trimmed real traces where ../shared/data/real exists.
seeds() {
  local s=$out/seeds
  rm -rf "$s"
  for t in "${targets[@]}"; do
    mkdir -p "$s/$t"
    if [ -n "$(ls -A tests/fuzz/seeds/$t 2>/dev/null)" ]; then cp tests/fuzz/seeds/$t/* "$s/$t/"; fi
  done
  for f in tests/golden/fixtures/*.sql; do
    local name target=asysrep_reader
    name=$(basename "$f" .sql)
    [ "$name" = import_nsys ] && target=nsys_import
    { echo "PRAGMA page_size=512;"; cat "$f"; } | sqlite3 "$s/$target/$name.db"
  done
  local asys=build/native/asys
  [ -x "$asys" ] || cmake --build build/native --target asys >/dev/null
  local dict=$out/rule_options.dict
  : > "$dict"
  "$asys" stats --help-reports | cut -d' ' -f1 | while read -r rule; do
    printf '%s' "$rule" > "$s/rule_options/$rule"
    echo "\"$rule\"" >> "$dict"
    # Every declared option, its value a plausible one for its placeholder.
    local options
    options=$("$asys" stats --help-report "$rule" | sed -n 's/^        \([a-z][a-z0-9-]*\)\(=<\([a-z_]*\)>\)\{0,1\}$/\1 \3/p' |
      while read -r option kind; do
        echo "\"$option\"" >> "$dict"
        case "$kind" in
          "") printf ':%s' "$option" ;;
          *list) printf ':%s=0/1' "$option" ;;
          *regex*) printf ':%s=ab\\:c.*/(x|y)+\\/z' "$option" ;;
          *) printf ':%s=3' "$option" ;;
        esac
      done)
    [ -n "$options" ] && printf '%s%s' "$rule" "$options" > "$s/rule_options/$rule-options"
  done
  printf 'hggc_ppu_kern_sum:base,hggc_api_sum' > "$s/rule_options/two-rules"
  if [ -d ../shared/data/real/kineto ]; then
    node scripts/fuzz-trim-trace.mjs "$s/kineto_import" ../shared/data/real/kineto/tracelens/unit_tests_nv/moe/moe_01_many_experts_few_tokens.json.gz \
      ../shared/data/real/kineto/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz \
      ../shared/data/real/kineto/hta/with_gpu_user_annotation/step_based_trace_2543932.json.gz
  fi
}

# run TARGET SECONDS RUNS [TIMEOUT]: the kept corpus grows in build/fuzz/corpus/TARGET.
# TIMEOUT (s, default 20) is wall time per input: long runs take 120, because
# at nice 19 beside a busy process an input gets about 1/70 of a core (a
# 2.8 s input took 29 s while the tests ran), and a real hang still ends.
run() {
  local t=$1 seconds=$2 runs=$3 timeout=${4:-20}
  mkdir -p "$out/corpus/$t" "$out/findings/$t"
  local extra=()
  [ "$t" = rule_options ] && extra+=(-dict="$root/$out/rule_options.dict")
  (cd "$out/findings/$t" &&
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
      "$root/$out/${t}_fuzz" -max_total_time="$seconds" -runs="$runs" -timeout="$timeout" -rss_limit_mb=2048 \
      -max_len=200000 -print_final_stats=1 "${extra[@]}" "$root/$out/corpus/$t" "$root/$out/seeds/$t")
}

case "${1:-}" in
  list) printf '%s\n' "${targets[@]}" ;;
  smoke)
    build
    seeds
    for t in "${targets[@]}"; do
      echo "fuzz: $t (smoke)"
      if run "$t" "${FUZZ_SMOKE_SECONDS:-6}" -1 > "$out/$t.log" 2>&1; then
        grep -E '^stat::number_of_executed_units' "$out/$t.log"
      else
        tail -n 60 "$out/$t.log"
        echo "fuzz: $t found a problem (input in build/fuzz/findings/$t, log $out/$t.log)"
        exit 1
      fi
    done
    ;;
  long)
    seconds=${2:?usage: scripts/fuzz.sh long SECONDS [TARGET...]}
    shift 2
    [ $# -gt 0 ] || set -- "${targets[@]}"
    build
    seeds
    mkdir -p "$out/long"
    # Each run that ends in a finding (libFuzzer's non-zero exit: a crash, a
    # sanitizer report, a timeout, out of memory) leaves TARGET.finding here;
    # the script exits 1 when any does. The runs go in the background, and
    # the exit status of a background job is easily lost (`wait` alone
    # answers 0), so the marker files carry it.
    rm -f "$out/long/"*.finding
    echo "fuzz: long runs at $(git rev-parse --short HEAD) from $(date -u +%FT%TZ)"
    for t in "$@"; do
      while [ "$(jobs -rp | wc -l)" -ge "${FUZZ_JOBS:-$(nproc)}" ]; do wait -n || true; done
      ( start=$(date +%s)
        if run "$t" "$seconds" 10000000 120 > "$out/long/$t.log" 2>&1; then result=clean
        else result="FINDING (build/fuzz/findings/$t, log $out/long/$t.log)"; : > "$out/long/$t.finding"; fi
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/long/$t.log")
        echo "fuzz: $t: ${execs:-?} executions in $(( $(date +%s) - start )) s: $result" ) &
    done
    wait
    found=()
    for f in "$out/long/"*.finding; do if [ -e "$f" ]; then found+=("$(basename "$f" .finding)"); fi; done
    if [ ${#found[@]} -gt 0 ]; then
      echo "fuzz: ${#found[@]} of $# targets found something: ${found[*]}"
      exit 1
    fi
    ;;
  *) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2 ;;
esac

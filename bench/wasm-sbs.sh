#!/usr/bin/env bash
# Side by side, taking turns: the native CLI and WebAssembly modules under
# Node (bench/wasm-run.mjs with ASYS_WASM_BINARY=build/VARIANT/asys_engine_node.wasm,
# that build's own glue beside it), each run under GNU time (wall, user CPU,
# peak KiB) and its CSV compared with the native one (cmp: "same" or "DIFF").
# Under load compare the user CPU, not the wall time.
# Usage: VARIANTS="native wasm wasm-simd" bench/wasm-sbs.sh REPORT ROUNDS RULE...
# (a variant is a folder under build/ holding asys_engine_node.{cjs,wasm};
# "native" is build/native/asys). Prints one line a run.
set -uo pipefail
cd "$(dirname "$0")/.."
report=$1 rounds=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for rule in "$@"; do
  for r in $(seq "$rounds"); do
    for v in ${VARIANTS:-native wasm}; do
      load=$(cut -d' ' -f1 /proc/loadavg)
      f=$out/${v//\//_}
      case $v in
        native)
          sub=stats
          case $rule in ppu_gaps | ppu_time_util) sub=analyze ;; esac
          cmd=(build/native/asys "$sub" -r "$rule" "$report") ;;
        *) cmd=(env "ASYS_WASM_BINARY=build/$v/asys_engine_node.wasm" node bench/wasm-run.mjs "$report" "$rule") ;;
      esac
      if ! /usr/bin/time -o "$f.time" -f '%e %U %M' "${cmd[@]}" >"$f.csv" 2>"$f.err" || [ ! -s "$f.csv" ]; then
        echo "bench: $v $rule failed: $(tail -3 "$f.err")" >&2
        exit 1
      fi
      same=same
      [ "$v" = native ] || cmp -s "$out/native.csv" "$f.csv" || same=DIFF
      echo "$(basename "$report") $rule $r $v $(tail -1 "$f.time") load=$load $same"
    done
  done
done

#!/usr/bin/env bash
# The engine's dependency rule (docs/architecture.md, "Layers"): every
# `#include "core/<dir>/..."` of a file in core/ or wasm/ points down the
# layers below, or sideways within a layer, never up; and the graph of
# directories (an arrow from a file's directory to each directory it
# includes) has no cycle. A directory no layer names is an error too, so a
# new one is placed before it is used.
#
#   scripts/check-deps.sh [ROOT]   (ROOT: the repository, default this one)
#
# Prints each offending include as `file:line: dir -> dir (...)` and each
# cycle as `dir -> dir -> ... -> dir`; exits 1 if there is any, else 0.
# Plain bash and POSIX awk (Debian's mawk): CTest runs it (tests/CMakeLists.txt).
set -euo pipefail

root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
cd "$root"

# Lowest first. A file may include its own directory, any directory of its
# own layer (the cycle check keeps those apart) and any layer below.
layers=(
  "base sqlite"             # errors, text, regexes, string pool; the SQLite amalgamation
  "report table writer"     # the asysrep file read (report) and written (writer); result tables
  "analysis"                # what rules share: intervals, associations, time windows, statistics
  "operators timeline"      # the operator engine; the viewer's timeline (both over analysis)
  "rules"                   # one file per rule, their options and registry; the compare engine and rules
  "gen import"              # report makers the front ends call: the generator, the importers
  "cli wasm"                # the front ends
)

layer_table=$(for i in "${!layers[@]}"; do
  for d in ${layers[$i]}; do printf '%s %s\n' "$d" "$i"; done
done)

# `file:line:text` of every include of core/..., in a stable order.
includes=$(find core wasm -type f \( -name '*.h' -o -name '*.cc' -o -name '*.c' -o -name '*.cpp' \) -print 2>/dev/null |
  LC_ALL=C sort | xargs grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]core/' /dev/null || true)

printf '%s\n' "$includes" | LC_ALL=C awk -v table="$layer_table" '
BEGIN {
  n = split(table, rows, "\n")
  for (i = 1; i <= n; ++i) { split(rows[i], f, " "); rank[f[1]] = f[2] + 0; order[i] = f[1] }
  dirs = n
  bad = 0; edges = 0
}
$0 == "" { next }
{
  # file:line:text (no file name here holds a colon)
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2)
  line = rest; sub(/:.*/, "", line)
  text = substr(rest, length(line) + 2)
  path = text; sub(/^[^"<]*["<]/, "", path); sub(/[">].*$/, "", path)

  split(file, fp, "/")
  from = fp[1] == "wasm" ? "wasm" : fp[2]
  if (fp[1] == "core" && fp[3] == "") from = "core"  # a file directly in core/
  split(path, tp, "/")
  to = tp[3] == "" ? "" : tp[2]  # core/<dir>/<file>

  where = file ":" line ": "
  if (to == "") { print where "includes " path ", which is in no directory of core/"; bad = 1; next }
  if (!(from in rank)) {
    if (!(from in unknown)) print file ": core/" from " is in no layer (scripts/check-deps.sh, docs/architecture.md)"
    unknown[from] = 1; bad = 1; next
  }
  if (!(to in rank)) { print where from " -> " to ": core/" to " is in no layer"; bad = 1; next }
  if (from == to) next
  if (rank[to] > rank[from]) {
    print where from " -> " to " (layer " rank[from] " includes layer " rank[to] " above it)"
    bad = 1
  }
  if (!((from, to) in edge)) {
    edge[from, to] = 1
    ++edges; efrom[edges] = from; eto[edges] = to
    out[from] = out[from] " " to
  }
}
function visit(d,    k, m, next_, parts) {
  state[d] = 1; stack[++depth] = d
  m = split(out[d], parts, " ")
  for (k = 1; k <= m; ++k) {
    next_ = parts[k]
    if (state[next_] == 1) { report(next_) }
    else if (state[next_] == 0) visit(next_)
  }
  state[d] = 2; --depth
}
function report(d,    k, s, start) {
  for (k = depth; k >= 1; --k) if (stack[k] == d) { start = k; break }
  s = ""
  for (k = start; k <= depth; ++k) s = s stack[k] " -> "
  print "cycle: " s d
  bad = 1
}
END {
  for (d in rank) state[d] = 0
  depth = 0
  # Directories in layer order, so a cycle is found the same way every run.
  for (i = 1; i <= dirs; ++i) if (state[order[i]] == 0) visit(order[i])
  if (bad) { print "check-deps: the include graph breaks the layer order (docs/architecture.md, \"Layers\")"; exit 1 }
  print "check-deps: " edges " directory arrows, all down the layers, no cycle"
}'

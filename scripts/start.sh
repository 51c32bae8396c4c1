#!/usr/bin/env bash
# Builds everything, then serves the viewer on localhost with the demo report
# open. PORT=N picks the port (default 8080).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
port="${PORT:-8080}"
echo "Open http://127.0.0.1:${port}/?demo=base  (Ctrl+C stops the server)"
exec node scripts/serve.mjs build/web --port "$port"

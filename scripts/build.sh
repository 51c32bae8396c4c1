#!/usr/bin/env bash
# Builds everything: native engine + CLI + tests, the WebAssembly engine, the
# demo reports and the web app. Runs setup first, so it works on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

jobs=$(nproc)
echo "build: native"
cmake -S . -B build/native -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/native -j "$jobs"

echo "build: python package (.venv)"
bash scripts/setup-python.sh

echo "build: webassembly"
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S . -B build/wasm -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/wasm -j "$jobs"
mkdir -p public/engine
cp build/wasm/asys_engine.mjs build/wasm/asys_engine.wasm public/engine/

echo "build: demo reports"
mkdir -p public/demo
for p in base slow; do
  out=public/demo/demo-$p.asysrep
  [ -f "$out" ] && [ "$out" -nt build/native/asys ] && continue
  build/native/asys gen --seed 7 --scale 1 --profile "$p" -o "$out"
done

echo "build: web"
npx vite build --logLevel warn

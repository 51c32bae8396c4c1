#!/usr/bin/env bash
# Every test suite: native (CTest: unit + golden diff tests), the WebAssembly
# engine under Node against the native CLI, the web unit tests (Vitest) and
# the end-to-end tests in Chromium (Playwright). Builds first, from scratch
# on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh

# CPU PyTorch for the one suite that runs a generated ppu_op_unit_test file
# (GeneratedUnitTestsRun); where it cannot be installed, that test reports
# itself skipped and says why.
bash scripts/setup-torch.sh || echo "test: CPU PyTorch unavailable: GeneratedUnitTestsRun will be skipped"

echo "test: native (ctest)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)"

echo "test: fuzz targets, a short run each over their seeds (scripts/fuzz.sh)"
bash scripts/fuzz.sh smoke

echo "test: the malformed-input corpus through the CLI"
node --test tests/corpus/

echo "test: webassembly engine under node"
node --test tests/wasm/

echo "test: bench smoke (bench/smoke.sh: the bench scripts run and print their tables on tiny reports)"
bash bench/smoke.sh

echo "test: web types (tsc)"
npx tsc -p web/tsconfig.json --noEmit

echo "test: web unit tests (vitest)"
npm run --silent test:web

echo "test: end to end (playwright, chromium)"
npm run --silent test:e2e

#!/usr/bin/env bash
# Every test suite: native (CTest: unit + golden diff tests), the WebAssembly
# engine under Node against the native CLI, the web unit tests (Vitest) and
# the end-to-end tests in Chromium (Playwright). Builds first, from scratch
# on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's line says how long the one before it took, so that a slow
# suite is visible in CI's log (npm test is kept under about 25 minutes).
phase_start=$SECONDS
phase() {
  echo "test: $1   (previous phase: $((SECONDS - phase_start)) s, total so far: $SECONDS s)"
  phase_start=$SECONDS
}

bash scripts/build.sh

# CPU PyTorch for the one suite that runs a generated ppu_op_unit_test file
# (GeneratedUnitTestsRun). setup-torch.sh says 0 when torch imports: the
# suite must then run, and ASYS_REQUIRE_TORCH=1 makes a torch it cannot
# import a failure, not a skip; 77 when this machine cannot have Debian's
# python3-torch by design (no apt, no package for its architecture): the
# suite reports itself skipped and says why; anything else is an install
# that was tried and failed, and fails the run.
torch_status=0
bash scripts/setup-torch.sh || torch_status=$?
case $torch_status in
  0) export ASYS_REQUIRE_TORCH=1 ;;
  77) echo "test: CPU PyTorch cannot be had on this machine (above): GeneratedUnitTestsRun will be reported skipped" ;;
  *) echo "test: installing CPU PyTorch failed (scripts/setup-torch.sh exit $torch_status)" >&2; exit 1 ;;
esac

phase "native (ctest)"
ctest --test-dir build/native --output-on-failure -j "$(nproc)"

phase "python package (pytest, against the CLI)"
.venv/bin/python -m pytest -q -p no:cacheprovider tests/python

phase "fuzz targets, a short run each over their seeds (scripts/fuzz.sh)"
bash scripts/fuzz.sh smoke

phase "the malformed-input corpus through the CLI"
node --test tests/corpus/

phase "webassembly engine under node"
node --test tests/wasm/

phase "bench smoke (bench/smoke.sh: the bench scripts run and print their tables on tiny reports)"
bash bench/smoke.sh

phase "web types (tsc)"
npx tsc -p web/tsconfig.json --noEmit

phase "web unit tests (vitest)"
npm run --silent test:web

phase "end to end (playwright, chromium)"
npm run --silent test:e2e
echo "test: all suites passed in $SECONDS s (last phase: $((SECONDS - phase_start)) s)"

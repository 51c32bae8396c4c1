#!/usr/bin/env bash
# Installs everything a fresh machine lacks: Debian packages, npm packages and
# the pinned third-party sources the WebAssembly build compiles. Idempotent:
# a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v emcc >/dev/null || need_apt+=(emscripten)
command -v chromium >/dev/null || need_apt+=(chromium)
command -v cmake >/dev/null || need_apt+=(cmake)
command -v ninja >/dev/null || need_apt+=(ninja-build)
command -v sqlite3 >/dev/null || need_apt+=(sqlite3)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
# bench/ (and its smoke in npm test): GNU time for peaks, bc for the sums, jq.
[ -x /usr/bin/time ] || need_apt+=(time)
command -v bc >/dev/null || need_apt+=(bc)
command -v jq >/dev/null || need_apt+=(jq)
[ -f /usr/include/pcre2.h ] || need_apt+=(libpcre2-dev)
[ -f /usr/include/zlib.h ] || need_apt+=(zlib1g-dev)
[ -f /usr/include/rapidjson/reader.h ] || need_apt+=(rapidjson-dev)
[ -f /usr/include/xlsxwriter.h ] || need_apt+=(libxlsxwriter-dev)
# clang with libFuzzer and the sanitizers' runtime, for tests/fuzz.
command -v clang++-14 >/dev/null || need_apt+=(clang-14)
compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || need_apt+=(libclang-rt-14-dev)
[ -d /usr/src/googletest ] || [ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
# The Python package (python/, scripts/setup-python.sh) and its fleet
# analysis: Debian's interpreter, headers and packages (PyPI is not used).
for pkg in python3-dev python3-venv pybind11-dev python3-pandas python3-distributed python3-pytest; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

bash scripts/fetch-sources.sh

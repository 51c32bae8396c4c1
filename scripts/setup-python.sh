#!/usr/bin/env bash
# The Python package in .venv at the top of the checkout: a venv of Debian's
# /usr/bin/python3 that sees Debian's pandas and dask (--system-site-packages),
# with python/ installed offline (no PyPI: --no-index, and no build isolation,
# which would download setuptools). python/setup.py takes the engine module
# the native build made (build/native/python), so run after it. Idempotent;
# reinstalls when the module or the package's sources are newer.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "setup-python: creating $venv"
  /usr/bin/python3 -m venv --system-site-packages "$venv"
fi
stamp="$venv/.asys-installed"
if [ -f "$stamp" ] && [ -z "$(find python build/native/python -newer "$stamp" -type f -not -path '*/__pycache__/*' -not -path 'python/build/*' -not -path 'python/*.egg-info/*' 2>/dev/null | head -1)" ]; then
  exit 0
fi
echo "setup-python: installing python/ into $venv"
ASYS_BUILD_DIR="$PWD/build/native" "$venv/bin/pip" install -q --no-build-isolation --no-deps --no-index ./python
rm -rf python/build python/*.egg-info
"$venv/bin/python" -c 'import asys' 
touch "$stamp"

#!/usr/bin/env bash
# Installs CPU PyTorch (Debian's python3-torch) for the one test suite that
# runs a generated ppu_op_unit_test file (tests/python/). Not part of
# setup.sh: the package is large and no other suite needs it. Idempotent: a
# machine that imports torch already is left alone. Exits non-zero, saying
# why, when torch cannot be installed (no apt, not root, no candidate), so
# the caller can skip that suite with the reason.
set -euo pipefail

# Debian's package installs for Debian's interpreter, whatever python3 comes
# first on PATH (a pyenv shim, a virtualenv).
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import torch' 2>/dev/null; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "setup-torch: no apt-get on this machine: cannot install python3-torch" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-torch: installing python3-torch needs root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-cache show python3-torch >/dev/null 2>&1; then apt-get update -qq; fi
echo "setup-torch: installing python3-torch (Debian's CPU PyTorch)"
apt-get install -y -qq --no-install-recommends python3-torch >/dev/null
"$py" -c 'import torch'

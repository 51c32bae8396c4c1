#!/usr/bin/env bash
# Installs CPU PyTorch (Debian's python3-torch) for the one test suite that
# runs a generated ppu_op_unit_test file (tests/python/). Not part of
# setup.sh: the package is large and no other suite needs it. Idempotent: a
# machine that imports torch already is left alone.
#
# Exit status (scripts/test.sh acts on it):
#   0   /usr/bin/python3 imports torch (it did already, or after the install)
#   77  torch is not to be had on this machine by design, and nothing was
#       tried: no apt-get (not a Debian machine), or this machine's Debian
#       archive has no python3-torch (Debian builds it for some
#       architectures only). The suite is then skipped, saying why.
#   1   an install was due and failed: not root, apt-get update or install
#       failed, or torch does not import after the install. npm test fails.
# PyPI's torch wheels are not an alternative: only Debian's archive and npm
# are reachable from the project's machines.
set -euo pipefail

# Debian's package installs for Debian's interpreter, whatever python3 comes
# first on PATH (a pyenv shim, a virtualenv).
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c 'import torch' 2>/dev/null; then exit 0; fi
if ! command -v apt-get >/dev/null; then
  echo "setup-torch: no apt-get on this machine (not Debian): python3-torch cannot be had here" >&2
  exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-torch: torch does not import and installing python3-torch needs root (npm test sets up as root)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
candidate() { apt-cache policy python3-torch 2>/dev/null | sed -n 's/^ *Candidate: *//p'; }
version=$(candidate)
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  if ! apt-get update -qq; then
    echo "setup-torch: apt-get update failed: cannot look up python3-torch" >&2
    exit 1
  fi
  version=$(candidate)
fi
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  echo "setup-torch: this machine's Debian archive has no python3-torch for $(dpkg --print-architecture 2>/dev/null || uname -m)" >&2
  exit 77
fi
echo "setup-torch: installing python3-torch $version (Debian's CPU PyTorch)"
if ! apt-get install -y -qq --no-install-recommends python3-torch >/dev/null; then
  echo "setup-torch: apt-get install python3-torch $version failed" >&2
  exit 1
fi
if ! "$py" -c 'import torch'; then
  echo "setup-torch: python3-torch $version is installed but $py cannot import torch" >&2
  exit 1
fi

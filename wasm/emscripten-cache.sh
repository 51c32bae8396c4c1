#!/usr/bin/env bash
# The Emscripten cache the WebAssembly build links against
# (wasm/CMakeLists.txt passes it to the link with --cache): Debian's prebuilt system
# libraries, but for libc++ and libc++abi (built with it), rebuilt here
# with -O2.
# Why: Debian's emscripten 3.1.6 ships libc++-except.a compiled without
# optimisation (std::string::push_back calls __is_long(), which calls the
# compressed pair's __get(), each a function call): std::string's members
# are instantiated in the library (libc++'s extern templates), not inlined
# into the engine, and were half of a trace's time in the engine
# (bench/README.md, 2026-12-05). Upstream builds them -Oz; -O2 as the rest of
# Emscripten's libraries, since the engine runs them per cell.
# Usage: wasm/emscripten-cache.sh DIR (a no-op once built; the two libraries
# take 90 s of CPU to compile, 6 minutes on this loaded 2-core machine).
set -euo pipefail
cache=${1:?usage: wasm/emscripten-cache.sh DIR}
cache=$(realpath -m "$cache")
system=$(em-config CACHE)
lib=sysroot/lib/wasm32-emscripten
rebuilt=(libc++-except libc++abi-except)
# Made again when this script changes (its hash is the stamp).
done_mark=$cache/asys-cache.stamp
recipe=$(sha256sum "$0" | cut -d' ' -f1)
[ "$(cat "$done_mark" 2>/dev/null)" = "$recipe" ] && exit 0
rm -rf "$cache"
mkdir -p "$cache/$lib"
# Everything else is Debian's, read in place.
for entry in sysroot/include sysroot/bin sysroot/lib/cmake sysroot/lib/pkgconfig; do
  ln -sfn "$system/$entry" "$cache/$entry"
done
cp "$system/sysroot_install.stamp" "$cache/"
for f in "$system/$lib"/*; do
  name=$(basename "$f")
  case " ${rebuilt[*]} " in *" ${name%.a} "*) continue ;; esac
  ln -sfn "$f" "$cache/$lib/$name"
done
# Emscripten's own recipe for the two libraries (embuilder), its -Oz
# replaced by -O2.
EM_CACHE=$cache EM_FROZEN_CACHE= python3 - "${rebuilt[@]}" <<PY
import os, sys
root = "$(dirname "$(realpath "$(command -v emcc)")")"
sys.path.insert(0, root)
from tools import system_libs
for cls in (system_libs.libcxx, system_libs.libcxxabi):
    cls.cflags = ['-O2' if f == '-Oz' else f for f in cls.cflags]
sys.argv = ['embuilder.py', 'build'] + sys.argv[1:]
import embuilder
sys.exit(embuilder.main())
PY
echo "$recipe" >"$done_mark"

#!/usr/bin/env bash
# Fetches the pinned sources compiled into the WebAssembly engine into the
# git-ignored third_party/ folder, checking their hashes. Natively the engine
# links Debian's libsqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p third_party

# SQLite amalgamation: shipped inside the npm tarball of better-sqlite3.
SQLITE_PKG=better-sqlite3@12.11.1
SQLITE_TGZ_SHA256=ebf0ed75a7a59dbcb3b24bbd014ef49d9f15bc328e4adcbf516f2a8fadfa2835
if [ ! -f third_party/sqlite/sqlite3.c ]; then
  echo "setup: fetching SQLite amalgamation ($SQLITE_PKG)"
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack "$SQLITE_PKG" --silent >/dev/null)
  tgz=$(ls "$tmp"/*.tgz)
  echo "$SQLITE_TGZ_SHA256  $tgz" | sha256sum -c --quiet -
  mkdir -p third_party/sqlite
  tar xzf "$tgz" -C "$tmp" package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
  mv "$tmp"/package/deps/sqlite3/sqlite3.[ch] third_party/sqlite/
  rm -rf "$tmp"
fi

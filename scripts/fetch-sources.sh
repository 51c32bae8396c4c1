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

# PCRE2 for the WebAssembly build: Debian's own source package, fetched with
# a private apt configuration (a deb-src twin of the machine's Debian source
# entries), so the system's apt setup stays untouched. Natively the engine
# links Debian's libpcre2-dev.
PCRE2_VERSION=10.42
PCRE2_ORIG_SHA256=c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f
if [ ! -f third_party/pcre2/CMakeLists.txt ]; then
  echo "setup: fetching PCRE2 $PCRE2_VERSION source (Debian source package)"
  apt_dir=$(mktemp -d)
  chmod 755 "$apt_dir"  # apt downloads as its own user
  mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$apt_dir/dl"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # Keep Debian's own stanzas (those signed by the Debian archive key).
    awk -v RS= -v ORS='\n\n' '/debian-archive-keyring/' "$f" | sed 's/^Types: deb$/Types: deb-src/'
  done > "$apt_dir/parts/asys-src.sources"
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$apt_dir/parts/asys-src.list" || true
  fi
  apt_opts=(-o "Dir::Etc::SourceParts=$apt_dir/parts" -o Dir::Etc::SourceList=/dev/null
            -o "Dir::State::Lists=$apt_dir/lists")
  apt-get "${apt_opts[@]}" update -qq
  # Only the upstream tarball is needed; a missing Debian diff is not an error.
  (cd "$apt_dir/dl" && apt-get "${apt_opts[@]}" source --download-only -qq "pcre2=$PCRE2_VERSION*" 2>/dev/null ||
     apt-get "${apt_opts[@]}" source --download-only -qq pcre2 2>/dev/null || true)
  orig="$apt_dir/dl/pcre2_$PCRE2_VERSION.orig.tar.gz"
  [ -f "$orig" ] || { echo "setup: could not fetch the PCRE2 $PCRE2_VERSION source package" >&2; exit 1; }
  echo "$PCRE2_ORIG_SHA256  $orig" | sha256sum -c --quiet -
  tar xzf "$orig" -C "$apt_dir"
  rm -rf third_party/pcre2
  mv "$apt_dir/pcre2-$PCRE2_VERSION" third_party/pcre2
  rm -rf "$apt_dir"
fi

#!/usr/bin/env bash
# Fetches the pinned third-party sources into the git-ignored third_party/
# folder, checking their hashes: the SQLite amalgamation (compiled into both
# the native engine and the WebAssembly one), and PCRE2, zlib and
# libxlsxwriter for the WebAssembly build.
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

# PCRE2 and zlib for the WebAssembly build: Debian's own source packages,
# fetched with a private apt configuration (a deb-src twin of the machine's
# Debian source entries), so the system's apt setup stays untouched. Natively
# the engine links Debian's libpcre2-dev and zlib1g-dev.
apt_dir=""
apt_opts=()
debian_sources() {
  [ -n "$apt_dir" ] && return
  apt_dir=$(mktemp -d)
  chmod 755 "$apt_dir"  # apt downloads as its own user
  mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial"
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
}

# fetch_debian_source PACKAGE VERSION ORIG_TARBALL SHA256 TOP_DIR DEST: the
# upstream tarball of Debian's source package PACKAGE (version VERSION, else
# the current one), checked against SHA256, its TOP_DIR moved to DEST.
fetch_debian_source() {
  local package=$1 version=$2 orig_name=$3 sha=$4 top=$5 dest=$6
  debian_sources
  local dl="$apt_dir/dl-$package"
  mkdir -p "$dl"
  # Only the upstream tarball is needed; a missing Debian diff is not an error.
  (cd "$dl" && apt-get "${apt_opts[@]}" source --download-only -qq "$package=$version" 2>/dev/null ||
     apt-get "${apt_opts[@]}" source --download-only -qq "$package" 2>/dev/null || true)
  local orig="$dl/$orig_name"
  [ -f "$orig" ] || { echo "setup: could not fetch the $package $version source package" >&2; exit 1; }
  echo "$sha  $orig" | sha256sum -c --quiet -
  tar xf "$orig" -C "$dl"
  rm -rf "$dest"
  mv "$dl/$top" "$dest"
}

PCRE2_VERSION=10.42
PCRE2_ORIG_SHA256=c33b418e3b936ee3153de2c61cc638e7e4fe3156022a5c77d0711bcbb9d64f1f
if [ ! -f third_party/pcre2/CMakeLists.txt ]; then
  echo "setup: fetching PCRE2 $PCRE2_VERSION source (Debian source package)"
  fetch_debian_source pcre2 "$PCRE2_VERSION*" "pcre2_$PCRE2_VERSION.orig.tar.gz" "$PCRE2_ORIG_SHA256" \
    "pcre2-$PCRE2_VERSION" third_party/pcre2
fi

# zlib: bookworm's 1:1.2.13.dfsg-1.
ZLIB_VERSION=1.2.13.dfsg
ZLIB_DEBIAN_VERSION=1:1.2.13.dfsg-1
ZLIB_ORIG_SHA256=71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1
if [ ! -f third_party/zlib/inflate.c ]; then
  echo "setup: fetching zlib $ZLIB_VERSION source (Debian source package)"
  fetch_debian_source zlib "$ZLIB_DEBIAN_VERSION" "zlib_$ZLIB_VERSION.orig.tar.bz2" "$ZLIB_ORIG_SHA256" \
    "zlib-$ZLIB_VERSION" third_party/zlib
fi

# libxlsxwriter: bookworm's 1.1.4-2 (natively Debian's libxlsxwriter-dev, the same version).
XLSX_VERSION=1.1.4
XLSX_DEBIAN_VERSION=1.1.4-2
XLSX_ORIG_SHA256=b379eb35fdd9c653ebe72485b9c992f612c7ea66f732784457997d6e782f619b
if [ ! -f third_party/libxlsxwriter/src/workbook.c ]; then
  echo "setup: fetching libxlsxwriter $XLSX_VERSION source (Debian source package)"
  fetch_debian_source libxlsxwriter "$XLSX_DEBIAN_VERSION" "libxlsxwriter_$XLSX_VERSION.orig.tar.gz" "$XLSX_ORIG_SHA256" \
    "libxlsxwriter-RELEASE_$XLSX_VERSION" third_party/libxlsxwriter
fi

[ -z "$apt_dir" ] || rm -rf "$apt_dir"

# apt-get against one Debian suite through a private sources list, lists and cache (sourced by ci/ scripts).
# shellcheck shell=bash
#
# Packages of another suite (bookworm-backports, trixie) are downloaded and extracted into the cache, never
# installed: the system's sources, lists and dpkg database stay as they are. Same archive, same keyring as
# the system's Debian 12 sources.
#   apt_suite SUITE "DEBARCH..." apt-get|apt-cache args...   e.g. apt_suite trixie riscv64 apt-get download libssl3t64:riscv64
#   apt_suite_update SUITE "DEBARCH..."              fresh indexes; callers run it only when they must download
# Needs CACHE (the cross cache, ~/.cache/shakedown/cross). SHAKEDOWN_DEBIAN_MIRROR overrides the archive.

apt_suite_dir() { echo "$CACHE/apt-$1"; }

apt_suite() {
  local suite=$1 arches=$2 tool=$3
  shift 3
  local dir opts=()
  dir=$(apt_suite_dir "$suite")
  opts=(-o "APT::Architectures::=amd64")
  for a in $arches; do opts+=(-o "APT::Architectures::=$a"); done
  "$tool" -q "${opts[@]}" \
    -o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/sources.list.d" \
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o "APT::Sandbox::User=root" "$@"
}

apt_suite_update() {
  local suite=$1 arches=$2 dir
  dir=$(apt_suite_dir "$suite")
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d"
  local mirror=${SHAKEDOWN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" >"$dir/sources.list"
  echo "apt-suite: apt-get update for $suite ($arches; private lists in $dir)"
  if ! apt_suite "$suite" "$arches" apt-get update >"$dir/update.log" 2>&1; then
    echo "apt-suite: apt-get update of $suite failed (log $dir/update.log):" >&2
    tail -n 5 "$dir/update.log" >&2
    return 1
  fi
}

# apt_suite_version SUITE "DEBARCH..." PACKAGE PATTERN: the newest candidate version of PACKAGE in SUITE that
# matches the extended regex PATTERN (e.g. '^1:10\.0\.'), or nothing.
apt_suite_version() {
  local suite=$1 arches=$2 pkg=$3 pattern=$4
  apt_suite "$suite" "$arches" apt-cache madison "$pkg" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
    { grep -E "$pattern" || true; } | sort -V | tail -n 1
}

# apt_suite_orig_tarball SUITE PACKAGE DEST: the upstream tarball (<package>_<version>.orig.tar.*) of source package
# PACKAGE in SUITE, downloaded into DEST once and checked against the SHA-256 of the suite's Sources index; prints
# its path. Only that tarball is needed, and some mirrors serve it but not the .dsc or the Debian patches, so
# apt-get source's own verdict is not the test: the checksum is.
apt_suite_orig_tarball() {
  local suite=$1 pkg=$2 dest=$3 src=$1-src dir sum size name
  dir=$(apt_suite_dir "$src")
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d" "$dest"
  local mirror=${SHAKEDOWN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" >"$dir/sources.list"
  if [[ ! -f $dir/.updated ]]; then
    apt_suite "$src" "" apt-get update >"$dir/update.log" 2>&1 ||
      { echo "apt-suite: apt-get update of $suite's sources failed (log $dir/update.log)" >&2; return 1; }
    touch "$dir/.updated"
  fi
  read -r sum size name < <(apt_suite "$src" "" apt-cache showsrc "$pkg" 2>/dev/null |
    awk '/^Checksums-Sha256:/ { f = 1; next } /^[^ ]/ { f = 0 } f && $3 ~ /\.orig\.tar\./ { print; exit }') || true
  [[ -n ${name:-} ]] || { echo "apt-suite: no source package $pkg in $suite" >&2; return 1; }
  if ! echo "$sum  $dest/$name" | sha256sum -c --status 2>/dev/null; then
    echo "apt-suite: downloading $name ($((size / 1000000)) MB) from $suite's sources" >&2
    (cd "$dest" && apt_suite "$src" "" apt-get source --download-only "$pkg" >"$dir/source-$pkg.log" 2>&1) || true
    echo "$sum  $dest/$name" | sha256sum -c --status 2>/dev/null ||
      { echo "apt-suite: $name missing or not as $suite's Sources index says (log $dir/source-$pkg.log)" >&2; return 1; }
  fi
  echo "$dest/$name"
}

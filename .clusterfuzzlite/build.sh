#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: the fuzz targets with the engine's own $CC/$CXX/$CFLAGS/$CXXFLAGS and
# $LIB_FUZZING_ENGINE, installed into $OUT with <target>_seed_corpus.zip, <target>.dict and <target>.options.
# ci/fuzz-build-check runs this script outside Docker with OSS-Fuzz-style variables, as `bash build.sh`, which
# ignores the shebang's flags: hence the set below, so that a failed build never goes on to the copy step.
set -euo pipefail

SOURCE_DIR=${SHAKEDOWN_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# Inside the OSS-Fuzz image the script is copied to $SRC; the checkout is $SRC/shakedown.
if [ ! -f "$SOURCE_DIR/fuzz/CMakeLists.txt" ] && [ -n "${SRC:-}" ] && [ -f "$SRC/shakedown/fuzz/CMakeLists.txt" ]; then
  SOURCE_DIR=$SRC/shakedown
fi
BUILD_DIR=${WORK:-/tmp}/shakedown-fuzz-build
TARGETS=$(grep -v '^#' "$SOURCE_DIR/fuzz/targets.txt" | xargs)  # the one list of targets

openssl_args=()
if [ -n "${OPENSSL_ROOT_DIR:-}" ]; then openssl_args=(-DOPENSSL_ROOT_DIR="$OPENSSL_ROOT_DIR" -DOPENSSL_USE_STATIC_LIBS=ON); fi

# Block functions need no edge/cmp coverage (fuzz/coverage_ignorelist.txt says why); only where the
# engine's flags turn sanitizer coverage on.
case "$CFLAGS" in
  *fuzzer-no-link* | *sanitize-coverage*)
    CFLAGS="$CFLAGS -fsanitize-coverage-ignorelist=$SOURCE_DIR/fuzz/coverage_ignorelist.txt"
    CXXFLAGS="$CXXFLAGS -fsanitize-coverage-ignorelist=$SOURCE_DIR/fuzz/coverage_ignorelist.txt" ;;
esac

# No CMAKE_BUILD_TYPE: the engine's flags decide optimisation and instrumentation, nothing is added.
cmake -S "$SOURCE_DIR" -B "$BUILD_DIR" -G Ninja \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DCMAKE_BUILD_TYPE= \
  -DSHAKEDOWN_BUILD_FUZZ=ON -DSHAKEDOWN_BUILD_TESTS=OFF -DSHAKEDOWN_BUILD_BENCH=OFF -DSHAKEDOWN_BUILD_TOOLS=OFF \
  -DSHAKEDOWN_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" "${openssl_args[@]}"
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" --target $TARGETS -j"${FUZZ_BUILD_JOBS:-$(nproc)}"

zip_dir() {  # zip_dir DIR ARCHIVE: the files of DIR at the archive's top level
  if command -v zip >/dev/null; then
    (cd "$1" && zip -q -r "$2" .)
  else
    (cd "$1" && python3 -c 'import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], "w") as z:
    [z.write(f) for f in sorted(os.listdir("."))]' "$2")
  fi
}

for target in $TARGETS; do
  cp "$BUILD_DIR/fuzz/$target" "$OUT/"
  cp "$SOURCE_DIR/fuzz/$target.dict" "$SOURCE_DIR/fuzz/$target.options" "$OUT/"
  rm -f "$OUT/${target}_seed_corpus.zip"
  zip_dir "$SOURCE_DIR/fuzz/corpus/$target" "$OUT/${target}_seed_corpus.zip"
done

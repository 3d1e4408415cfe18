#!/usr/bin/env bash
# The library as outside projects see it (issue #21 items 1-3): installs into a prefix, then builds and runs tiny
# consumers through find_package, add_subdirectory and pkg-config, checks the shared library's exported symbols
# and SONAME, and runs the C and Python ctypes examples. Each consumer prints SHA-256("abc"), which must be the
# FIPS 180-2 Appendix B.1 value. Registered as ctest entries by tests/consumers/consumers.cmake.
#
# Usage: consumer.sh MODE SOURCE_DIR WORK_DIR [BUILD_DIR]
#   environment: CMAKE, CMAKE_GENERATOR, CC, CXX (the parent build's), PYTHON (optional)
#   MODE: install-static (cmake --install BUILD_DIR), install-shared (a shared build of the library and the CLI),
#         find_package-static, find_package-shared, add_subdirectory, pkg_config (a C++ and a C program), symbols,
#         ctypes, cli-shared (the shared install's bin/shakedown, in place and relocated), c_find_package (a C-only
#         CMake project), embed_export (an embedding library with an export set of its own)
set -euo pipefail
mode=$1 source_dir=$2 work=$3 build_dir=${4:-}
abc_sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  # FIPS 180-2 Appendix B.1
cmake=${CMAKE:-cmake}
generator=(-G "${CMAKE_GENERATOR:-Ninja}")
compilers=(-DCMAKE_C_COMPILER="${CC:-cc}" -DCMAKE_CXX_COMPILER="${CXX:-c++}")
mkdir -p "$work"

fail() { echo "consumer.sh $mode: FAILED: $*" >&2; exit 1; }
# check_digest PROGRAM [ARGS...]: runs it, which must exit 0 and print exactly the known digest.
check_digest() {
  local out
  out=$("$@") || fail "$1 exited with status $?"
  [[ $out == "$abc_sha256" ]] || fail "$1 printed '$out', expected $abc_sha256"
  echo "$1: $out (FIPS 180-2 B.1)"
}
quiet() { local log=$work/$mode.log; "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$* (log $log)"; }; }
library() { find "$work/prefix-$1" \( -name "libshakedown.so.*.*.*" -o -name "libshakedown.a" \) -print -quit; }
# MAJOR MINOR of project(shakedown VERSION ...).
project_version() {
  sed -n 's/^project(shakedown VERSION \([0-9]*\)\.\([0-9]*\)\..*/\1 \2/p' "$source_dir/CMakeLists.txt"
}

case $mode in
  install-static)
    # The parent build's own static library, installed as a user would: nothing is rebuilt.
    rm -rf "$work/prefix-static"
    quiet "$cmake" --install "$build_dir" --prefix "$work/prefix-static"
    [[ -n $(library static) ]] || fail "no libshakedown.a installed"
    ;;
  install-shared)
    # The library shared, and the CLI that links it, from the same sources and compilers (the suites are not
    # rebuilt), installed as a user would: into a prefix the loader does not search. A distribution's optimization
    # (RelWithDebInfo: -O2, NDEBUG, the backends' -O3), which decides what the compiler emits and so the exported
    # symbols, without its debug info: nothing here reads it, and it was a third of this build's compile time.
    rm -rf "$work/prefix-shared" "$work/build-shared"
    quiet "$cmake" -S "$source_dir" -B "$work/build-shared" "${generator[@]}" "${compilers[@]}" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DBUILD_SHARED_LIBS=ON -DSHAKEDOWN_BUILD_TESTS=OFF \
      -DSHAKEDOWN_BUILD_BENCH=OFF -DSHAKEDOWN_BUILD_TOOLS=ON -DSHAKEDOWN_BUILD_EMUL=OFF
    quiet "$cmake" --build "$work/build-shared" --target shakedown shakedown_cli
    quiet "$cmake" --install "$work/build-shared" --prefix "$work/prefix-shared"
    [[ -n $(library shared) ]] || fail "no libshakedown.so installed"
    [[ -x $work/prefix-shared/bin/shakedown ]] || fail "no bin/shakedown installed"
    ;;
  cli-shared)
    # The installed CLI must start from its prefix, and from the prefix moved elsewhere: it finds the library
    # relative to itself (RUNPATH $ORIGIN/../lib), never through LD_LIBRARY_PATH or the loader's system paths.
    rm -rf "$work/relocated-shared"
    cp -a "$work/prefix-shared" "$work/relocated-shared"
    for prefix in "$work/prefix-shared" "$work/relocated-shared"; do
      cli=$prefix/bin/shakedown
      out=$(env -u LD_LIBRARY_PATH "$cli" backends 2>&1) || fail "$cli backends exited $?: $out"
      out=$(printf abc | env -u LD_LIBRARY_PATH "$cli" sum -a sha256) || fail "$cli sum exited $?"
      [[ $out == "$abc_sha256  -" ]] || fail "$cli sum printed '$out'"
      loaded=$(env -u LD_LIBRARY_PATH ldd "$cli") || fail "ldd $cli exited $?"
      so=$(sed -n 's/^\s*libshakedown\.so[^ ]* => \([^ ]*\) .*/\1/p' <<<"$loaded")
      [[ -n $so && $(realpath "$so") == "$(realpath "$prefix")"/lib/* ]] ||
        fail "$cli does not load its own prefix's library:"$'\n'"$loaded"
      echo "$cli: starts, SHA-256(abc) right, loads $prefix's libshakedown"
    done
    runpath=$(readelf -d "$work/prefix-shared/bin/shakedown" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [[ $runpath == '$ORIGIN/'* ]] || fail "RUNPATH '$runpath' is not relative to the binary"
    echo "RUNPATH $runpath"
    ;;
  find_package-static | find_package-shared)
    kind=${mode#find_package-} dir=$work/find_package-$kind
    rm -rf "$dir"
    quiet "$cmake" -S "$source_dir/tests/consumers/find_package" -B "$dir" "${generator[@]}" "${compilers[@]}" \
      -DCMAKE_PREFIX_PATH="$work/prefix-$kind"
    quiet "$cmake" --build "$dir"
    check_digest "$dir/consumer"
    if [[ $kind == shared ]]; then
      # ldd's output is read whole first: `ldd | grep -q` under pipefail fails whenever grep's early exit
      # kills ldd with SIGPIPE (it did once in ci/test).
      loaded=$(ldd "$dir/consumer") || fail "ldd $dir/consumer exited with status $?"
      grep -q "$work/prefix-shared/.*libshakedown.so" <<<"$loaded" ||
        fail "consumer does not load the installed .so:"$'\n'"$loaded"
    fi
    # shakedownConfigVersion.cmake (docs/abi.md): this MAJOR.MINOR is accepted (the build above asked for it);
    # another major is refused, and while MAJOR is 0, so is another minor: every 0.MINOR may change the layout of
    # types applications inline (0.2.0 did: sizeof(Hasher) 240 -> 368), so asking for 0.1 must not find 0.2.
    read -r major minor < <(project_version)
    refused=("$((major + 1)).0")
    if [[ $major == 0 ]]; then
      refused+=("0.$((minor + 1))")
      ((minor == 0)) || refused+=("0.$((minor - 1))")
    fi
    for want in "${refused[@]}"; do
      if "$cmake" -S "$source_dir/tests/consumers/find_package" -B "$dir-v$want" "${generator[@]}" "${compilers[@]}" \
           -DCMAKE_PREFIX_PATH="$work/prefix-$kind" -DSHAKEDOWN_WANT="$want" >"$dir-v$want.log" 2>&1; then
        fail "find_package(shakedown $want) accepted the installed $major.$minor"
      fi
      grep -q "is not compatible\|version: $major\.$minor" "$dir-v$want.log" ||
        { cat "$dir-v$want.log"; fail "no version message for $want"; }
      echo "find_package(shakedown $want) refused; $major.$minor accepted"
    done
    ;;
  c_find_package)
    # A C-only project (project(capp LANGUAGES C)) linking the default static install: the target carries the C++
    # runtime the library needs, which no C linker adds by itself (undefined operator new, __cxa_guard_acquire).
    dir=$work/c_find_package
    rm -rf "$dir"
    quiet "$cmake" -S "$source_dir/tests/consumers/c_find_package" -B "$dir" "${generator[@]}" \
      -DCMAKE_C_COMPILER="${CC:-cc}" -DCMAKE_PREFIX_PATH="$work/prefix-static"
    quiet "$cmake" --build "$dir"
    check_digest "$dir/consumer"
    ;;
  add_subdirectory)
    # Neither GoogleTest nor OpenSSL nor Google Benchmark may be found: the defaults must not need them. The
    # backends without their -O3 (SHAKEDOWN_HOT_CODE_FLAGS, most of this build's compile time): what is checked here
    # is what gets built and installed, and one digest.
    dir=$work/add_subdirectory
    rm -rf "$dir" "$dir-prefix"
    quiet "$cmake" -S "$source_dir/tests/consumers/add_subdirectory" -B "$dir" "${generator[@]}" "${compilers[@]}" \
      -DSHAKEDOWN_SOURCE_DIR="$source_dir" -DSHAKEDOWN_HOT_CODE_FLAGS= -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
    quiet "$cmake" --build "$dir"
    check_digest "$dir/consumer"
    extra=$(find "$dir/shakedown" -type f -perm -u+x ! -name "*.so*" ! -name "*.sh" | head -n 5)
    [[ -z $extra ]] || fail "shakedown built executables into the parent's build: $extra"
    # The test hooks and their second copy of the library are the tests' (lib/testing/), never an embedder's.
    extra=$(find "$dir/shakedown" -name "*.a" ! -name "libshakedown.a" | head -n 5)
    [[ -z $extra ]] || fail "shakedown built libraries the parent does not link: $extra"
    quiet "$cmake" --install "$dir" --prefix "$dir-prefix"
    installed=$(cd "$dir-prefix" && find . -type f | sort | tr '\n' ' ')
    [[ $installed == "./bin/consumer " ]] || fail "installing the parent installed more than its program: $installed"
    echo "built and installed nothing of shakedown's but the library it links"
    ;;
  embed_export)
    # An embedding library that installs an export set of its own: with SHAKEDOWN_INSTALL=ON shakedown's target is
    # exported beside it and generation succeeds; without, CMake refuses (docs/abi.md says to turn it on).
    dir=$work/embed_export
    rm -rf "$dir" "$dir-off"
    quiet "$cmake" -S "$source_dir/tests/consumers/embed_export" -B "$dir" "${generator[@]}" "${compilers[@]}" \
      -DSHAKEDOWN_SOURCE_DIR="$source_dir" -DSHAKEDOWN_INSTALL=ON -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON
    grep -rq --include=cmake_install.cmake 'shakedownTargets' "$dir/shakedown" ||
      fail "SHAKEDOWN_INSTALL=ON installs no shakedown export set"
    if "$cmake" -S "$source_dir/tests/consumers/embed_export" -B "$dir-off" "${generator[@]}" "${compilers[@]}" \
         -DSHAKEDOWN_SOURCE_DIR="$source_dir" -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON \
         -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON >"$dir-off.log" 2>&1; then
      fail "an export set linking shakedown::shakedown generated without SHAKEDOWN_INSTALL: the docs are wrong"
    fi
    grep -q "not in any export set\|not in this export set" "$dir-off.log" || { cat "$dir-off.log"; fail "other error"; }
    echo "exports with SHAKEDOWN_INSTALL=ON; without it CMake refuses, as docs/abi.md says"
    ;;
  pkg_config)
    pc=$(find "$work/prefix-static" -name shakedown.pc | head -n 1)
    [[ -n $pc ]] || fail "no shakedown.pc installed"
    export PKG_CONFIG_PATH=${pc%/*}
    # shellcheck disable=SC2046  # the flags are words
    quiet "${CXX:-c++}" -std=c++20 $(pkg-config --cflags shakedown) "$source_dir/tests/consumers/main.cc" \
      -o "$work/pkg_config_consumer" $(pkg-config --libs shakedown)
    check_digest "$work/pkg_config_consumer"
    # C programs through the C API, with the C compiler and the plain command line of the README: the static
    # library's C++ runtime comes with its Libs, no --static needed. Then the whole C API test program.
    # shellcheck disable=SC2046
    quiet "${CC:-cc}" $(pkg-config --cflags shakedown) "$source_dir/tests/consumers/main.c" \
      -o "$work/pkg_config_c_abc" $(pkg-config --libs shakedown)
    check_digest "$work/pkg_config_c_abc"
    # shellcheck disable=SC2046
    quiet "${CC:-cc}" -std=c99 $(pkg-config --cflags --libs shakedown) "$source_dir/tests/c_api/c_api_test.c" \
      -o "$work/pkg_config_c_consumer" $(pkg-config --libs shakedown)
    "$work/pkg_config_c_consumer" | tail -n 1 | grep -E '^[0-9]+ checks passed$' || fail "the C program failed"
    ;;
  ctypes)
    # docs/c-api.md's Python example against the installed shared library.
    rfc4231_case2=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843
    out=$("${PYTHON:-python3}" "$source_dir/tests/consumers/ctypes_example.py" "$(library shared)") ||
      fail "python exited $?"
    echo "$out"
    [[ $(grep -c "^sha256 on .*: $abc_sha256\$" <<<"$out") -ge 1 ]] || fail "no backend gave SHA-256(abc)"
    [[ $(grep -c ": $abc_sha256\$" <<<"$out") == $(grep -cE "^(one-shot sha256|sha256 on)" <<<"$out") ]] ||
      fail "a SHA-256 line is wrong"
    grep -qx "hmac-sha256: $rfc4231_case2" <<<"$out" || fail "HMAC-SHA-256 is not RFC 4231 test case 2"
    grep -qF "backend 'no\\xff\\x1b[2Jsuch'" <<<"$out" || fail "the hostile name is not shown escaped"
    ;;
  symbols)
    # The shared library's dynamic symbol table against the checked-in list (docs/abi.md): a missing public
    # symbol or an extra one (an internal symbol leaking) fails, as does a SONAME other than lib/abi/soname.txt's,
    # which must follow the policy: lib<name>.so.0.<minor> while MAJOR is 0 (each 0.MINOR may break the ABI), then
    # lib<name>.so.<major>.
    so=$(library shared)
    [[ -n $so ]] || fail "no shared library in $work/prefix-shared"
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    read -r major minor < <(project_version)
    policy=libshakedown.so.$major
    [[ $major != 0 ]] || policy=libshakedown.so.0.$minor
    listed=$(grep -vE '^(#|$)' "$source_dir/lib/abi/soname.txt")
    [[ $listed == "$policy" ]] || fail "lib/abi/soname.txt says '$listed'; version $major.$minor's SONAME is $policy"
    [[ $soname == "$policy" ]] || fail "SONAME '$soname', expected $policy"
    [[ -L $(dirname "$so")/$soname ]] || fail "no $soname link beside $so"
    nm -D --defined-only -C "$so" | sed -E 's/^[0-9a-f]+ [A-Za-z] //' | sort -u >"$work/exported.txt"
    grep -vE '^(#|$)' "$source_dir/lib/abi/exported_symbols.txt" | sort -u >"$work/expected.txt"
    tolerated=$(grep -vE '^(#|$)' "$source_dir/lib/abi/toolchain_symbols.txt" | paste -sd'|')
    missing=$(comm -13 "$work/exported.txt" "$work/expected.txt")
    extra=$(comm -23 "$work/exported.txt" "$work/expected.txt" | { grep -vE "$tolerated" || true; })
    [[ -z $missing ]] || fail "public symbols not exported:"$'\n'"$missing"
    [[ -z $extra ]] || fail "symbols exported but not in lib/abi/exported_symbols.txt:"$'\n'"$extra"
    echo "SONAME $soname; $(wc -l <"$work/expected.txt") exported symbols as listed"
    ;;
  *) fail "unknown mode" ;;
esac

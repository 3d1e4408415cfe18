# Shared shell helpers for ci/ scripts: progress lines with elapsed time, step accounting, ctest parsing.
# shellcheck shell=bash

CI_START=${CI_START:-$(date +%s)}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ROOT

elapsed() {
  local s=$(( $(date +%s) - CI_START ))
  printf '%02d:%02d' $((s / 60)) $((s % 60))
}

# step "i/N" "what": a progress line that says which step, how far, and how long so far.
step() {
  printf '\n\033[1m==> [%s] %s  (elapsed %s)\033[0m\n' "$1" "$2" "$(elapsed)"
}

note() { printf '    %s\n' "$*"; }

# Totals across every ctest run and build of this script.
TOTAL_PASSED=0
TOTAL_FAILED=0
TOTAL_SKIPPED=0
FAILED_WHAT=()

fail_step() {
  TOTAL_FAILED=$((TOTAL_FAILED + 1))
  FAILED_WHAT+=("$1")
  printf '    FAILED: %s\n' "$1"
}

# run_ctest LABEL BUILD_DIR [ctest args...]: runs ctest, prints its tail, adds its counts to the totals.
run_ctest() {
  local label=$1 dir=$2
  shift 2
  local log="$dir/ctest-${label//\//_}.log"
  ctest --test-dir "$dir" --output-on-failure --timeout 1200 "$@" >"$log" 2>&1
  local rc=$?
  grep -E '^(The following tests|[[:space:]]+[0-9]+ - |[0-9]+% tests passed)' "$log" | sed 's/^/    /'
  local line passed total failed skipped
  line=$(grep -E '[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1)
  if [[ -z $line ]]; then
    if grep -q 'No tests were found' "$log"; then
      fail_step "$label: ctest found no tests"
    else
      tail -n 30 "$log" | sed 's/^/    /'
      fail_step "$label: ctest did not complete (rc $rc, log $log)"
    fi
    return 1
  fi
  failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
  skipped=$(grep -cE '\*\*\*Skipped|Not Run' "$log")
  passed=$((total - failed - skipped))
  TOTAL_PASSED=$((TOTAL_PASSED + passed))
  TOTAL_FAILED=$((TOTAL_FAILED + failed))
  TOTAL_SKIPPED=$((TOTAL_SKIPPED + skipped))
  ((failed > 0)) && FAILED_WHAT+=("$label: $failed ctest failures (log $log)")
  note "$label: $passed passed, $failed failed, $skipped skipped"
  return $((failed > 0))
}

# build_preset PRESET [extra cmake -D args...]: configure + build; a failure counts as one failed step.
build_preset() {
  local preset=$1
  shift
  local dir="$ROOT/build/$preset" log
  mkdir -p "$dir"
  log="$dir/build.log"
  # SHAKEDOWN_TEST_BREAK= and SHAKEDOWN_EMUL_TEST_BREAK= first: a tree an earlier run configured with a
  # deliberately broken backend or emulator model (ci/verify --break, ci/cross-test -DSHAKEDOWN_TEST_BREAK=...)
  # goes back to the real code unless the caller's arguments break it again.
  if ! cmake --preset "$preset" -S "$ROOT" -DSHAKEDOWN_TEST_BREAK= -DSHAKEDOWN_EMUL_TEST_BREAK= "$@" >"$log" 2>&1; then
    tail -n 40 "$log" | sed 's/^/    /'
    fail_step "configure $preset (log $log)"
    return 1
  fi
  if ! cmake --build --preset "$preset" >>"$log" 2>&1; then
    grep -E 'error|FAILED' "$log" | head -n 40 | sed 's/^/    /'
    fail_step "build $preset (log $log)"
    return 1
  fi
  note "built $preset in $dir"
}

summary() {
  echo
  if ((${#FAILED_WHAT[@]})); then
    echo "Failures:"
    printf '  - %s\n' "${FAILED_WHAT[@]}"
  fi
  echo "total time $(elapsed)"
  if ((TOTAL_SKIPPED > 0)); then
    echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed, $TOTAL_SKIPPED skipped"
  else
    echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
  fi
}

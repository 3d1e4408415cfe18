// What every runner needs from the environment: the available backends per family, fetched once.
#pragma once

#include <string>
#include <vector>

#include "shakedown/algorithm.h"

namespace shakedown::fuzz {

// available_backends(family), cached: the set only changes when features are assumed, which
// happens once in initialize() before the first input.
const std::vector<std::string>& backends_of(Family family);

// Counts one plan executed on backends_of(family)[index]. At exit the totals become execution
// records (suite "fuzz", tests/support/records.h) for the backend coverage gate.
void count_run(Family family, std::size_t index);
// Writes the counts (and any failure recorded) now: a run about to abort() on a mismatch calls it.
void write_run_records();
// Counts one plan in which that backend's multi-lane function ran (suite "fuzz-multi").
void count_lanes_run(Family family, std::size_t index);

// LLVMFuzzerInitialize body shared by all targets, the standalone driver and shakedown-repro:
// installs the emulators (when linked) and SHAKEDOWN_TEST_ASSUME, prints the backends, and exits with
// status 3 unless the registry selected what SHAKEDOWN_EXPECT_SELECTED says (as the test main does).
void initialize(bool verbose);

}  // namespace shakedown::fuzz

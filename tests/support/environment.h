// What the test and fuzz mains read from the environment: the selection the matrix expects, and the scale.
#pragma once

#include <cstddef>
#include <string>

namespace shakedown::test {

// SHAKEDOWN_EXPECT_SELECTED="sha256=x86_64/avx2,keccak=generic" (select= of ci/matrix/<arch>.txt): empty when
// the registry selected exactly these, else the first mismatch. A backend this build does not compile
// (SHAKEDOWN_NO_<ISA>) cannot be selected: its family is not asserted, and `notes` says so (the coverage gate
// reports the backend as not built). Each asserted item is appended to `notes` too.
std::string check_expected_selection(std::string& notes);

// The environment a run prints first: oracle, CPU features, assumed features, per family the selected and the
// available backends.
std::string describe_environment(const std::string& assumed);

// Iteration scaling: SHAKEDOWN_TEST_SCALE (default 1; ci/verify --deep raises it; QEMU runs lower it
// with values below 1, e.g. 0.1). Never returns less than `minimum`.
std::size_t scaled(std::size_t iterations, std::size_t minimum = 1);

}  // namespace shakedown::test

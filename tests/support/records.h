// Execution records for the backend coverage gate (ci/verify_report.py): which check ran how often on which
// backend, which backends this binary compiles, and which tests failed and whose output was wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "shakedown/algorithm.h"

namespace shakedown::test {

// Counts that `check` ran `count` times on family/backend. When SHAKEDOWN_RECORD names a file, the totals are
// appended to it at exit as JSON lines (built with nlohmann::json; format_record writes the same fields for the
// drivers that must not allocate):
//   {"suite":"vectors","family":"sha256","backend":"x86_64/shani","check":"ShortMsg","count":65,"env":"...","arch":"..."}
void record(std::string_view suite, Family family, std::string_view backend, std::string_view check,
            std::uint64_t count = 1);
void record(std::string_view suite, Algorithm alg, std::string_view backend, std::string_view check,
            std::uint64_t count = 1);
// Records every backend this build compiles (suite "compiled", check "available" or "unavailable"): the gate
// fails for a compiled backend that no environment of the matrix requires.
void record_compiled_backends();

// Names a backend whose output was wrong in the test now running. A test that runs several backends (a
// handoff from one to another) calls this for the culprits it finds; otherwise the test's own parameter
// ("<algorithm>__<backend>") names the backend.
void charge_failure(Family family, std::string_view backend);
// Forgets the charges (a test starts).
void clear_charges();
// Records a failed test (suite "failure", check = the test's full name), once per backend charged, or once
// without a backend when none was (the report then reads the backend from the test's parameter).
void record_failure(std::string_view test_name);

// The arch the records are tagged with (a NAME of ci/arches.txt, set by CMake): the target this binary was
// compiled for, so the report groups its matrix per arch without guessing from environment names.
const char* record_arch() noexcept;
// One record line, written into buf without allocating (tests/msan_check.cc uses it too); returns its length,
// or 0 when it does not fit.
std::size_t format_record(char* buf, std::size_t room, std::string_view suite, std::string_view family,
                          std::string_view backend, std::string_view check, std::uint64_t count,
                          const char* env) noexcept;
// Appends len bytes of whole record lines to path under an exclusive lock (parallel suites share the file).
// No allocation and no iostreams: tests/msan_check.cc uses it too. False when the file cannot be written.
bool append_records(const char* path, const char* text, std::size_t len) noexcept;
// Writes the records now (also done automatically at exit).
void flush_records();

}  // namespace shakedown::test

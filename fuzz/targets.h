// The fuzz targets as data: name -> decode + describe + run, used by the entry points and shakedown-repro.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "verdict.h"

namespace shakedown::fuzz {

struct Outcome {
  bool decoded = false;
  std::string why_not;           // when !decoded: why the input is not a plan
  std::string plan_description;  // describe(plan), filled only when asked or on a mismatch
  Verdict verdict;
};

struct Target {
  std::string_view name;  // "fuzz_hash": the binary, corpus folder and .dict/.options stem
  std::string_view what;  // one line for --help and the README
  Outcome (*run)(std::span<const std::uint8_t> input, bool always_describe);
};

std::span<const Target> all_targets();
const Target* find_target(std::string_view name);

// LLVMFuzzerTestOneInput body: an undecodable input is skipped; a mismatch prints the report
// (algorithm, disagreeing backends, plan, first differing byte) to stderr and calls abort().
int fuzz_one(const Target& target, const std::uint8_t* data, std::size_t size);

}  // namespace shakedown::fuzz

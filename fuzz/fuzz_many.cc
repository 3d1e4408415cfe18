// libFuzzer entry points of fuzz_many (the plan, runner and report live in the shared fuzz core).
#include <cstddef>
#include <cstdint>

#include "run_context.h"
#include "targets.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  shakedown::fuzz::initialize(true);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const shakedown::fuzz::Target& target = *shakedown::fuzz::find_target("fuzz_many");
  return shakedown::fuzz::fuzz_one(target, data, size);
}

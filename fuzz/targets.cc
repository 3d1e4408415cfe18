// Target table and the shared abort-on-mismatch entry body.
#include "targets.h"

#include <array>
#include <cstdio>
#include <cstdlib>

#include "fuzz_target_names.h"
#include "run_context.h"
#include "runners.h"
#include "support.h"

namespace shakedown::fuzz {
namespace {

// decode -> run -> (describe when needed), the same for every plan type.
template <class Plan, std::optional<Plan> (*Decode)(std::span<const std::uint8_t>, std::string*),
          Verdict (*Run)(const Plan&)>
Outcome run_target(std::span<const std::uint8_t> input, bool always_describe) {
  Outcome o;
  std::optional<Plan> plan = Decode(input, &o.why_not);
  if (!plan) return o;
  o.decoded = true;
  o.verdict = Run(*plan);
  if (always_describe || !o.verdict.ok()) o.plan_description = describe(*plan);
  return o;
}

constexpr std::array<Target, std::size(kTargetNames)> kTargets = {{
    {"fuzz_hash", "message API: chunked updates, alignment, clone, handoff, squeezes, HMAC vs OpenSSL",
     run_target<HashPlan, decode_hash_plan, run_hash_plan>},
    {"fuzz_blocks", "block functions from random states, whole and split across backends, vs generic",
     run_target<BlocksPlan, decode_blocks_plan, run_blocks_plan>},
    {"fuzz_api", "random API operation sequences and misuse vs the documented error contract",
     run_target<ApiPlan, decode_api_plan, run_api_plan>},
    {"fuzz_many", "hash_many(): N messages of unequal lengths, after a prefix fed in updates, vs OpenSSL per message",
     run_target<ManyPlan, decode_many_plan, run_many_plan>},
}};

// The table holds fuzz/targets.txt's targets, in its order: the one list the build, the matrix and the scripts read.
constexpr bool same_as_the_list() {
  if (std::size(kTargetNames) != kTargets.size()) return false;
  for (std::size_t i = 0; i < kTargets.size(); ++i)
    if (kTargets[i].name != kTargetNames[i]) return false;
  return true;
}
static_assert(same_as_the_list(), "fuzz/targets.cc's table and fuzz/targets.txt name different targets");

}  // namespace

std::span<const Target> all_targets() { return kTargets; }

const Target* find_target(std::string_view name) {
  for (const Target& t : kTargets)
    if (t.name == name) return &t;
  return nullptr;
}

int fuzz_one(const Target& target, const std::uint8_t* data, std::size_t size) {
  Outcome o = target.run({data, size}, false);
  if (o.decoded && !o.verdict.ok()) {
    std::fprintf(stderr, "%s: %s", std::string(target.name).c_str(),
                 format_report(o.verdict, o.plan_description).c_str());
    std::fflush(stderr);
    // abort() skips the exit-time records: write them now, with the failure charged to the backends whose
    // output was wrong, so the coverage report shows it in this environment's fuzz column.
    if (o.verdict.family)
      for (const std::string& backend : o.verdict.culprits()) test::charge_failure(*o.verdict.family, backend);
    test::record_failure(std::string(target.name) + ": " + o.verdict.subject);
    write_run_records();
    std::abort();
  }
  return 0;
}

}  // namespace shakedown::fuzz

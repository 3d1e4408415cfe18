// Decoder and describe() for fuzz_api plans; shared by the fuzz targets and shakedown-repro.
#include "api_plan.h"

#include <cstdio>

#include "byte_reader.h"
#include "verdict.h"

namespace shakedown::fuzz {
namespace {

constexpr std::size_t kMaxOps = 32;
constexpr std::size_t kMaxText = 64;

using Kind = ApiOp::Kind;

bool takes_alg(Kind k) { return k == Kind::create || k == Kind::hmac_create || k == Kind::oneshot; }
bool takes_len(Kind k) { return k == Kind::squeeze || k == Kind::final || k == Kind::oneshot; }
bool takes_bytes(Kind k) {
  return k == Kind::update || k == Kind::hmac_create || k == Kind::hmac_update || k == Kind::oneshot ||
         k == Kind::environment || k == Kind::parse_name;
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::create: return "create";
    case Kind::update: return "update";
    case Kind::update_null: return "update(nullptr)";
    case Kind::final: return "final";
    case Kind::squeeze: return "squeeze";
    case Kind::clone: return "clone";
    case Kind::reset: return "reset";
    case Kind::rebind: return "rebind";
    case Kind::hmac_create: return "hmac create";
    case Kind::hmac_update: return "hmac update";
    case Kind::hmac_final: return "hmac final";
    case Kind::hmac_verify: return "hmac verify";
    case Kind::hmac_clone: return "hmac clone";
    case Kind::hmac_reset: return "hmac reset";
    case Kind::oneshot: return "one-shot hash";
    case Kind::environment: return "SHAKEDOWN_BACKENDS";
    case Kind::parse_name: return "parse name";
    case Kind::count_: break;
  }
  return "?";
}

std::string printable(const std::vector<std::uint8_t>& bytes) {
  std::string s;
  for (std::uint8_t b : bytes) {
    if (b >= 0x20 && b < 0x7f && b != '\\' && b != '"') {
      s.push_back(static_cast<char>(b));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", b);
      s += buf;
    }
  }
  return "\"" + s + "\"";
}

}  // namespace

std::optional<ApiPlan> decode_api_plan(std::span<const std::uint8_t> input, std::string* why) {
  if (input.empty()) {
    if (why) *why = "input is empty; an API plan needs at least one operation byte";
    return std::nullopt;
  }
  ByteReader in(input);
  ApiPlan plan;
  while (!in.exhausted() && plan.ops.size() < kMaxOps) {
    ApiOp op;
    op.kind = static_cast<Kind>(in.u8() % static_cast<std::uint8_t>(Kind::count_));
    const std::uint8_t arg = in.u8();
    const bool hmac = op.kind >= Kind::hmac_create && op.kind <= Kind::hmac_reset;
    op.slot = (arg & 3u) % (hmac ? kHmacSlots : kHasherSlots);
    op.slot2 = ((arg >> 2) & 3u) % (hmac ? kHmacSlots : kHasherSlots);
    op.choice = arg >> 4;
    if (takes_alg(op.kind)) op.alg = kAllAlgorithms[in.u8() % kAllAlgorithms.size()];
    if (takes_len(op.kind)) op.len = in.u8();
    if (takes_bytes(op.kind))
      op.bytes = in.bytes(op.kind == Kind::environment || op.kind == Kind::parse_name ? in.u8() % (kMaxText + 1)
                                                                                      : in.u8());
    plan.ops.push_back(std::move(op));
  }
  return plan;
}

std::string describe(const ApiOp& op) {
  std::string s(kind_name(op.kind));
  const bool hmac = op.kind >= Kind::hmac_create && op.kind <= Kind::hmac_reset;
  if (op.kind != Kind::environment && op.kind != Kind::parse_name && op.kind != Kind::oneshot)
    s += std::string(hmac ? " hmac#" : " slot#") + std::to_string(op.slot);
  if (op.kind == Kind::clone || op.kind == Kind::hmac_clone) s += " into #" + std::to_string(op.slot2);
  if (takes_alg(op.kind)) s += " " + std::string(name(op.alg));
  s += " choice=" + std::to_string(op.choice);
  if (takes_len(op.kind)) s += " len=" + std::to_string(op.len);
  if (op.kind == Kind::environment || op.kind == Kind::parse_name)
    s += " text=" + printable(op.bytes);
  else if (takes_bytes(op.kind))
    s += " " + std::to_string(op.bytes.size()) + " data bytes";
  return s;
}

std::string describe(const ApiPlan& plan) {
  std::string s;
  for (std::size_t i = 0; i < plan.ops.size(); ++i) s += "  #" + std::to_string(i) + " " + describe(plan.ops[i]) + "\n";
  if (plan.ops.empty()) s += "  (no operations)\n";
  return s;
}

}  // namespace shakedown::fuzz

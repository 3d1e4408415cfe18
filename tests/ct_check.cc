// Constant-time suite: secrets marked for MemorySanitizer or Valgrind memcheck, which report any branch or
// memory address computed from them.
//
// Every algorithm through every backend the tool can run: the message, the HMAC key and the hashing state
// are marked secret (lib/src/internal/constant_time.h); the library hashes, MACs (keys around the block
// size, longer ones hashed first), verifies right, wrong and truncated tags and squeezes, and hashes many
// messages at once on every row's lanes (hash_many, fresh and after a secret prefix). A branch or an
// address computed from a secret anywhere on the way is reported by the tool, naming the source line, and
// fails the run (MSan halts; Valgrind exits with --error-exitcode). Only outputs are declassified, and only
// after checking that every output byte still carries the mark: a mark lost on the way (asm that MSan cannot
// see through, a copy through uninstrumented code) would leave the rest of the path unchecked, so that
// fails the run too. The verdict of Hmac::verify is the one value the library declassifies itself; this
// driver branches on it, so a verdict left secret would be reported here.
//
// tests/ct_check.cmake also links this driver over a library with two deliberate leaks
// (lib/src/internal/test_leak.h) and requires both tools to name both lines: the proof that a run can fail.
// Like tests/msan_check.cc it uses no iostreams, no std::string and no GoogleTest (libstdc++ is not
// instrumented for MSan), and the library is compiled exactly as in the preset it belongs to.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

#include "internal/constant_time.h"
#include "shakedown/backend.h"
#include "shakedown/hash.h"
#include "shakedown/hmac.h"
#include "shakedown/testing.h"
#include "support.h"

#if defined(SHAKEDOWN_INTERNAL_MSAN)
constexpr const char* kTool = "MemorySanitizer";
#elif defined(SHAKEDOWN_CT_VALGRIND)
constexpr const char* kTool = "Valgrind memcheck";
#else
#error "tests/ct_check.cc checks nothing without MemorySanitizer or SHAKEDOWN_CT_VALGRIND (tests/ct_check.cmake)"
#endif

namespace {

using shakedown::Algorithm;
using shakedown::Family;

constexpr std::size_t kMaxMessage = 5 * shakedown::kMaxBlockSize + 8;
constexpr std::size_t kMaxOut = 3 * shakedown::kMaxBlockSize;
std::uint8_t g_pattern[kMaxMessage + 32];  // public bytes; secrets are marked copies of them (from offsets < 32)
int g_failures = 0;
unsigned long long g_checks = 0;
shakedown::test::RecordBuffer g_records;

// Whether the tool is watching: a Valgrind build run without Valgrind would pass having checked nothing.
bool tool_active() {
#if defined(SHAKEDOWN_CT_VALGRIND)
  return RUNNING_ON_VALGRIND != 0;
#else
  return true;
#endif
}

// True when every byte of [p, p + n) still carries the secret mark (some bit of it unknown to the tool).
bool all_secret(const std::uint8_t* p, std::size_t n) {
#if defined(SHAKEDOWN_INTERNAL_MSAN)
  for (std::size_t i = 0; i < n; ++i)
    if (__msan_test_shadow(p + i, 1) != 0) return false;  // 0: the byte is poisoned; -1: it is not
  return true;
#else
  std::uint8_t vbits[kMaxOut];  // memcheck's validity bits: 1 = undefined
  if (n > sizeof vbits || VALGRIND_GET_VBITS(p, vbits, n) != 1) return false;
  for (std::size_t i = 0; i < n; ++i)
    if (vbits[i] == 0) return false;
  return true;
#endif
}

void fail(const char* what, Algorithm alg, std::string_view backend, std::size_t len) {
  ++g_failures;
  std::fprintf(stderr, "FAILED %s: %.*s via %.*s, length %zu\n", what, static_cast<int>(shakedown::name(alg).size()),
               shakedown::name(alg).data(), static_cast<int>(backend.size()), backend.data(), len);
}

// A secret copy of len pattern bytes starting at `from`, in `buf`.
const std::uint8_t* secret_copy(std::uint8_t* buf, std::size_t from, std::size_t len) {
  std::memcpy(buf, g_pattern + from, len);
  SHAKEDOWN_CT_SECRET(buf, len);
  return buf;
}

// An output computed from a secret: it must still be marked in every byte; then it is public.
void publish(std::uint8_t* out, std::size_t n, Algorithm alg, std::string_view backend, std::size_t len) {
  if (!all_secret(out, n)) fail("output lost the secret mark (what followed went unchecked)", alg, backend, len);
  SHAKEDOWN_CT_DECLASSIFY(out, n);
  ++g_checks;
}

// Deterministic split sizes (xorshift), so that a report reproduces.
std::uint32_t next_random(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

// The lengths where framing changes path: one byte, the longest message whose padding fits its block and
// the shortest that does not (FIPS 180-4 §5.1: 0x80 and the 8- or 16-byte length; FIPS 202 §5.1: at least
// one pad byte), a block minus one, a block, a block plus one, and several blocks (AVX2 pairs, odd counts).
std::array<std::size_t, 8> framing_lengths(Algorithm alg) {
  const std::size_t b = shakedown::block_size(alg);
  const std::size_t pad = shakedown::family_of(alg) == Family::keccak   ? 1
                          : shakedown::family_of(alg) == Family::sha256 ? 9
                                                                        : 17;
  return {1, b - pad, b - pad + 1, b - 1, b, b + 1, 2 * b + 3, 5 * b + 7};
}

std::size_t out_len(Algorithm alg) {
  return shakedown::is_xof(alg) ? 2 * shakedown::block_size(alg) + 5 : shakedown::digest_size(alg);
}

// Finishes a context: the digest, or for SHAKE squeezes in uneven pieces across rate boundaries, each
// piece published on its own (a squeeze must not branch on the state it reads out).
void finish(shakedown::Hasher& h, Algorithm alg, std::string_view backend, std::size_t len, std::uint32_t& seed) {
  std::uint8_t out[kMaxOut];
  const std::size_t n = out_len(alg);
  if (!shakedown::is_xof(alg)) {
    h.final(out, n);
    publish(out, n, alg, backend, len);
    return;
  }
  for (std::size_t done = 0; done < n;) {
    std::size_t piece = 1 + next_random(seed) % 97;
    if (piece > n - done) piece = n - done;
    h.squeeze(out + done, piece);
    publish(out + done, piece, alg, backend, len);
    done += piece;
  }
}

// Hashing a secret message: one-shot, and streamed in random pieces.
void check_hash(Algorithm alg, std::string_view backend, std::size_t len, std::uint32_t& seed) {
  std::uint8_t msg[kMaxMessage];
  std::uint8_t out[kMaxOut];
  shakedown::hash(alg, backend, {secret_copy(msg, 0, len), len}, {out, out_len(alg)});
  publish(out, out_len(alg), alg, backend, len);

  shakedown::Hasher h(alg, backend);
  secret_copy(msg, 0, len);
  for (std::size_t done = 0; done < len;) {
    std::size_t piece = next_random(seed) % 150;
    if (piece > len - done) piece = len - done;
    h.update(msg + done, piece);
    done += piece;
  }
  finish(h, alg, backend, len, seed);
}

// A context whose state is secret although the bytes that follow are public (as after a secret prefix):
// the chaining value or sponge lanes and the buffered block are marked; the counters, buffer fill and
// sponge position stay public, as the framing is entitled to branch on them.
void check_secret_state(Algorithm alg, std::string_view backend, std::size_t prefix, std::uint32_t& seed) {
  shakedown::Hasher h(alg, backend);
  h.update(g_pattern, prefix);
  auto* state = const_cast<std::uint8_t*>(shakedown::testing::raw_state(h).data());
  using shakedown::detail::KeccakState;
  using shakedown::detail::Sha256State;
  using shakedown::detail::Sha512State;
  switch (shakedown::family_of(alg)) {
    case Family::sha256:
      SHAKEDOWN_CT_SECRET(state + offsetof(Sha256State, h), sizeof(Sha256State::h));
      SHAKEDOWN_CT_SECRET(state + offsetof(Sha256State, buf), sizeof(Sha256State::buf));
      break;
    case Family::sha512:
      SHAKEDOWN_CT_SECRET(state + offsetof(Sha512State, h), sizeof(Sha512State::h));
      SHAKEDOWN_CT_SECRET(state + offsetof(Sha512State, buf), sizeof(Sha512State::buf));
      break;
    case Family::keccak: SHAKEDOWN_CT_SECRET(state + offsetof(KeccakState, lanes), sizeof(KeccakState::lanes)); break;
  }
  h.update(g_pattern + prefix, 3 * shakedown::block_size(alg) / 2);
  finish(h, alg, backend, prefix, seed);
}

// HMAC with a secret key and message (FIPS 198-1 §4: keys up to B bytes are padded, longer ones hashed
// first), then verify with the right tag, tags wrong in the first or last byte, and truncated tags.
void check_hmac(Algorithm alg, std::string_view backend, std::size_t keylen, std::size_t len) {
  const std::size_t L = shakedown::digest_size(alg);
  std::uint8_t key[kMaxMessage];
  std::uint8_t msg[kMaxMessage];
  secret_copy(key, 11, keylen);
  const shakedown::Hmac keyed(alg, {key, keylen}, backend);
  shakedown::Hmac mac = keyed;
  mac.update(secret_copy(msg, 0, len), len / 3).update(msg + len / 3, len - len / 3);
  shakedown::Hmac for_verify = mac;  // the same key and message, not yet finalized

  std::uint8_t tag[shakedown::kMaxDigestSize];
  mac.final({tag, L});
  publish(tag, L, alg, backend, keylen);

  struct Case {
    const char* what;
    std::size_t flip;  // byte to corrupt, or L for none
    std::size_t n;     // tag length presented
    bool expected;
  };
  const Case cases[] = {
      {"verify rejected the right tag", L, L, true},
      {"verify accepted a tag wrong in its first byte", 0, L, false},
      {"verify accepted a tag wrong in its last byte", L - 1, L, false},
      {"verify rejected the right truncated tag", L, L / 2, true},
      {"verify accepted a truncated tag wrong in its last byte", L / 2 - 1, L / 2, false},
  };
  for (const Case& c : cases) {
    std::uint8_t presented[shakedown::kMaxDigestSize];
    std::memcpy(presented, tag, L);
    if (c.flip < L) presented[c.flip] ^= 0x01;
    shakedown::Hmac v = for_verify;
    const bool ok = c.n == L ? v.verify({presented, L}) : v.verify_truncated({presented, c.n}, c.n);
    if (ok != c.expected) fail(c.what, alg, backend, keylen);  // a branch on the verdict: it must be public
    ++g_checks;
  }
}

// hash_many() on a row's lanes: lanes + 1 secret messages of the framing lengths (so the lanes and the tail that
// the single-message code takes both run), from the empty message and after a secret-state prefix (a salt or key
// shared by every message). Each output is published on its own.
void check_many(Algorithm alg, std::string_view backend, std::size_t lanes, std::uint32_t& seed) {
  constexpr std::size_t kMaxMessages = 17;  // 16 lanes + 1
  const std::size_t count = lanes + 1 < kMaxMessages ? lanes + 1 : kMaxMessages;
  const auto lengths = framing_lengths(alg);
  static std::uint8_t msgs[kMaxMessages][kMaxMessage];
  static std::uint8_t outs[kMaxMessages][kMaxOut];
  std::span<const std::uint8_t> in[kMaxMessages];
  std::span<std::uint8_t> out[kMaxMessages];
  const std::size_t n = out_len(alg);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t len = lengths[(i + next_random(seed)) % lengths.size()];
    in[i] = {secret_copy(msgs[i], i, len), len};
    out[i] = {outs[i], n};
  }
  shakedown::hash_many(alg, backend, {in, count}, {out, count});
  for (std::size_t i = 0; i < count; ++i) publish(outs[i], n, alg, backend, in[i].size());

  std::uint8_t salt[kMaxMessage];
  const std::size_t salt_len = shakedown::block_size(alg) + 5;  // a whole block absorbed, the rest buffered
  shakedown::Hasher prefix(alg, backend);
  prefix.update(secret_copy(salt, 3, salt_len), salt_len);
  for (std::size_t i = 0; i < count; ++i) secret_copy(msgs[i], i, in[i].size());
  shakedown::hash_many(prefix, {in, count}, {out, count});
  for (std::size_t i = 0; i < count; ++i) publish(outs[i], n, alg, backend, in[i].size());
}

// Every check for one (algorithm, backend); returns how many outputs and verdicts it checked.
unsigned long long check_backend(Algorithm alg, std::string_view backend, std::size_t lanes) {
  const unsigned long long before = g_checks;
  std::uint32_t seed = 0x9e3779b9u ^ static_cast<std::uint32_t>(alg);
  const auto lengths = framing_lengths(alg);
  for (std::size_t len : lengths) check_hash(alg, backend, len, seed);
  const std::size_t b = shakedown::block_size(alg);
  check_secret_state(alg, backend, b / 2 + 3, seed);  // part of a block buffered
  check_secret_state(alg, backend, b, seed);          // at a block boundary
  if (!shakedown::is_xof(alg)) {
    const std::size_t keylens[] = {1, b - 1, b, b + 1, 2 * b + 1};
    for (std::size_t i = 0; i < std::size(keylens); ++i) check_hmac(alg, backend, keylens[i], lengths[i]);
  }
  if (lanes != 0) check_many(alg, backend, lanes, seed);
  return g_checks - before;
}

// Every backend of every family: run or, when this CPU (as the tool presents it) lacks it, say so.
void check_all_backends() {
  using shakedown::test::print_backend_row;
  // Valgrind hides from CPUID what it cannot execute (SHA-NI, AVX-512 in 3.19). A backend not run is recorded with
  // the reason, so that the report says which tool could not cover it, never that it passed.
  auto not_run = [](Family family, const auto& b) {
    char reason[160];
    std::snprintf(reason, sizeof reason, "not run: unavailable under %s on this CPU (needs %.*s)", kTool,
                  static_cast<int>(b.info.needs.size()), b.info.needs.data());
    print_backend_row(family, b.info.name, reason);
    if (!g_records.add("ct", family, b.info.name, reason, 0)) std::exit(2);
  };
  auto run = [](Family family, const auto& b) {
    for (Algorithm alg : shakedown::kAllAlgorithms) {
      if (shakedown::family_of(alg) != family) continue;
      if (!g_records.report("ct", alg, b.info.name, "constant-time", check_backend(alg, b.info.name, b.multi.lanes)))
        std::exit(2);
    }
  };
  shakedown::test::for_each_backend(not_run, run);
}

}  // namespace

int main() {
  if (!tool_active()) {
    std::fprintf(stderr, "ct_check: built for %s but not running under it: nothing would be checked\n", kTool);
    return 2;
  }
  for (std::size_t i = 0; i < std::size(g_pattern); ++i) g_pattern[i] = static_cast<std::uint8_t>(i * 131 + (i >> 8));
  std::printf("ct_check: secrets marked for %s\n", kTool);
  check_all_backends();
  if (!g_records.flush()) return 2;
  std::printf("ct_check: %llu outputs and verdicts checked, %d failures\n", g_checks, g_failures);
  return g_failures == 0 && g_checks > 0 ? 0 : 1;
}

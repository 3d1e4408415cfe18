// The Zvk model on its own (no signals): decoding, SHA-2 steps against the independent reference compression
// and the FIPS 180-2 "abc" digests, every reserved rule, Zvkb semantics, masks and tail policies.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "internal/sha2_constants.h"
#include "sha_reference.h"
#include "zvk_model.h"
#include "zvk_words.h"

namespace shakedown::emul::test {
namespace {

using detail::run_zvk;
using detail::VectorState;
using detail::ZvkOutcome;

// A register file plus CSRs, executed one instruction word at a time.
struct Machine {
  std::vector<std::uint8_t> file;
  VectorState s;
  Options options;
  Machine(std::size_t vlenb, std::uint64_t vt, std::uint64_t vl, bool tail_ones = false,
          ZvkProfile profile = ZvkProfile::zvknhb)
      : file(32 * vlenb, 0x5a) {
    s.regs = file.data();
    s.vlenb = vlenb;
    s.vtype = vt;
    s.vl = vl;
    options.model = Model::zvk;
    options.zvk_profile = profile;
    options.tail_ones = tail_ones;
  }
  detail::ZvkStep exec(std::uint32_t word) { return run_zvk(word, s, options); }
  template <typename W>
  W get(unsigned reg, std::size_t k) const {
    W v;
    std::memcpy(&v, file.data() + reg * s.vlenb + k * sizeof(W), sizeof v);
    return v;
  }
  template <typename W>
  void set(unsigned reg, std::size_t k, W v) {
    std::memcpy(file.data() + reg * s.vlenb + k * sizeof(W), &v, sizeof v);
  }
};

template <typename W>
W load_be(const std::uint8_t* p) {
  W v = 0;
  for (std::size_t i = 0; i < sizeof(W); ++i) v = static_cast<W>(v << 8 | p[i]);
  return v;
}

// One block through the model the way arch/riscv64/zvk_sha2.h drives the hardware, with the non-Zvk steps
// (loads, vadd, vmerge) done in C++. Registers: {a,b,e,f} v4, {c,d,g,h} v6, schedule v12..v18, W+K v22,
// merge v24 (all even: valid for LMUL 1 and 2).
template <typename W>
void model_block(Machine& m, W h[8], const std::uint8_t* block, const W* k, int rounds) {
  const W abef[4] = {h[5], h[4], h[1], h[0]}, cdgh[4] = {h[7], h[6], h[3], h[2]};
  for (int i = 0; i < 4; ++i) m.set<W>(4, i, abef[i]), m.set<W>(6, i, cdgh[i]);
  const unsigned ring[4] = {12, 14, 16, 18};
  for (int g = 0; g < 4; ++g)
    for (int i = 0; i < 4; ++i) m.set<W>(ring[g], i, load_be<W>(block + sizeof(W) * (4 * g + i)));
  for (int q = 0; q < rounds / 4; ++q) {
    const unsigned cur = ring[q % 4];
    for (int i = 0; i < 4; ++i) m.set<W>(22, i, static_cast<W>(m.get<W>(cur, i) + k[4 * q + i]));
    ASSERT_EQ(m.exec(vsha2cl(6, 4, 22)).outcome, ZvkOutcome::completed);
    ASSERT_EQ(m.exec(vsha2ch(4, 6, 22)).outcome, ZvkOutcome::completed);
    if (q < rounds / 4 - 4) {
      const unsigned hi = ring[(q + 2) % 4], lo = ring[(q + 1) % 4], next = ring[(q + 3) % 4];
      for (int i = 0; i < 4; ++i) m.set<W>(24, i, i == 0 ? m.get<W>(lo, 0) : m.get<W>(hi, i));
      ASSERT_EQ(m.exec(vsha2ms(cur, 24, next)).outcome, ZvkOutcome::completed);
    }
  }
  h[0] += m.get<W>(4, 3), h[1] += m.get<W>(4, 2), h[4] += m.get<W>(4, 1), h[5] += m.get<W>(4, 0);
  h[2] += m.get<W>(6, 3), h[3] += m.get<W>(6, 2), h[6] += m.get<W>(6, 1), h[7] += m.get<W>(6, 0);
}

// FIPS 180-4 §5.3.3 / §5.3.5 initial values and the FIPS 180-2 Appendix B.1 / C.1 digests of "abc".
constexpr std::uint32_t kIv256[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
constexpr std::uint32_t kAbc256[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                      0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
constexpr std::uint64_t kIv512[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                     0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                     0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
constexpr std::uint64_t kAbc512[8] = {0xddaf35a193617aba, 0xcc417349ae204131, 0x12e6fa4e89a97ea2,
                                      0x0a9eeee64b55d39a, 0x2192992a274fc1a8, 0x36ba3c23a3feebbd,
                                      0x454d4423643ce80e, 0x2a9ac94fa54ca49f};

TEST(ZvkModel, DecodesTheMeasuredWordsAndNothingElse) {
  EXPECT_EQ(detail::decode_zvk(0xb621a0f7), Insn::vsha2ms);
  EXPECT_EQ(detail::decode_zvk(0xba21a0f7), Insn::vsha2ch);
  EXPECT_EQ(detail::decode_zvk(0xbe21a0f7), Insn::vsha2cl);
  EXPECT_EQ(detail::decode_zvk(opv(0x12, 1, 2, 9, 2)), Insn::vrev8);
  EXPECT_EQ(detail::decode_zvk(opv(0x12, 1, 2, 8, 2)), Insn::vbrev8);
  EXPECT_EQ(detail::decode_zvk(opv(0x15, 1, 2, 3, 3)), Insn::vror);  // vror.vi with imm[5] = 1
  EXPECT_EQ(detail::decode_zvk(opv(0x15, 1, 2, 3, 0)), Insn::vrol);
  EXPECT_EQ(detail::decode_zvk(opv(0x01, 1, 2, 3, 4)), Insn::vandn);
  EXPECT_EQ(detail::decode_zvk(opv(0x12, 1, 2, 2, 2)), Insn::count_);  // vzext.vf4: RVV 1.0, not ours
  EXPECT_EQ(detail::decode_zvk(opp(0x20, 1, 2, 3)), Insn::count_);     // vsm3me (Zvksh): not emulated
  EXPECT_EQ(detail::decode_zvk(0x00000013), Insn::count_);             // nop
}

TEST(ZvkModel, Sha256BlocksMatchTheReferenceAndNist) {
  for (std::size_t vlenb : {16u, 32u, 128u}) {
    Machine m(vlenb, vtype(32, 0), 4);
    std::uint32_t h[8], want[8];
    std::memcpy(h, kIv256, sizeof h);
    std::uint8_t abc[64] = {'a', 'b', 'c', 0x80};
    abc[63] = 24;  // bit length (FIPS 180-4 §5.1.1)
    model_block(m, h, abc, internal::kSha256K, 64);
    EXPECT_EQ(0, std::memcmp(h, kAbc256, sizeof h)) << "vlenb " << vlenb;
    std::mt19937 rng(7);
    for (int n = 0; n < 4; ++n) {
      std::uint8_t block[64];
      for (auto& b : block) b = static_cast<std::uint8_t>(rng());
      std::memcpy(want, h, sizeof h);
      detail::sha256_compress(want, block);
      model_block(m, h, block, internal::kSha256K, 64);
      EXPECT_EQ(0, std::memcmp(h, want, sizeof h)) << "vlenb " << vlenb << " block " << n;
    }
  }
}

TEST(ZvkModel, Sha512BlocksMatchTheReferenceAndNistAtLmul2And1) {
  // VLEN 128 needs LMUL 2 for EGW 256; from VLEN 256 LMUL 1 (docs/isa/riscv-crypto.md §3.2.1).
  for (auto [vlenb, lmul_log2] : {std::pair<std::size_t, int>{16, 1}, {32, 0}, {32, 1}, {128, 0}}) {
    Machine m(vlenb, vtype(64, lmul_log2), 4);
    std::uint64_t h[8], want[8];
    std::memcpy(h, kIv512, sizeof h);
    std::uint8_t abc[128] = {'a', 'b', 'c', 0x80};
    abc[127] = 24;
    model_block(m, h, abc, internal::kSha512K, 80);
    EXPECT_EQ(0, std::memcmp(h, kAbc512, sizeof h)) << "vlenb " << vlenb;
    std::mt19937 rng(9);
    for (int n = 0; n < 3; ++n) {
      std::uint8_t block[128];
      for (auto& b : block) b = static_cast<std::uint8_t>(rng());
      std::memcpy(want, h, sizeof h);
      detail::sha512_compress(want, block);
      model_block(m, h, block, internal::kSha512K, 80);
      EXPECT_EQ(0, std::memcmp(h, want, sizeof h)) << "vlenb " << vlenb << " block " << n;
    }
  }
}

// Every reserved rule of riscv-crypto.md §3.3 item 3, each on an otherwise legal instruction; nothing may change.
TEST(ZvkModel, ReservedEncodingsAreIllegalAndChangeNothing) {
  struct Case {
    const char* what;
    std::size_t vlenb;
    std::uint64_t vt, vl, vstart;
    std::uint32_t word;
    ZvkProfile profile;
  };
  const auto e32 = vtype(32, 0), e64m1 = vtype(64, 0), e64m2 = vtype(64, 1);
  const Case cases[] = {
      {"legal e32 (control)", 16, e32, 4, 0, vsha2ms(8, 12, 16), ZvkProfile::zvknha},
      {"legal e64 m2 at VLEN 128 (control)", 16, e64m2, 4, 0, vsha2ch(8, 12, 16), ZvkProfile::zvknhb},
      {"vill", 16, 1ull << 63, 4, 0, vsha2ms(8, 12, 16), ZvkProfile::zvknhb},
      {"masked", 16, e32, 4, 0, opp(0x2e, 8, 12, 16, 0), ZvkProfile::zvknhb},
      {"SEW 16", 16, vtype(16, 0), 4, 0, vsha2ms(8, 12, 16), ZvkProfile::zvknhb},
      {"SEW 8", 16, vtype(8, 0), 4, 0, vsha2cl(8, 12, 16), ZvkProfile::zvknhb},
      {"SEW 64 on Zvknha", 32, e64m1, 4, 0, vsha2ch(8, 12, 16), ZvkProfile::zvknha},
      {"fractional LMUL", 128, vtype(32, -1), 4, 0, vsha2ms(8, 12, 16), ZvkProfile::zvknhb},
      {"LMUL*VLEN < EGW (e64 m1, VLEN 128)", 16, e64m1, 2, 0, vsha2cl(8, 12, 16), ZvkProfile::zvknhb},
      {"vl not a multiple of 4", 32, e32, 6, 0, vsha2ms(8, 12, 16), ZvkProfile::zvknhb},
      {"vstart not a multiple of 4", 32, e32, 8, 2, vsha2ms(8, 12, 16), ZvkProfile::zvknhb},
      {"vd misaligned for LMUL 2", 16, e64m2, 4, 0, vsha2ms(9, 12, 16), ZvkProfile::zvknhb},
      {"vs2 misaligned for LMUL 2", 16, e64m2, 4, 0, vsha2ch(8, 13, 16), ZvkProfile::zvknhb},
      {"vd == vs1", 16, e32, 4, 0, vsha2ms(8, 12, 8), ZvkProfile::zvknhb},
      {"vd == vs2", 16, e32, 4, 0, vsha2cl(8, 8, 12), ZvkProfile::zvknhb},
      {"vd == vs1 (LMUL 2 groups)", 16, e64m2, 4, 0, vsha2ch(8, 10, 8), ZvkProfile::zvknhb},
  };
  for (const Case& c : cases) {
    Machine m(c.vlenb, c.vt, c.vl, false, c.profile);
    m.s.vstart = c.vstart;
    const std::vector<std::uint8_t> before = m.file;
    const auto step = m.exec(c.word);
    const bool control = std::string_view(c.what).ends_with("(control)");
    EXPECT_EQ(step.outcome, control ? ZvkOutcome::completed : ZvkOutcome::reserved) << c.what;
    if (!control) {
      EXPECT_TRUE(m.file == before) << c.what << ": registers changed";
      EXPECT_EQ(m.s.vstart, c.vstart) << c.what;
      EXPECT_NE(step.reason, nullptr) << c.what;
    } else {
      EXPECT_EQ(m.s.vstart, 0u);
    }
  }
}

TEST(ZvkModel, GroupsRunFromVstartToVlAndTailsFollowThePolicy) {
  // VLEN 256, e32 m1: 8 elements, two groups; vl = 8, vstart = 4 runs only the second group.
  for (bool tail_ones : {false, true}) {
    Machine m(32, vtype(32, 0), 8, tail_ones);
    m.s.vstart = 4;
    const auto before_first = m.get<std::uint32_t>(8, 0);
    ASSERT_EQ(m.exec(vsha2ms(8, 12, 16)).outcome, ZvkOutcome::completed);
    EXPECT_EQ(m.get<std::uint32_t>(8, 0), before_first) << "group 0 is below vstart";
    EXPECT_NE(m.get<std::uint32_t>(8, 4), 0x5a5a5a5au);
    EXPECT_EQ(m.s.vstart, 0u);
  }
  // VLEN 256, e64 m2: VLMAX 8, vl 4: elements 4..7 are tail.
  for (bool ta : {false, true}) {
    for (bool tail_ones : {false, true}) {
      Machine m(32, vtype(64, 1, ta), 4, tail_ones);
      ASSERT_EQ(m.exec(vsha2ms(8, 12, 16)).outcome, ZvkOutcome::completed);
      const std::uint64_t want = ta && tail_ones ? ~0ull : 0x5a5a5a5a5a5a5a5aull;
      for (int k = 4; k < 8; ++k) EXPECT_EQ(m.get<std::uint64_t>(8, k), want) << "ta " << ta << " ones " << tail_ones;
    }
  }
  // vstart >= vl (here vl = 0): no body, and not even agnostic tails are written (RVV 1.0 §5.4).
  Machine m(32, vtype(32, 0), 0, true);
  ASSERT_EQ(m.exec(vsha2ch(8, 12, 16)).outcome, ZvkOutcome::completed);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(m.get<std::uint32_t>(8, k), 0x5a5a5a5au) << "element " << k;
}

// Zvkb against scalar formulas at every SEW, with a mask and both agnostic policies.
TEST(ZvkModel, ZvkbElementwiseSemantics) {
  std::mt19937_64 rng(3);
  for (unsigned sew : {8u, 16u, 32u, 64u}) {
    const unsigned bytes = sew / 8;
    const std::uint64_t ones = sew == 64 ? ~0ull : (1ull << sew) - 1;
    const auto rotr = [sew, ones](std::uint64_t x, unsigned n) {
      n &= sew - 1;
      return n ? ((x >> n) | (x << (sew - n))) & ones : x;
    };
    const std::size_t vlenb = 32, n = vlenb / bytes, vl = n - 1;  // one tail element
    const std::uint64_t scalar = rng();
    const std::uint32_t words[] = {
        opv(0x12, 8, 16, 9, 2),      // vrev8.v v8, v16
        opv(0x12, 8, 16, 8, 2),      // vbrev8.v
        opv(0x14, 8, 16, 24, 0),     // vror.vv v8, v16, v24
        opv(0x14, 8, 16, 5, 4),      // vror.vx v8, v16, x5
        opv(0x15, 8, 16, 13, 3),     // vror.vi v8, v16, 45
        opv(0x15, 8, 16, 24, 0),     // vrol.vv
        opv(0x15, 8, 16, 5, 4),      // vrol.vx
        opv(0x01, 8, 16, 24, 0),     // vandn.vv
        opv(0x01, 8, 16, 5, 4),      // vandn.vx
        opv(0x14, 8, 16, 24, 0, 0),  // vror.vv masked by v0
    };
    for (std::uint32_t word : words) {
      for (bool tail_ones : {false, true}) {
        Machine m(vlenb, vtype(sew, 0), vl, tail_ones);
        m.s.x[5] = scalar;
        for (std::size_t k = 0; k < n; ++k) {
          for (unsigned i = 0; i < bytes; ++i) {
            m.file[16 * vlenb + k * bytes + i] = static_cast<std::uint8_t>(rng());
            m.file[24 * vlenb + k * bytes + i] = static_cast<std::uint8_t>(rng());
          }
        }
        std::memset(m.file.data(), 0xa5, vlenb);  // v0 mask: elements k with k % 8 in {0, 2, 5, 7} active
        const std::vector<std::uint8_t> before = m.file;
        ASSERT_EQ(m.exec(word).outcome, ZvkOutcome::completed);
        const auto elem = [&](const std::vector<std::uint8_t>& f, unsigned reg, std::size_t k) {
          std::uint64_t v = 0;
          for (unsigned i = 0; i < bytes; ++i) v |= std::uint64_t{f[reg * vlenb + k * bytes + i]} << (8 * i);
          return v;
        };
        const unsigned funct6 = word >> 26, funct3 = (word >> 12) & 7, field = (word >> 15) & 31;
        const bool masked = ((word >> 25) & 1) == 0;
        for (std::size_t k = 0; k < n; ++k) {
          const std::uint64_t a = elem(before, 16, k);
          const std::uint64_t b = funct3 == 4 ? scalar & ones : funct3 == 3 ? field | (funct6 & 1) << 5 : elem(before, 24, k);
          std::uint64_t want;
          if (funct6 == 0x12 && field == 9) {
            want = 0;
            for (unsigned i = 0; i < bytes; ++i) want |= ((a >> (8 * i)) & 0xff) << (8 * (bytes - 1 - i));
          } else if (funct6 == 0x12) {
            want = 0;
            for (unsigned i = 0; i < bytes; ++i) {
              std::uint8_t byte = static_cast<std::uint8_t>(a >> (8 * i)), r = 0;
              for (int bit = 0; bit < 8; ++bit) r = static_cast<std::uint8_t>(r | ((byte >> bit) & 1) << (7 - bit));
              want |= std::uint64_t{r} << (8 * i);
            }
          } else if ((funct6 & ~1u) == 0x14 && funct3 == 3) {
            want = rotr(a, static_cast<unsigned>(b));
          } else if (funct6 == 0x14) {
            want = rotr(a, static_cast<unsigned>(b));
          } else if (funct6 == 0x15) {
            want = rotr(a, static_cast<unsigned>(sew - (b & (sew - 1))));
          } else {
            want = a & ~b & ones;
          }
          if (k >= vl) want = tail_ones ? ones : elem(before, 8, k);                        // tail
          else if (masked && !((0xa5 >> (k % 8)) & 1)) want = tail_ones ? ones : elem(before, 8, k);  // inactive
          EXPECT_EQ(elem(m.file, 8, k), want) << "sew " << sew << " word " << std::hex << word << " elem " << k;
        }
      }
    }
  }
}

TEST(ZvkModel, ZvkbReservedCases) {
  Machine m(16, vtype(32, 1), 8);  // LMUL 2
  EXPECT_EQ(m.exec(opv(0x12, 9, 16, 9, 2)).outcome, ZvkOutcome::reserved);      // vd misaligned
  EXPECT_EQ(m.exec(opv(0x14, 8, 16, 25, 0)).outcome, ZvkOutcome::reserved);     // vs1 misaligned
  EXPECT_EQ(m.exec(opv(0x01, 0, 16, 24, 0, 0)).outcome, ZvkOutcome::reserved);  // masked vd = v0
  EXPECT_EQ(m.exec(opv(0x12, 8, 0, 9, 2, 0)).outcome, ZvkOutcome::reserved);    // masked, vs2 = v0 (§5.2)
  EXPECT_EQ(m.exec(opv(0x14, 8, 16, 0, 0, 0)).outcome, ZvkOutcome::reserved);   // masked, vs1 = v0 (§5.2)
  EXPECT_EQ(m.exec(opv(0x14, 8, 16, 0, 4, 0)).outcome, ZvkOutcome::completed);  // .vx: field 0 is x0, no v0 read
  m.s.vtype = 1ull << 63;
  EXPECT_EQ(m.exec(opv(0x12, 8, 16, 9, 2)).outcome, ZvkOutcome::reserved);      // vill
}

// The trap adapter copies only zvk_register_use(word, vtype).read out of the live registers and only .written
// back. Proof by scrambling: registers outside `read` must not change the outcome or any written register, and
// registers outside `written` must stay as they were — for every instruction, operand form, SEW, LMUL and mask.
TEST(ZvkModel, RegisterUseCoversEveryRegisterReadAndWritten) {
  std::mt19937_64 rng(11);
  std::vector<std::uint32_t> words;
  for (unsigned vd : {0u, 4u, 8u, 16u, 24u})
    for (unsigned vs2 : {0u, 8u, 12u, 16u})
      for (unsigned vs1 : {0u, 5u, 9u, 16u, 28u}) {
        for (std::uint32_t funct6 : {0x2du, 0x2eu, 0x2fu}) words.push_back(opp(funct6, vd, vs2, vs1));
        for (unsigned vm : {0u, 1u}) {
          words.push_back(opv(0x12, vd, vs2, 9, 2, vm));   // vrev8.v
          words.push_back(opv(0x14, vd, vs2, vs1, 0, vm)); // vror.vv
          words.push_back(opv(0x14, vd, vs2, vs1, 4, vm)); // vror.vx
          words.push_back(opv(0x15, vd, vs2, vs1, 3, vm)); // vror.vi
          words.push_back(opv(0x01, vd, vs2, vs1, 0, vm)); // vandn.vv
        }
      }
  std::size_t completed = 0;
  for (const std::size_t vlenb : {16u, 32u, 128u})
    for (unsigned sew : {8u, 32u, 64u})
      for (int lmul_log2 : {-1, 0, 1, 3}) {
        const std::uint64_t vt = vtype(sew, lmul_log2);
        const std::size_t vlmax = (vlenb * 8 / sew) * (lmul_log2 >= 0 ? 1u << lmul_log2 : 1) >> (lmul_log2 < 0 ? 1 : 0);
        const std::uint64_t vl = vlmax / 4 * 4;
        for (const std::uint32_t word : words) {
          const detail::ZvkRegisterUse use = detail::zvk_register_use(word, vt);
          Machine a(vlenb, vt, vl, /*tail_ones=*/true);
          for (auto& byte : a.file) byte = static_cast<std::uint8_t>(rng());
          for (auto& x : a.s.x) x = rng();
          Machine b = a;
          b.s.regs = b.file.data();
          for (unsigned r = 0; r < 32; ++r)
            if (!((use.read >> r) & 1))
              for (std::size_t i = 0; i < vlenb; ++i) b.file[r * vlenb + i] = static_cast<std::uint8_t>(rng());
          const std::vector<std::uint8_t> before = a.file;
          const ZvkOutcome outcome = a.exec(word).outcome;
          ASSERT_EQ(b.exec(word).outcome, outcome) << std::hex << "word " << word << " vtype " << vt;
          if (outcome != ZvkOutcome::completed) continue;
          ++completed;
          for (unsigned r = 0; r < 32; ++r) {
            const auto reg = [&](const Machine& m) {
              return std::vector<std::uint8_t>(m.file.begin() + r * vlenb, m.file.begin() + (r + 1) * vlenb);
            };
            if ((use.written >> r) & 1)
              ASSERT_EQ(reg(a), reg(b)) << std::hex << "word " << word << " vtype " << vt << std::dec << ": v" << r
                                        << " depends on a register outside the read set";
            else
              ASSERT_TRUE(std::equal(a.file.begin() + r * vlenb, a.file.begin() + (r + 1) * vlenb,
                                     before.begin() + r * vlenb))
                  << std::hex << "word " << word << " vtype " << vt << std::dec << ": v" << r
                  << " written but not in the written set";
          }
        }
      }
  EXPECT_GT(completed, 1000u);  // the sweep must mostly execute, not just hit reserved cases
}

}  // namespace
}  // namespace shakedown::emul::test

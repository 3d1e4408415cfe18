// RISC-V Zvknha/Zvknhb (vsha2ms, vsha2ch, vsha2cl) and Zvkb (vrev8, vbrev8, vror, vrol, vandn) semantics.
//
// Sources: docs/isa/riscv-crypto.md §3.1 (encodings), §3.2 (semantics), §3.3 (emulator requirements: reserved
// cases, tails, masks); RVV 1.0 §3.4 (vtype), §4.5 (masks), §3.4.3 (tail/mask agnostic). Must be compiled
// without V: it runs inside the SIGILL handler while the interrupted code's vector state is live.
#if defined(__riscv_vector)
#error "the Zvk model runs inside the SIGILL handler and must be compiled without the V extension"
#endif
#include "zvk_model.h"

#include <cstring>
#include <utility>

#include "test_break.h"
#include "sha2_functions.h"

namespace shakedown::emul::detail {
namespace {

// ---- Decode (docs/isa/riscv-crypto.md §3.1) ----
constexpr std::uint32_t kOpV = 0x57, kOpP = 0x77;
constexpr std::uint32_t field(std::uint32_t w, int lo, int bits) { return (w >> lo) & ((1u << bits) - 1); }
struct Fields {
  std::uint32_t opcode, vd, funct3, vs1, vs2, vm, funct6;
};
constexpr Fields fields(std::uint32_t w) {
  return {field(w, 0, 7), field(w, 7, 5), field(w, 12, 3), field(w, 15, 5), field(w, 20, 5), field(w, 25, 1),
          field(w, 26, 6)};
}
constexpr std::uint32_t kOpivv = 0, kOpmvv = 2, kOpivi = 3, kOpivx = 4;

// ---- vtype (RVV 1.0 §3.4) ----
struct Vtype {
  bool vill;
  unsigned sew_bits;     // 8..64
  int lmul_log2;         // -3..3; vlmul = 4 is reserved (reported as vill-like)
  bool vta, vma;
};
Vtype parse_vtype(std::uint64_t v) {
  Vtype t{};
  t.vill = (v >> 63) & 1;
  const unsigned vsew = (v >> 3) & 7, vlmul = v & 7;
  t.vill = t.vill || vsew > 3 || vlmul == 4;
  t.sew_bits = 8u << (vsew & 3);
  t.lmul_log2 = vlmul < 4 ? static_cast<int>(vlmul) : static_cast<int>(vlmul) - 8;
  t.vta = (v >> 6) & 1;
  t.vma = (v >> 7) & 1;
  return t;
}

// ---- Element access: element k of the group at register r is at r * vlenb + k * SEW/8, little-endian ----
std::uint64_t load_elem(const VectorState& s, unsigned reg, std::size_t k, unsigned bytes) {
  std::uint64_t v = 0;
  const std::uint8_t* p = s.regs + reg * s.vlenb + k * bytes;
  for (unsigned i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return v;
}
void store_elem(VectorState& s, unsigned reg, std::size_t k, unsigned bytes, std::uint64_t v) {
  std::uint8_t* p = s.regs + reg * s.vlenb + k * bytes;
  for (unsigned i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t all_ones(unsigned bits) { return bits == 64 ? ~0ull : (1ull << bits) - 1; }
bool mask_bit(const VectorState& s, std::size_t k) { return (s.regs[k / 8] >> (k % 8)) & 1; }  // v0 (§4.5)

// Tail elements [vl, end) of the destination: all ones when the policy is agnostic and the option asks for
// it (riscv-crypto.md §3.3 item 4), otherwise undisturbed. For fractional LMUL the tail runs to the register's end.
void write_tail(VectorState& s, const Vtype& t, unsigned vd, std::size_t vlmax, const Options& o) {
  if (!t.vta || !o.tail_ones) return;
  const unsigned bytes = t.sew_bits / 8;
  const std::size_t end = vlmax > s.vlenb / bytes ? vlmax : s.vlenb / bytes;
  for (std::size_t k = s.vl; k < end; ++k) store_elem(s, vd, k, bytes, all_ones(t.sew_bits));
}

std::size_t vlmax_of(const VectorState& s, const Vtype& t) {
  const std::size_t per_reg = s.vlenb * 8 / t.sew_bits;
  return t.lmul_log2 >= 0 ? per_reg << t.lmul_log2 : per_reg >> -t.lmul_log2;
}

ZvkStep reserved(Insn insn, const char* why) { return {ZvkOutcome::reserved, insn, 0, why}; }

// One element group of vsha2ms / vsha2c[hl] (riscv-crypto.md §3.2). d, s2, s1: the four elements of vd, vs2, vs1
// (index 0 = element 0); the result replaces d.
template <typename W>
void sha2_group(Insn insn, W d[4], const W s2[4], const W s1[4]) {
  using F = Sha2Fns<W>;
  if (insn == Insn::vsha2ms) {
    // vd = {W3,W2,W1,W0}, vs2 = {W11,W10,W9,W4}, vs1 = {W15,W14,W13,W12} -> {W19,W18,W17,W16} (§6.2.2 step 1).
    const W w0 = d[0], w1 = d[1], w2 = d[2], w3 = d[3], w4 = s2[0], w9 = s2[1], w10 = s2[2], w11 = s2[3];
    const W w12 = s1[0], w14 = s1[2], w15 = s1[3];
    const W w16 = F::sigma1(w14) + w9 + F::sigma0(w1) + w0;
    const W w17 = F::sigma1(w15) + w10 + F::sigma0(w2) + w1;
    d[0] = w16;
    d[1] = w17;
    d[2] = F::sigma1(w16) + w11 + F::sigma0(w3) + w2;
    d[3] = F::sigma1(w17) + w12 + F::sigma0(w4) + w3;
    return;
  }
  // vs2 = {a,b,e,f} (element 3 = a), vd = {c,d,g,h} (element 3 = c), vs1 = W+K; two rounds (§6.2.2 step 3)
  // with elements 0, 1 (vsha2cl) or 2, 3 (vsha2ch); the new {a,b,e,f} goes to vd.
  const int first = insn == Insn::vsha2cl ? 0 : 2;
  sha2_two_rounds(d, s2, s1[first], s1[first + 1]);
}

ZvkStep run_sha2(Insn insn, const Fields& f, VectorState& s, const Options& o) {
  const Vtype t = parse_vtype(s.vtype);
  // Reserved cases, riscv-crypto.md §3.3 item 3 (riscv-crypto vsha2*.adoc; QEMU target/riscv/insn_trans/trans_rvvk.c.inc).
  if (t.vill) return reserved(insn, "vtype.vill is set");
  if (f.vm == 0) return reserved(insn, "masked encoding (vm = 0)");
  if (t.sew_bits != 32 && t.sew_bits != 64) return reserved(insn, "SEW is neither 32 nor 64");
  if (t.sew_bits == 64 && o.zvk_profile == ZvkProfile::zvknha) return reserved(insn, "SEW = 64 needs Zvknhb (profile is Zvknha)");
  if (t.lmul_log2 < 0) return reserved(insn, "fractional LMUL");
  const unsigned lmul = 1u << t.lmul_log2;
  const std::size_t egw_bytes = 4 * t.sew_bits / 8;
  if (lmul * s.vlenb < egw_bytes) return reserved(insn, "LMUL * VLEN is smaller than EGW = 4 * SEW");
  if (s.vl % 4 != 0) return reserved(insn, "vl is not a multiple of 4 (EGS)");
  if (s.vstart % 4 != 0) return reserved(insn, "vstart is not a multiple of 4 (EGS)");
  if (f.vd % lmul || f.vs1 % lmul || f.vs2 % lmul) return reserved(insn, "register group not aligned to LMUL");
  const auto overlaps = [lmul](unsigned a, unsigned b) { return a < b + lmul && b < a + lmul; };
  if (overlaps(f.vd, f.vs1) || overlaps(f.vd, f.vs2)) return reserved(insn, "vd overlaps vs1 or vs2");

  ZvkStep step{ZvkOutcome::completed, insn, 0, nullptr};
  const unsigned bytes = t.sew_bits / 8;
  for (std::size_t g = s.vstart / 4; g < s.vl / 4; ++g) {
    std::uint64_t d[4], s2[4], s1[4];
    for (int k = 0; k < 4; ++k) {
      d[k] = load_elem(s, f.vd, 4 * g + k, bytes);
      s2[k] = load_elem(s, f.vs2, 4 * g + k, bytes);
      s1[k] = load_elem(s, f.vs1, 4 * g + k, bytes);
    }
    if (bytes == 4) {
      std::uint32_t d32[4], a32[4], b32[4];
      for (int k = 0; k < 4; ++k) d32[k] = static_cast<std::uint32_t>(d[k]), a32[k] = static_cast<std::uint32_t>(s2[k]), b32[k] = static_cast<std::uint32_t>(s1[k]);
      sha2_group<std::uint32_t>(insn, d32, a32, b32);
      for (int k = 0; k < 4; ++k) d[k] = d32[k];
    } else {
      sha2_group<std::uint64_t>(insn, d, s2, s1);
    }
    if (broken_by_test(insn) && step.groups == 0) d[0] ^= 1;  // test-only (test_break.h)
    for (int k = 0; k < 4; ++k) store_elem(s, f.vd, 4 * g + k, bytes, d[k]);
    ++step.groups;
  }
  // With vstart >= vl there is no body and no element is written, tails included (RVV 1.0 §5.4). Found by the
  // conformance suite: the model used to fill the tail with ones for vl = 0.
  if (s.vstart < s.vl) write_tail(s, t, f.vd, vlmax_of(s, t), o);
  s.vstart = 0;
  return step;
}

// ---- Zvkb element-wise operations (docs/isa/riscv-crypto.md §3.3 item 5) ----
std::uint64_t rotr_bits(std::uint64_t x, unsigned n, unsigned bits) {
  n &= bits - 1;  // the low log2(SEW) bits of the amount
  if (n == 0) return x;
  return ((x >> n) | (x << (bits - n))) & all_ones(bits);
}
std::uint64_t rev8(std::uint64_t x, unsigned bytes) {
  std::uint64_t r = 0;
  for (unsigned i = 0; i < bytes; ++i) r |= ((x >> (8 * i)) & 0xff) << (8 * (bytes - 1 - i));
  return r;
}
std::uint64_t brev8(std::uint64_t x, unsigned bytes) {
  std::uint64_t r = 0;
  for (unsigned bit = 0; bit < 8 * bytes; ++bit)
    if ((x >> bit) & 1) r |= 1ull << ((bit & ~7u) | (7 - (bit & 7)));
  return r;
}

// What the second operand of a Zvkb instruction is.
enum class Operand : std::uint8_t { none, vector, scalar, immediate };

ZvkStep run_zvkb(Insn insn, Operand operand, const Fields& f, VectorState& s, const Options& o) {
  const Vtype t = parse_vtype(s.vtype);
  if (t.vill) return reserved(insn, "vtype.vill is set");
  // Register groups must be aligned to LMUL (RVV 1.0 §3.4.2); a masked destination may not be v0 (§5.3).
  const unsigned lmul = t.lmul_log2 > 0 ? 1u << t.lmul_log2 : 1;
  if (f.vd % lmul || f.vs2 % lmul || (operand == Operand::vector && f.vs1 % lmul))
    return reserved(insn, "register group not aligned to LMUL");
  if (f.vm == 0 && f.vd == 0) return reserved(insn, "masked destination overlaps v0");
  // The mask is read from v0 with EEW = 1; a source group that is v0 would be read with EEW = SEW too, and one
  // register read with two EEWs by one instruction is reserved (RVV 1.0 §5.2). Groups are aligned (checked above),
  // so a group containing v0 starts at v0. Found by the conformance suite (QEMU 10 raises illegal-instruction).
  if (f.vm == 0 && (f.vs2 == 0 || (operand == Operand::vector && f.vs1 == 0)))
    return reserved(insn, "a masked instruction's source overlaps the v0 mask");

  ZvkStep step{ZvkOutcome::completed, insn, 0, nullptr};
  const unsigned bits = t.sew_bits, bytes = bits / 8;
  const std::uint64_t scalar = operand == Operand::scalar ? s.x[f.vs1] & all_ones(bits)
                               : operand == Operand::immediate ? (f.vs1 | ((f.funct6 & 1u) << 5))
                                                               : 0;
  bool corrupted = false;
  for (std::size_t k = s.vstart; k < s.vl; ++k) {
    if (f.vm == 0 && !mask_bit(s, k)) {
      if (t.vma && o.tail_ones) store_elem(s, f.vd, k, bytes, all_ones(bits));  // mask-agnostic: ones
      continue;
    }
    const std::uint64_t a = load_elem(s, f.vs2, k, bytes);
    const std::uint64_t b = operand == Operand::vector ? load_elem(s, f.vs1, k, bytes) : scalar;
    std::uint64_t r = 0;
    switch (insn) {
      case Insn::vrev8: r = rev8(a, bytes); break;
      case Insn::vbrev8: r = brev8(a, bytes); break;
      case Insn::vror: r = rotr_bits(a, static_cast<unsigned>(b), bits); break;
      case Insn::vrol: r = rotr_bits(a, static_cast<unsigned>((bits - (b & (bits - 1))) & (bits - 1)), bits); break;
      case Insn::vandn: r = a & ~b & all_ones(bits); break;
      default: break;
    }
    if (broken_by_test(insn) && !corrupted) {  // test-only (test_break.h)
      r ^= 1;
      corrupted = true;
    }
    store_elem(s, f.vd, k, bytes, r);
  }
  if (s.vstart < s.vl) write_tail(s, t, f.vd, vlmax_of(s, t), o);
  s.vstart = 0;
  return step;
}

// The Zvkb kind and its second operand, or Insn::count_.
std::pair<Insn, Operand> decode_zvkb(const Fields& f) {
  if (f.opcode != kOpV) return {Insn::count_, Operand::none};
  if (f.funct6 == 0x12 && f.funct3 == kOpmvv) {
    if (f.vs1 == 9) return {Insn::vrev8, Operand::none};
    if (f.vs1 == 8) return {Insn::vbrev8, Operand::none};
    return {Insn::count_, Operand::none};
  }
  // vror.vi keeps imm[5] in bit 26, so funct6 is 010100 or 010101 with OPIVI.
  if ((f.funct6 & ~1u) == 0x14 && f.funct3 == kOpivi) return {Insn::vror, Operand::immediate};
  const Operand op = f.funct3 == kOpivv ? Operand::vector : f.funct3 == kOpivx ? Operand::scalar : Operand::none;
  if (op == Operand::none) return {Insn::count_, Operand::none};
  if (f.funct6 == 0x14) return {Insn::vror, op};
  if (f.funct6 == 0x15) return {Insn::vrol, op};
  if (f.funct6 == 0x01) return {Insn::vandn, op};
  return {Insn::count_, Operand::none};
}

Insn decode_sha2(const Fields& f) {
  if (f.opcode != kOpP || f.funct3 != kOpmvv) return Insn::count_;
  if (f.funct6 == 0x2d) return Insn::vsha2ms;
  if (f.funct6 == 0x2e) return Insn::vsha2ch;
  if (f.funct6 == 0x2f) return Insn::vsha2cl;
  return Insn::count_;
}

}  // namespace

Insn decode_zvk(std::uint32_t word) noexcept {
  const Fields f = fields(word);
  const Insn sha2 = decode_sha2(f);
  return sha2 != Insn::count_ ? sha2 : decode_zvkb(f).first;
}

ZvkStep run_zvk(std::uint32_t word, VectorState& state, const Options& options) noexcept {
  const Fields f = fields(word);
  if (const Insn sha2 = decode_sha2(f); sha2 != Insn::count_) return run_sha2(sha2, f, state, options);
  if (const auto [kind, operand] = decode_zvkb(f); kind != Insn::count_) return run_zvkb(kind, operand, f, state, options);
  return {};
}

ZvkRegisterUse zvk_register_use(std::uint32_t word, std::uint64_t vtype) noexcept {
  const Fields f = fields(word);
  const Vtype t = parse_vtype(vtype);
  const Insn sha2 = decode_sha2(f);
  const auto [zvkb, operand] = decode_zvkb(f);
  if (t.vill || (sha2 == Insn::count_ && zvkb == Insn::count_)) return {};  // reserved or not ours: no access
  // A group is LMUL registers from its (aligned) base; a fractional LMUL uses part of one register. Unaligned
  // groups are reserved and never accessed, so wrapping past v31 only over-approximates.
  const unsigned regs = t.lmul_log2 > 0 ? 1u << t.lmul_log2 : 1;
  const auto group = [regs](unsigned base) {
    return static_cast<std::uint32_t>(((std::uint64_t{1} << regs) - 1) << base);
  };
  ZvkRegisterUse use;
  use.written = group(f.vd);
  // vd is read too: vsha2* take it as an operand, and elements a write leaves undisturbed (masked off, tail)
  // must go back to the live register as they were.
  use.read = group(f.vd) | group(f.vs2);
  if (sha2 != Insn::count_ || operand == Operand::vector) use.read |= group(f.vs1);
  if (sha2 == Insn::count_ && f.vm == 0) use.read |= 1u;  // the v0 mask (RVV 1.0 §5.3)
  return use;
}

}  // namespace shakedown::emul::detail

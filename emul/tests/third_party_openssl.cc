// Third-party code judges a model: Debian's own OpenSSL libcrypto, whose hardware paths were written and validated
// on the real CPUs by others, hashes the NIST CAVP vectors while our model executes the instructions it issues.
// A model and a backend that share one misreading of the manual pass our suites together; OpenSSL's code does not
// share it (docs/third-party.md).
//
//   shakedown_third_party_openssl backend=x86_64/sha512ni|sha256:riscv64/zvknha+sha512:riscv64/zvknhb version=3.6.
//   algorithms=sha512+sha384 files=short+long
//       [splits=1+127+128+129] [monte=N] [kinds=vsha512rnds2+sha3-:klmd_sha3] [absent]
//       [s390x-functions=sha256+sha512+sha3+msa12] [last-has=NIP] [interrupted=N]
//   (the PadLock code instead of libcrypto's EVP: padlock-engine=blocks|oneshot, OpenSSL's engine; linux-path=
//   nano|c7|lib [empty-gives-iv] in shakedown_third_party_linux, the kernel's)
// (lists are '+'-separated: a matrix row's args= are comma-separated; a kind PREFIX:KIND is required only of the
// algorithms whose name starts with PREFIX)
//
// libcrypto.so.3 is loaded by its soname: the matrix row's runner (the kit's dynamic loader and library path, or
// qemu-user -L with the kit's root; ci/fetch-third-party) decides which file that is, and the run fails unless its
// OpenSSL_version() starts with "OpenSSL <version>". The model comes from SHAKEDOWN_EMULATE, OpenSSL's capability
// override (OPENSSL_ia32cap, OPENSSL_s390xcap, OPENSSL_riscvcap) from the row's env: items.
//
// What proves that OpenSSL's hardware path ran on the model, not its portable C: for every algorithm every kind in
// kinds= must have been emulated while that algorithm's vectors were hashed, each emulated instruction the model
// saw last must lie inside libcrypto's mapping, and SHAKEDOWN_EMULATE_REQUIRE holds the totals. `absent` is the
// other side: the same hash with no model installed must die of SIGILL (checked in a child process).
//
// Every digest checked is one "third-party" execution record for backend= (the backend the model stands in for),
// named after the library ("OpenSSL 3.6.5 (Debian libcrypto.so.3)"), and every instruction the model completed for
// them one "third-party-instructions" record ("<library>: <kind>"); a wrong digest prints the vector, both
// digests, the instruction kinds the model emulated for that hash and the last instructions with their operands.
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cavp.h"
#include "emul/emul.h"
#include "records.h"
#include "shakedown/algorithm.h"
#include "shakedown/hex.h"
#include "vector_files.h"
#if defined(SHAKEDOWN_THIRD_PARTY_LINUX)
#include "third_party/linux_padlock.h"
#endif

namespace {

using shakedown::Algorithm;
using shakedown::vectors::Bytes;
namespace emul = shakedown::emul;
namespace vectors = shakedown::vectors;

// The EVP calls the harness makes, resolved from the loaded libcrypto (nothing of OpenSSL is linked for them:
// the functions that run are the ones of the file the runner put first).
struct Evp {
  void* handle = nullptr;
  const char* (*version)(int) = nullptr;
  void* (*md_fetch)(void*, const char*, const char*) = nullptr;
  void (*md_free)(void*) = nullptr;
  void* (*ctx_new)() = nullptr;
  void (*ctx_free)(void*) = nullptr;
  int (*init)(void*, const void*, void*) = nullptr;
  int (*update)(void*, const void*, std::size_t) = nullptr;
  int (*final)(void*, unsigned char*, unsigned int*) = nullptr;
  int (*final_xof)(void*, unsigned char*, std::size_t) = nullptr;
  std::string path;                  // the file the runner's loader chose
  std::uintptr_t base = 0, end = 0;  // its mapping (every PT_LOAD segment)
};

template <typename F>
void resolve(Evp& evp, F& fn, const char* name) {
  fn = reinterpret_cast<F>(dlsym(evp.handle, name));
  if (fn == nullptr) throw std::runtime_error(std::string("libcrypto has no ") + name + ": " + dlerror());
}

// The PT_LOAD segments of the loaded object whose load address is `base` (dladdr's dli_fbase: the lowest mapped
// address, which is the load bias for a shared object linked at 0, as Debian's are).
struct Segment {
  std::uintptr_t lo, hi;
  bool writable, executable;
};
std::vector<Segment> segments_of(const void* base, const std::string& path) {
  struct Search {
    const void* base;
    std::vector<Segment> found;
  } search{base, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* obj, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (reinterpret_cast<const void*>(obj->dlpi_addr) != s->base) return 0;
        for (int i = 0; i < obj->dlpi_phnum; ++i) {
          const auto& ph = obj->dlpi_phdr[i];
          if (ph.p_type != PT_LOAD) continue;
          const std::uintptr_t lo = obj->dlpi_addr + ph.p_vaddr;
          s->found.push_back({lo, lo + ph.p_memsz, (ph.p_flags & PF_W) != 0, (ph.p_flags & PF_X) != 0});
        }
        return 1;
      },
      &search);
  if (search.found.empty()) throw std::runtime_error("no program headers found for " + path);
  return search.found;
}

[[maybe_unused]] Evp load_libcrypto() {
  Evp evp;
  evp.handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_GLOBAL);
  if (evp.handle == nullptr) throw std::runtime_error(std::string("cannot load libcrypto.so.3: ") + dlerror());
  resolve(evp, evp.version, "OpenSSL_version");
  resolve(evp, evp.md_fetch, "EVP_MD_fetch");
  resolve(evp, evp.md_free, "EVP_MD_free");
  resolve(evp, evp.ctx_new, "EVP_MD_CTX_new");
  resolve(evp, evp.ctx_free, "EVP_MD_CTX_free");
  resolve(evp, evp.init, "EVP_DigestInit_ex");
  resolve(evp, evp.update, "EVP_DigestUpdate");
  resolve(evp, evp.final, "EVP_DigestFinal_ex");
  resolve(evp, evp.final_xof, "EVP_DigestFinalXOF");
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(evp.update), &info) == 0 || info.dli_fname == nullptr)
    throw std::runtime_error("dladdr cannot place EVP_DigestUpdate");
  evp.path = info.dli_fname;
  const std::vector<Segment> segments = segments_of(info.dli_fbase, evp.path);
  evp.base = UINTPTR_MAX;
  for (const Segment& g : segments) {
    evp.base = std::min(evp.base, g.lo);
    evp.end = std::max(evp.end, g.hi);
  }
  return evp;
}

#if defined(__s390x__)
// OpenSSL reads the CPU's STFLE and KIMD/KLMD query words once, at load, into its capability vector
// (OPENSSL_s390xcap_P: stfle[4], then kimd[2], klmd[2], ...; crypto/s390x_arch.h). The query cannot be trapped and
// QEMU's lists SHA-512 only, and OPENSSL_s390xcap can only take capabilities away (it is ANDed in), so the functions
// the model emulates are claimed here: the vector is found in libcrypto's writable data by its content (our own
// STFLE word 0 and query words, which OpenSSL stored unchanged with no OPENSSL_s390xcap set), exactly once, and
// its query words (and STFLE bit 86, MSA 12, for the NIP paths) are set as a machine with those functions reports
// them (docs/third-party.md). The same fact our backends get from SHAKEDOWN_TEST_ASSUME.
void claim_s390x_functions(const Evp& evp, const std::vector<std::string>& functions) {
  std::uint64_t stfle[3] = {};
  {
    register std::uint64_t r0 asm("0") = 2;  // three doublewords
    asm volatile(".insn s,0xb2b00000,%0" : "=Q"(stfle), "+d"(r0) : : "cc");
  }
  std::uint64_t kimd[2] = {}, klmd[2] = {};
  for (auto [op, words] : {std::pair{0, kimd}, std::pair{1, klmd}}) {
    register std::uint64_t r0 asm("0") = 0;  // QUERY
    register std::uint64_t* r1 asm("1") = words;
    register std::uint64_t r2 asm("2") = 0, r3 asm("3") = 0;
    if (op == 0)
      asm volatile(".insn rre,0xb93e0000,%%r0,%%r2" : "+d"(r2), "+d"(r3) : "d"(r0), "a"(r1) : "cc", "memory");
    else
      asm volatile(".insn rre,0xb93f0000,%%r0,%%r2" : "+d"(r2), "+d"(r3) : "d"(r0), "a"(r1) : "cc", "memory");
  }
  std::vector<std::uint64_t*> found;
  for (const Segment& g : segments_of(reinterpret_cast<const void*>(evp.base), evp.path)) {
    if (!g.writable) continue;
    for (std::uintptr_t a = (g.lo + 7) & ~std::uintptr_t{7}; a + 64 <= g.hi; a += 8) {
      auto* v = reinterpret_cast<std::uint64_t*>(a);
      if (v[0] == stfle[0] && v[4] == kimd[0] && v[5] == kimd[1] && v[6] == klmd[0] && v[7] == klmd[1])
        found.push_back(v);
    }
  }
  if (found.size() != 1)
    throw std::runtime_error("OpenSSL's s390x capability vector: " + std::to_string(found.size()) +
                             " candidates in libcrypto's data, not one");
  std::uint64_t* cap = found.front();
  // Bit n of a query counts from the left (crypto/s390x_arch.h S390X_CAPBIT): fc 1-3 and 0x20-0x25.
  const auto bit = [](unsigned n) { return std::uint64_t{1} << (63 - n % 64); };
  for (const std::string& f : functions) {
    std::uint64_t k = 0, l = 0;
    if (f == "sha1")
      k = l = bit(1);
    else if (f == "sha256")
      k = l = bit(2);
    else if (f == "sha512")
      k = l = bit(3);
    else if (f == "sha3")
      k = l = bit(32) | bit(33) | bit(34) | bit(35) | bit(36) | bit(37);
    else if (f == "msa12")
      cap[1] |= bit(86);  // STFLE doubleword 1, facility 86
    else
      throw std::invalid_argument("s390x-functions=: sha1, sha256, sha512, sha3 or msa12, not '" + f + "'");
    cap[4] |= k;
    cap[6] |= l;
  }
  std::printf(
      "OpenSSL's capability vector at libcrypto+0x%zx: KIMD query %016llx %016llx, KLMD %016llx %016llx, "
      "STFLE[1] %016llx (claimed: %zu function groups)\n",
      static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(cap) - evp.base),
      static_cast<unsigned long long>(cap[4]), static_cast<unsigned long long>(cap[5]),
      static_cast<unsigned long long>(cap[6]), static_cast<unsigned long long>(cap[7]),
      static_cast<unsigned long long>(cap[1]), functions.size());
}
#endif

struct Options {
  std::string backend;  // the backend the model stands in for: one name, or FAMILY:NAME+FAMILY:NAME

  // The backend of one family: "riscv64/zvknha" for sha256 out of "sha256:riscv64/zvknha+sha512:riscv64/zvknhb".
  std::string backend_of(shakedown::Family family) const {
    if (backend.find(':') == std::string::npos) return backend;
    const std::string want = std::string(shakedown::name(family)) + ":";
    std::string_view rest = backend;
    while (!rest.empty()) {
      const std::string_view item = rest.substr(0, rest.find('+'));
      if (item.substr(0, want.size()) == want) return std::string(item.substr(want.size()));
      rest.remove_prefix(std::min(rest.size(), item.size() + 1));
    }
    throw std::invalid_argument("backend=" + backend + " names no backend of " + std::string(shakedown::name(family)));
  }
  std::string version;
  std::vector<Algorithm> algorithms;
  bool short_msg = false, long_msg = false, variable_out = false;
  std::size_t monte = 0;            // Monte Carlo checkpoints per algorithm (0: none)
  std::vector<std::size_t> splits;  // update sizes besides the one-shot hash (0 = one-shot)
  // each (algorithm-name prefix, kind) must be emulated while each matching algorithm runs ("" matches all)
  std::vector<std::pair<std::string, emul::Insn>> kinds;
  std::vector<std::string> s390x_functions;  // OpenSSL's KIMD/KLMD query words to claim (s390x)
  std::string last_has;                      // a short one-shot hash's last emulated instruction must show this
  std::string linux_path;                    // the Linux kernel's code: nano, c7 or lib
  std::string padlock_engine;                // OpenSSL's PadLock engine code: blocks or oneshot
  bool empty_gives_iv = false;               // the empty message's digest is the IV (Zhaoxin, Debian #1103397)
  std::uint64_t interrupted = 0;             // at least this many steps the model stopped early (CC3, interrupt=)
  bool absent = false;
};

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto comma = text.find('+');
    out.emplace_back(text.substr(0, comma));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

emul::Insn kind_of(const std::string& name) {
  for (std::size_t i = 0; i < emul::kInsnCount; ++i)
    if (emul::insn_name(static_cast<emul::Insn>(i)) == name) return static_cast<emul::Insn>(i);
  throw std::invalid_argument("kinds=: no instruction kind '" + name + "'");
}

Options parse(int argc, char** argv) {
  Options o;
  o.splits = {0};
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    const std::string_view key = arg.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? std::string_view{} : arg.substr(eq + 1));
    if (key == "backend")
      o.backend = value;
    else if (key == "version")
      o.version = value;
    else if (key == "algorithms")
      for (const auto& a : split_list(value)) o.algorithms.push_back(shakedown::algorithm_from_name(a));
    else if (key == "files")
      for (const auto& f : split_list(value)) {
        if (f == "short")
          o.short_msg = true;
        else if (f == "long")
          o.long_msg = true;
        else if (f == "variable")
          o.variable_out = true;
        else
          throw std::invalid_argument("files=: short, long or variable, not '" + f + "'");
      }
    else if (key == "monte")
      o.monte = std::stoul(value);
    else if (key == "splits")
      for (const auto& s : split_list(value)) o.splits.push_back(std::stoul(s));
    else if (key == "kinds")
      for (const auto& k : split_list(value)) {
        const auto colon = k.find(':');
        if (colon == std::string::npos)
          o.kinds.emplace_back("", kind_of(k));
        else
          o.kinds.emplace_back(k.substr(0, colon), kind_of(k.substr(colon + 1)));
      }
    else if (key == "s390x-functions")
      for (const auto& f : split_list(value)) o.s390x_functions.push_back(f);
    else if (key == "last-has")
      o.last_has = value;
    else if (key == "linux-path")
      o.linux_path = value;
    else if (key == "padlock-engine")
      o.padlock_engine = value;
    else if (arg == "empty-gives-iv")
      o.empty_gives_iv = true;
    else if (key == "interrupted")
      o.interrupted = std::stoull(value);
    else if (arg == "absent")
      o.absent = true;
    else
      throw std::invalid_argument("unknown argument '" + std::string(arg) + "'");
  }
  if (o.backend.empty() || (o.version.empty() && o.linux_path.empty()) || o.algorithms.empty())
    throw std::invalid_argument("backend=, version= (or linux-path=) and algorithms= are required");
  return o;
}

// OpenSSL's name of an algorithm for EVP_MD_fetch.
const char* evp_name(Algorithm alg) {
  switch (alg) {
    case Algorithm::sha224: return "SHA2-224";
    case Algorithm::sha256: return "SHA2-256";
    case Algorithm::sha384: return "SHA2-384";
    case Algorithm::sha512: return "SHA2-512";
    case Algorithm::sha512_224: return "SHA2-512/224";
    case Algorithm::sha512_256: return "SHA2-512/256";
    case Algorithm::sha3_224: return "SHA3-224";
    case Algorithm::sha3_256: return "SHA3-256";
    case Algorithm::sha3_384: return "SHA3-384";
    case Algorithm::sha3_512: return "SHA3-512";
    case Algorithm::shake128: return "SHAKE-128";
    case Algorithm::shake256: return "SHAKE-256";
  }
  return "";
}

// The third-party code under judgement: a library and the digest calls it offers.
class Code {
 public:
  virtual ~Code() = default;
  // "OpenSSL 3.6.5 (Debian libcrypto.so.3)": the name of every record of this run.
  virtual const std::string& library() const = 0;
  // Where the code lies (the emulated instructions must be inside) and what to call it in messages.
  virtual bool contains(std::uintptr_t pc) const = 0;
  virtual std::uintptr_t base() const = 0;
  virtual const char* where() const = 0;
  // msg's digest of out_len bytes, in updates of split bytes (0: one update).
  virtual Bytes digest(Algorithm alg, const Bytes& msg, std::size_t out_len, std::size_t split) = 0;
};

class OpenSsl final : public Code {
 public:
  OpenSsl(Evp evp, const std::string& version) : evp_(std::move(evp)) {
    ctx_ = evp_.ctx_new();
    if (ctx_ == nullptr) throw std::runtime_error("EVP_MD_CTX_new failed");
    const char* v = evp_.version(0);  // OPENSSL_VERSION: "OpenSSL 3.6.5 30 Sep 2026"
    const std::string full = v ? v : "";
    const std::string want = "OpenSSL " + version;
    if (full.compare(0, want.size(), want) != 0)
      throw std::runtime_error(evp_.path + " is \"" + full + "\", not " + want +
                               "* (is the row's runner the kit's loader / sysroot? ci/fetch-third-party)");
    const std::string base_name = evp_.path.substr(evp_.path.rfind('/') + 1);
    library_ = full.substr(0, full.find(' ', 8)) + " (Debian " + base_name + ")";
  }
  ~OpenSsl() override { evp_.ctx_free(ctx_); }

  const std::string& library() const override { return library_; }
  bool contains(std::uintptr_t pc) const override { return pc >= evp_.base && pc < evp_.end; }
  std::uintptr_t base() const override { return evp_.base; }
  const char* where() const override { return "libcrypto"; }

  Bytes digest(Algorithm alg, const Bytes& msg, std::size_t out_len, std::size_t split) override {
    void* md = evp_.md_fetch(nullptr, evp_name(alg), nullptr);
    if (md == nullptr) throw std::runtime_error(std::string("EVP_MD_fetch(") + evp_name(alg) + ") failed");
    Bytes out(out_len);
    bool ok = evp_.init(ctx_, md, nullptr) == 1;
    const std::size_t step = split == 0 ? msg.size() : split;
    for (std::size_t at = 0; ok && at < msg.size(); at += step)
      ok = evp_.update(ctx_, msg.data() + at, std::min(step, msg.size() - at)) == 1;
    if (ok && shakedown::is_xof(alg)) {
      ok = evp_.final_xof(ctx_, out.data(), out.size()) == 1;
    } else if (ok) {
      unsigned int n = 0;
      ok = evp_.final(ctx_, out.data(), &n) == 1 && n == out.size();
    }
    evp_.md_free(md);
    if (!ok) throw std::runtime_error(std::string("an EVP call failed for ") + evp_name(alg));
    return out;
  }

 private:
  Evp evp_;
  void* ctx_ = nullptr;
  std::string library_;
};

#if defined(__x86_64__) && !defined(SHAKEDOWN_THIRD_PARTY_LINUX)
// OpenSSL's PadLock engine (engines-3/padlock.so, assembled from engines/asm/e_padlock-x86_64.pl) carries
// padlock_sha1/sha256_oneshot, padlock_sha1/sha256_blocks and padlock_sha512_blocks, which its C code never
// registers and the object does not export. Each is found by its code: the entry "mov %rdx,%rcx; mov %rdi,%rdx"
// (48 89 d1 48 89 fa) at most 64 bytes before the XSHA instruction, RAX set to 0 (xor, 48 31 c0: one-shot), to -1
// (48 c7 c0 ff ff ff ff: blocks) or not at all (XSHA512) between them; exactly one of each, or the run fails.
// Called as the engine's C would: (state, input, blocks or bytes); the state is native-endian words.
class OpenSslPadlock final : public Code {
 public:
  OpenSslPadlock(const Evp& evp, const std::string& version, const std::string& mode) {
    OpenSsl check(evp, version);  // the same version test as the library's
    const std::string path = evp.path.substr(0, evp.path.rfind('/')) + "/engines-3/padlock.so";
    void* handle = dlopen(path.c_str(), RTLD_NOW);
    if (handle == nullptr) throw std::runtime_error("cannot load " + path + ": " + dlerror());
    void* bind = dlsym(handle, "bind_engine");
    Dl_info info{};
    if (bind == nullptr || dladdr(bind, &info) == 0) throw std::runtime_error(path + " has no bind_engine");
    base_ = UINTPTR_MAX;
    for (const Segment& g : segments_of(info.dli_fbase, path)) {
      base_ = std::min(base_, g.lo);
      end_ = std::max(end_, g.hi);
      if (g.executable) find_functions(g);
    }
    if (!sha256_oneshot_ || !sha256_blocks_ || !sha512_blocks_)
      throw std::runtime_error(path +
                               ": padlock_sha256_oneshot, padlock_sha256_blocks or padlock_sha512_blocks "
                               "not found by their code");
    if (mode != "blocks" && mode != "oneshot")
      throw std::invalid_argument("padlock-engine=: blocks or oneshot, not '" + mode + "'");
    oneshot_ = mode == "oneshot";
    library_ = check.library().substr(0, check.library().find(" (")) + " engines-3/padlock.so " +
               (oneshot_ ? "padlock_sha256_oneshot" : "padlock_sha256_blocks + padlock_sha512_blocks") +
               " (Debian libssl3t64)";
  }
  const std::string& library() const override { return library_; }
  bool contains(std::uintptr_t pc) const override { return pc >= base_ && pc < end_; }
  std::uintptr_t base() const override { return base_; }
  const char* where() const override { return "padlock.so"; }

  Bytes digest(Algorithm alg, const Bytes& msg, std::size_t out_len, std::size_t split) override {
    static_cast<void>(split);  // the engine's functions take whole messages or whole blocks: framing is ours
    const bool wide = shakedown::family_of(alg) == shakedown::Family::sha512;
    if (shakedown::family_of(alg) == shakedown::Family::keccak || (wide && oneshot_))
      throw std::invalid_argument(library_ + " does not hash " + std::string(shakedown::name(alg)));
    // FIPS 180-4 §5.3 initial values, as native words (what the engine's functions take and return).
    alignas(16) std::uint64_t state[8];
    initial_value(alg, state);
    if (oneshot_) {
      sha256_oneshot_(state, msg.data(), msg.size());
    } else {
      const std::size_t block = wide ? 128 : 64, length_bytes = wide ? 16 : 8;
      const std::size_t whole = msg.size() / block;
      if (whole > 0) (wide ? sha512_blocks_ : sha256_blocks_)(state, msg.data(), whole);
      Bytes tail(msg.begin() + static_cast<std::ptrdiff_t>(whole * block), msg.end());
      tail.push_back(0x80);
      while (tail.size() % block != block - length_bytes) tail.push_back(0);
      const std::uint64_t bits = static_cast<std::uint64_t>(msg.size()) * 8;
      for (std::size_t i = 0; i < length_bytes; ++i)
        tail.push_back(i + 8 < length_bytes ? 0 : static_cast<std::uint8_t>(bits >> (8 * (length_bytes - 1 - i))));
      (wide ? sha512_blocks_ : sha256_blocks_)(state, tail.data(), tail.size() / block);
    }
    Bytes out(out_len);
    for (std::size_t i = 0; i < out_len; ++i)
      out[i] =
          wide ? static_cast<std::uint8_t>(state[i / 8] >> (56 - 8 * (i % 8)))
               : static_cast<std::uint8_t>(reinterpret_cast<const std::uint32_t*>(state)[i / 4] >> (24 - 8 * (i % 4)));
    return out;
  }

 private:
  using Fn = void (*)(void* state, const void* input, std::size_t n);

  void find_functions(const Segment& text) {
    const auto* code = reinterpret_cast<const std::uint8_t*>(text.lo);
    const std::size_t size = text.hi - text.lo;
    static constexpr std::uint8_t kEntry[6] = {0x48, 0x89, 0xd1, 0x48, 0x89, 0xfa};
    static constexpr std::uint8_t kRaxZero[3] = {0x48, 0x31, 0xc0};
    static constexpr std::uint8_t kRaxAllOnes[7] = {0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff};
    const auto has = [&](std::size_t from, std::size_t to, const std::uint8_t* bytes, std::size_t n) {
      for (std::size_t i = from; i + n <= to; ++i)
        if (std::memcmp(code + i, bytes, n) == 0) return true;
      return false;
    };
    for (std::size_t at = 64; at + 4 <= size; ++at) {
      if (code[at] != 0xf3 || code[at + 1] != 0x0f || code[at + 2] != 0xa6) continue;
      std::size_t entry = at;
      for (std::size_t back = 6; back <= 64 && entry == at; ++back)
        if (std::memcmp(code + at - back, kEntry, sizeof kEntry) == 0) entry = at - back;
      if (entry == at) continue;
      const bool zero = has(entry, at, kRaxZero, sizeof kRaxZero);
      const bool ones = has(entry, at, kRaxAllOnes, sizeof kRaxAllOnes);
      Fn fn = reinterpret_cast<Fn>(const_cast<std::uint8_t*>(code + entry));
      Fn* slot = code[at + 3] == 0xd0 && zero && !ones    ? &sha256_oneshot_
                 : code[at + 3] == 0xd0 && ones && !zero  ? &sha256_blocks_
                 : code[at + 3] == 0xe0 && !zero && !ones ? &sha512_blocks_
                                                          : nullptr;
      if (slot == nullptr) continue;  // XSHA1
      if (*slot != nullptr) throw std::runtime_error("padlock.so: two candidates for one PadLock hash function");
      *slot = fn;
    }
  }

  // FIPS 180-4 §5.3.2-§5.3.6: SHA-224, SHA-256 (32-bit words), SHA-384, SHA-512, SHA-512/224, SHA-512/256.
  static void initial_value(Algorithm alg, std::uint64_t state[8]) {
    static constexpr std::uint32_t k32[2][8] = {
        {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4},
        {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}};
    static constexpr std::uint64_t k64[4][8] = {
        {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939, 0x67332667ffc00b31,
         0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4},
        {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1, 0x510e527fade682d1,
         0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179},
        {0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf, 0x0f6d2b697bd44da8,
         0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1},
        {0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd, 0x96283ee2a88effe3,
         0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2}};
    const Algorithm order[6] = {Algorithm::sha224, Algorithm::sha256,     Algorithm::sha384,
                                Algorithm::sha512, Algorithm::sha512_224, Algorithm::sha512_256};
    for (int i = 0; i < 6; ++i) {
      if (order[i] != alg) continue;
      if (i < 2)
        std::memcpy(state, k32[i], sizeof k32[i]);
      else
        std::memcpy(state, k64[i - 2], sizeof k64[i - 2]);
      return;
    }
    throw std::invalid_argument("no SHA-2 initial value for " + std::string(shakedown::name(alg)));
  }

  Fn sha256_oneshot_ = nullptr, sha256_blocks_ = nullptr, sha512_blocks_ = nullptr;
  bool oneshot_ = false;
  std::uintptr_t base_ = 0, end_ = 0;
  std::string library_;
};
#endif

#if defined(SHAKEDOWN_THIRD_PARTY_LINUX)
// The Linux kernel's PadLock SHA-256 code (tests/third_party/linux_padlock.c), one of its three paths.
class LinuxPadlock final : public Code {
 public:
  explicit LinuxPadlock(const std::string& path) {
    const char* what = nullptr;
    if (path == "nano")
      path_ = SHAKEDOWN_LINUX_NANO, what = "drivers/crypto/padlock-sha.c sha256-padlock-nano";
    else if (path == "c7")
      path_ = SHAKEDOWN_LINUX_C7, what = "drivers/crypto/padlock-sha.c sha256-padlock";
    else if (path == "lib")
      path_ = SHAKEDOWN_LINUX_LIB, what = "lib/crypto/x86/sha256.h sha256_blocks_phe";
    else
      throw std::invalid_argument("linux-path=: nano, c7 or lib, not '" + path + "'");
    // SHAKEDOWN_LINUX_SOURCE: the kit's package and version, "linux-source-7.2 7.2.12-1" (emul/x86_64.cmake).
    library_ = std::string("Linux ") + what + " (Debian " SHAKEDOWN_LINUX_SOURCE ")";
  }
  const std::string& library() const override { return library_; }
  bool contains(std::uintptr_t pc) const override {
    return pc >= shakedown_linux_code_begin_address() && pc < shakedown_linux_code_end_address();
  }
  std::uintptr_t base() const override { return shakedown_linux_code_begin_address(); }
  const char* where() const override { return "the kernel's code"; }
  Bytes digest(Algorithm alg, const Bytes& msg, std::size_t out_len, std::size_t split) override {
    if (alg != Algorithm::sha256 && !(alg == Algorithm::sha224 && path_ == SHAKEDOWN_LINUX_LIB))
      throw std::invalid_argument("the kernel's " + library_ + " does not hash " + std::string(shakedown::name(alg)));
    Bytes out(out_len);
    if (shakedown_linux_sha256(path_, alg == Algorithm::sha224, msg.data(), msg.size(), split, out.data()) != 0)
      throw std::runtime_error(library_ + " returned an error");
    return out;
  }

 private:
  enum shakedown_linux_path path_ = SHAKEDOWN_LINUX_NANO;
  std::string library_;
};
#endif

class Harness {
 public:
  Harness(Code& code, Options options) : code_(code), o_(std::move(options)) {}

  const std::string& library() const { return code_.library(); }
  Bytes digest(Algorithm alg, const Bytes& msg, std::size_t out_len, std::size_t split) {
    return code_.digest(alg, msg, out_len, split);
  }
  bool in_library(std::uintptr_t pc) const { return code_.contains(pc); }

  // One vector: the one-shot hash and every split. False (after printing why) when a digest is wrong.
  bool check(Algorithm alg, const std::string& where, const Bytes& msg, const Bytes& nist) {
    // empty-gives-iv: on Zhaoxin's PHE a final-mode XSHA256 with RCX = 0 does nothing, so the kernel driver's
    // SHA-256("") is the initial value (Debian #1103397, why Linux disabled the driver there); the model's
    // zhaoxin profile must reproduce exactly that.
    Bytes expected = nist;
    if (o_.empty_gives_iv && msg.empty()) {
      static constexpr std::uint8_t
          kSha256Iv[32] = {0x6a, 0x09, 0xe6, 0x67, 0xbb, 0x67, 0xae, 0x85, 0x3c, 0x6e, 0xf3,
                           0x72, 0xa5, 0x4f, 0xf5, 0x3a, 0x51, 0x0e, 0x52, 0x7f, 0x9b, 0x05,
                           0x68, 0x8c, 0x1f, 0x83, 0xd9, 0xab, 0x5b, 0xe0, 0xcd, 0x19};  // FIPS 180-4 §5.3.3
      if (alg != Algorithm::sha256) throw std::invalid_argument("empty-gives-iv is about SHA-256");
      expected.assign(kSha256Iv, kSha256Iv + 32);
      std::printf("%s: the empty message (%s) must give SHA-256's IV, not its digest\n", library().c_str(),
                  where.c_str());
    }
    for (std::size_t split : o_.splits) {
      const emul::Counters before = emul::counters();
      const Bytes got = digest(alg, msg, expected.size(), split);
      if (got == expected) {
        ++checked_;
        continue;
      }
      const emul::Counters after = emul::counters();
      std::string used;
      for (std::size_t i = 0; i < emul::kInsnCount; ++i)
        if (after.completed[i] != before.completed[i])
          used += " " + std::string(emul::insn_name(static_cast<emul::Insn>(i))) + " x" +
                  std::to_string(after.completed[i] - before.completed[i]);
      std::fprintf(stderr,
                   "FAIL %s %s on the model: %s (%zu-byte message, %s): digest %s, expected %s; the model emulated "
                   "for it:%s\n",
                   library().c_str(), std::string(shakedown::name(alg)).c_str(), where.c_str(), msg.size(),
                   split == 0 ? "one update" : ("updates of " + std::to_string(split) + " bytes").c_str(),
                   shakedown::to_hex(got).c_str(), shakedown::to_hex(expected).c_str(),
                   used.empty() ? " nothing (OpenSSL did not use the model)" : used.c_str());
      // The last instructions of this hash (not of the hashes before it: the ring holds the last 16 of the run).
      const std::vector<emul::EmulatedInsn> recent = emul::recent_emulated();
      const std::size_t own = static_cast<std::size_t>(std::min<std::uint64_t>(after.traps - before.traps, 4));
      for (std::size_t i = recent.size() - std::min(own, recent.size()); i < recent.size(); ++i) {
        const emul::EmulatedInsn& e = recent[i];
        std::fprintf(stderr, "  emulated last: %s %s at %s+0x%zx\n", std::string(emul::insn_name(e.insn)).c_str(),
                     e.operands.c_str(), in_library(e.pc) ? code_.where() : "OUTSIDE the third-party code, 0",
                     static_cast<std::size_t>(in_library(e.pc) ? e.pc - code_.base() : e.pc));
      }
      shakedown::test::charge_failure(shakedown::family_of(alg), o_.backend_of(shakedown::family_of(alg)));
      shakedown::test::record_failure("third-party " + library() + " " + std::string(shakedown::name(alg)) + " " +
                                      where);
      return false;
    }
    return true;
  }

  // SHAVS §6.4 (SHA-2) and SHA3VS §6.2.3 (SHA-3) Monte Carlo, the first `checkpoints` checkpoints.
  bool monte(Algorithm alg, const std::string& path) {
    const std::size_t size = shakedown::digest_size(alg);
    const vectors::MonteFile file = vectors::parse_monte_file(path, size);
    const bool sha2 = shakedown::family_of(alg) != shakedown::Family::keccak;
    Bytes seed = file.seed;
    for (std::size_t c = 0; c < o_.monte && c < file.checkpoints.size(); ++c) {
      Bytes md[3] = {seed, seed, seed};
      for (std::size_t i = 0; i < vectors::kMonteInnerIterations; ++i) {
        if (sha2) {
          Bytes m = md[0];
          m.insert(m.end(), md[1].begin(), md[1].end());
          m.insert(m.end(), md[2].begin(), md[2].end());
          md[0] = md[1];
          md[1] = md[2];
          md[2] = digest(alg, m, size, 0);
        } else {
          md[2] = digest(alg, md[2], size, 0);
        }
      }
      seed = md[2];
      if (!check_value(alg, file.checkpoints[c].where, seed, file.checkpoints[c].output)) return false;
    }
    return true;
  }

  bool check_value(Algorithm alg, const std::string& where, const Bytes& got, const Bytes& expected) {
    if (got == expected) {
      ++checked_;
      return true;
    }
    std::fprintf(stderr, "FAIL %s %s on the model: Monte Carlo %s: %s, expected %s\n", library().c_str(),
                 std::string(shakedown::name(alg)).c_str(), where.c_str(), shakedown::to_hex(got).c_str(),
                 shakedown::to_hex(expected).c_str());
    shakedown::test::charge_failure(shakedown::family_of(alg), o_.backend_of(shakedown::family_of(alg)));
    shakedown::test::record_failure("third-party " + library() + " " + std::string(shakedown::name(alg)) + " " + where);
    return false;
  }

  std::uint64_t checked() const { return checked_; }
  void reset_checked() { checked_ = 0; }

 private:
  Code& code_;
  Options o_;
  std::uint64_t checked_ = 0;
};

// Every vector file of one algorithm; false at its first wrong digest.
bool run_algorithm(Harness& h, const Options& o, Algorithm alg) {
  const bool xof = shakedown::is_xof(alg);
  const std::size_t size = xof ? 0 : shakedown::digest_size(alg);
  const char* field = xof ? "Output" : "MD";
  std::vector<std::pair<vectors::FileKind, bool>> kinds = {{vectors::FileKind::short_msg, o.short_msg},
                                                           {vectors::FileKind::long_msg, o.long_msg}};
  for (const auto& [kind, wanted] : kinds) {
    if (!wanted) continue;
    for (const vectors::MsgVector& v : vectors::parse_msg_file(vectors::cavp_file(alg, kind), field, size))
      if (!h.check(alg, v.where, v.msg, v.expected)) return false;
  }
  if (o.variable_out && xof)
    for (const vectors::VariableOutVector& v :
         vectors::parse_variable_out_file(vectors::cavp_file(alg, vectors::FileKind::variable_out)))
      if (!h.check(alg, v.where, v.msg, v.expected)) return false;
  if (o.monte > 0 && !xof && !h.monte(alg, vectors::cavp_file(alg, vectors::FileKind::monte))) return false;
  return true;
}

// `absent`: with no model installed, the hash of every algorithm must die of SIGILL at its first instruction (in a
// child each, so that this process can say so and pass).
int expect_sigill(Harness& h, const Options& o) {
  if (emul::installed()) {
    std::fprintf(stderr, "absent: a model is installed (SHAKEDOWN_EMULATE is set); this run must have none\n");
    return 1;
  }
  int failed = 0;
  for (const Algorithm alg : o.algorithms) {  // each in its own child: the first SIGILL ends that child only
    std::fflush(nullptr);
    const pid_t child = fork();
    if (child < 0) {
      std::perror("fork");
      return 1;
    }
    if (child == 0) {
      h.digest(alg, Bytes(200, 0x61), shakedown::is_xof(alg) ? 32 : shakedown::digest_size(alg), 0);
      _exit(0);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
    }
    const std::string name(shakedown::name(alg));
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGILL) {
      std::printf("%s %s without the model: died of SIGILL, as it must (its hardware path is the one the model runs)\n",
                  h.library().c_str(), name.c_str());
      continue;
    }
    std::fprintf(stderr,
                 "FAIL %s %s without the model: %s instead of SIGILL: the code did not take its hardware path here "
                 "(is the capability override set?), so the runs with the model prove nothing\n",
                 h.library().c_str(), name.c_str(),
                 WIFSIGNALED(status) ? ("died of signal " + std::to_string(WTERMSIG(status))).c_str()
                                     : ("exited " + std::to_string(WEXITSTATUS(status))).c_str());
    ++failed;
  }
  return failed == 0 ? 0 : 1;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::string model = emul::install_from_environment();
  std::unique_ptr<Code> code;
#if defined(SHAKEDOWN_THIRD_PARTY_LINUX)
  code = std::make_unique<LinuxPadlock>(o.linux_path);
#else
  Evp evp = load_libcrypto();
  if (!o.s390x_functions.empty()) {
#if defined(__s390x__)
    claim_s390x_functions(evp, o.s390x_functions);
#else
    throw std::invalid_argument("s390x-functions= is for s390x builds");
#endif
  }
  if (!o.padlock_engine.empty()) {
#if defined(__x86_64__)
    code = std::make_unique<OpenSslPadlock>(evp, o.version, o.padlock_engine);
#else
    throw std::invalid_argument("padlock-engine= is for x86-64 builds");
#endif
  } else {
    code = std::make_unique<OpenSsl>(std::move(evp), o.version);
  }
#endif
  Harness h(*code, o);
  if (o.absent) return expect_sigill(h, o);
  if (model.empty()) {
    std::fprintf(stderr, "no model installed (SHAKEDOWN_EMULATE is empty): nothing to judge\n");
    return 1;
  }
  std::printf("%s on %s (%s)\n", h.library().c_str(), model.c_str(), o.backend.c_str());
  bool ok = true;
  for (Algorithm alg : o.algorithms) {
    const emul::Counters before = emul::counters();
    const auto start = std::chrono::steady_clock::now();
    h.reset_checked();
    if (!run_algorithm(h, o, alg)) {
      ok = false;
      continue;
    }
    const emul::Counters after = emul::counters();
    std::string counts, missing;
    for (const auto& [prefix, k] : o.kinds) {
      if (std::string_view(shakedown::name(alg)).substr(0, prefix.size()) != prefix) continue;
      const auto i = static_cast<std::size_t>(k);
      const std::uint64_t n = after.completed[i] - before.completed[i];
      counts += " " + std::string(emul::insn_name(k)) + "=" + std::to_string(n);
      if (n == 0) missing += " " + std::string(emul::insn_name(k));
    }
    // The model's last instructions must be OpenSSL's: inside libcrypto's mapping.
    std::string outside;
    for (const emul::EmulatedInsn& e : emul::recent_emulated())
      if (!h.in_library(e.pc)) outside = std::string(emul::insn_name(e.insn));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Steps the model stopped early (CC3, PadLock interrupt=): handler entries that completed nothing, after which
    // the third-party code re-executed the instruction.
    const std::uint64_t stopped = (after.traps - before.traps) - (after.total_completed() - before.total_completed());
    if (stopped > 0) counts += ", " + std::to_string(stopped) + " of them stopped early and re-executed";
    std::printf("%s: %llu digests right, emulated%s (%.1f s)\n", std::string(shakedown::name(alg)).c_str(),
                static_cast<unsigned long long>(h.checked()), counts.c_str(), seconds);
    if (!missing.empty() || !outside.empty()) {
      std::fprintf(
          stderr, "FAIL %s %s: %s%s%s\n", h.library().c_str(), std::string(shakedown::name(alg)).c_str(),
          missing.empty() ? "" : ("the model emulated no" + missing + " for it: OpenSSL took another path").c_str(),
          missing.empty() || outside.empty() ? "" : "; ",
          outside.empty() ? "" : (outside + " was emulated outside " + code->where()).c_str());
      shakedown::test::charge_failure(shakedown::family_of(alg), o.backend_of(shakedown::family_of(alg)));
      shakedown::test::record_failure("third-party " + h.library() + " " + std::string(shakedown::name(alg)) + " path");
      ok = false;
      continue;
    }
    // A path only some inputs take (MSA 12's NIP on a fresh SHA-3 context): a one-shot hash of "abc" must end
    // in an instruction whose operands show it.
    if (!o.last_has.empty() && shakedown::family_of(alg) == shakedown::Family::keccak) {
      h.digest(alg, Bytes{'a', 'b', 'c'}, shakedown::is_xof(alg) ? 32 : shakedown::digest_size(alg), 0);
      const std::vector<emul::EmulatedInsn> recent = emul::recent_emulated();
      const std::string last = recent.empty()
                                   ? std::string("nothing")
                                   : std::string(emul::insn_name(recent.back().insn)) + " " + recent.back().operands;
      std::printf("%s(\"abc\") ends in %s\n", std::string(shakedown::name(alg)).c_str(), last.c_str());
      if (last.find(o.last_has) == std::string::npos) {
        std::fprintf(stderr, "FAIL %s %s: a one-shot hash of \"abc\" ended in %s, without \"%s\"\n",
                     h.library().c_str(), std::string(shakedown::name(alg)).c_str(), last.c_str(), o.last_has.c_str());
        shakedown::test::charge_failure(shakedown::family_of(alg), o.backend_of(shakedown::family_of(alg)));
        shakedown::test::record_failure("third-party " + h.library() + " " + std::string(shakedown::name(alg)) + " " +
                                        o.last_has);
        ok = false;
        continue;
      }
    }
    const std::string backend = o.backend_of(shakedown::family_of(alg));
    shakedown::test::record("third-party", shakedown::family_of(alg), backend, h.library(), h.checked());
    // And what the model executed for those digests, per instruction kind: the report's third-party table shows it
    // beside the digests ("<library>: <kind>"; records of their own suite, which no cell counts as a check).
    for (std::size_t i = 0; i < emul::kInsnCount; ++i)
      if (after.completed[i] > before.completed[i])
        shakedown::test::record("third-party-instructions", shakedown::family_of(alg), backend,
                                h.library() + ": " + std::string(emul::insn_name(static_cast<emul::Insn>(i))),
                                after.completed[i] - before.completed[i]);
  }
  // interrupted=N: the rows whose model stops early (CC3 after every block, PadLock interrupt=1) must have made the
  // third-party code resume that often, or its re-execution loop was never judged.
  const emul::Counters total = emul::counters();
  const std::uint64_t stopped = total.traps - total.total_completed();
  if (o.interrupted > 0) {
    std::printf("the model stopped early %llu times (required: %llu)\n", static_cast<unsigned long long>(stopped),
                static_cast<unsigned long long>(o.interrupted));
    if (ok && stopped < o.interrupted) {  // (a run that failed already stopped hashing early: no verdict here)
      std::fprintf(stderr,
                   "FAIL %s: the model stopped early only %llu times, fewer than interrupted=%llu: the third-party "
                   "code's resumption after a partial completion was hardly exercised\n",
                   h.library().c_str(), static_cast<unsigned long long>(stopped),
                   static_cast<unsigned long long>(o.interrupted));
      shakedown::test::clear_charges();
      for (Algorithm alg : o.algorithms)
        shakedown::test::charge_failure(shakedown::family_of(alg), o.backend_of(shakedown::family_of(alg)));
      shakedown::test::record_failure("third-party " + h.library() + " interrupted");
      ok = false;
    }
  }
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shakedown_third_party_openssl: %s\n", e.what());
    return 2;
  }
}

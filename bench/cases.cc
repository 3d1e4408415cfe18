// Registration of the benchmark cases with Google Benchmark (benchmark::RegisterBenchmark).
#include "cases.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>

#include "openssl_ref.h"
#include "shakedown/backend.h"
#include "shakedown/hash.h"
#include "shakedown/hmac.h"

namespace shakedown::bench {
namespace {

constexpr std::size_t kLargeLength = 16384;  // the HMAC and incremental cases
constexpr std::array<Algorithm, 3> kIncrementalAlgorithms = {Algorithm::sha256, Algorithm::sha512, Algorithm::sha3_256};
// The many-message cases: each family's targets (SHAKE128: the matrix expansion of ML-KEM and ML-DSA).
constexpr std::array<Algorithm, 4> kManyAlgorithms = {Algorithm::sha256, Algorithm::sha512, Algorithm::sha3_256,
                                                      Algorithm::shake128};

// One input buffer for every case, filled with a non-trivial pattern.
const std::uint8_t* message(std::size_t len) {
  static std::vector<std::uint8_t> buffer;
  if (buffer.size() < len) {
    buffer.resize(len);
    for (std::size_t i = 0; i < len; ++i) buffer[i] = static_cast<std::uint8_t>(i * 131 + (i >> 8));
  }
  return buffer.data();
}

std::vector<std::string> backends_to_measure(Family family, const Options& opt) {
  std::vector<std::string> names = available_backends(family);
  if (!opt.backends.empty())
    std::erase_if(names, [&](const std::string& n) {
      return std::find(opt.backends.begin(), opt.backends.end(), n) == opt.backends.end();
    });
  return names;
}

bool has_lanes(Family family, const std::string& backend) {
  for (const BackendStatus& s : backends(family))
    if (s.name == backend) return s.lanes != 0;
  return false;
}

void set_bytes(benchmark::State& state, std::size_t len) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(len));
}

class Registrar {
 public:
  Registrar(const Options& opt, int round) : opt_(opt), round_(round) {}

  void oneshot(Algorithm alg, std::size_t len) {
    group(
        std::string(name(alg)), alg, len,
        [alg, len](benchmark::State& state) {
          const EVP_MD* md = openssl_md(alg);
          const std::uint8_t* data = message(len);
          std::uint8_t out[kMaxDigestSize];
          for (auto _ : state) {
            openssl_oneshot(alg, md, data, len, out, digest_size(alg));
            benchmark::DoNotOptimize(out);
            benchmark::ClobberMemory();
          }
          set_bytes(state, len);
        },
        [alg, len](const std::string& backend) {
          return [alg, len, backend](benchmark::State& state) {
            std::span<const std::uint8_t> data(message(len), len);
            std::uint8_t out[kMaxDigestSize];
            std::span<std::uint8_t> digest(out, digest_size(alg));
            for (auto _ : state) {
              hash(alg, backend, data, digest);
              benchmark::DoNotOptimize(out);
              benchmark::ClobberMemory();
            }
            set_bytes(state, len);
          };
        });
  }

  // HMAC keyed afresh on every call, as a one-shot application call would.
  void hmac(Algorithm alg, std::size_t len) {
    static constexpr std::uint8_t kKey[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    group(
        "hmac-" + std::string(name(alg)), alg, len,
        [alg, len](benchmark::State& state) {
          OpensslHmac ref(alg);
          const std::uint8_t* data = message(len);
          std::uint8_t out[kMaxDigestSize];
          for (auto _ : state) {
            ref.mac(kKey, sizeof kKey, data, len, out, digest_size(alg));
            benchmark::DoNotOptimize(out);
            benchmark::ClobberMemory();
          }
          set_bytes(state, len);
        },
        [alg, len](const std::string& backend) {
          return [alg, len, backend](benchmark::State& state) {
            const std::uint8_t* data = message(len);
            std::uint8_t out[kMaxDigestSize];
            for (auto _ : state) {
              Hmac mac(alg, std::span<const std::uint8_t>(kKey), backend);
              mac.update(data, len);
              mac.final(std::span<std::uint8_t>(out, digest_size(alg)));
              benchmark::DoNotOptimize(out);
              benchmark::ClobberMemory();
            }
            set_bytes(state, len);
          };
        });
  }

  // A long-lived context fed in opt.chunk-byte updates: measures the buffering in the framing.
  void incremental(Algorithm alg, std::size_t len) {
    const std::size_t chunk = opt_.chunk;
    group(
        std::string(name(alg)) + "-upd" + std::to_string(chunk), alg, len,
        [alg, len, chunk](benchmark::State& state) {
          EVP_MD_CTX* ctx = EVP_MD_CTX_new();
          const EVP_MD* md = openssl_md(alg);
          const std::uint8_t* data = message(len);
          std::uint8_t out[kMaxDigestSize];
          for (auto _ : state) {
            EVP_DigestInit_ex2(ctx, md, nullptr);
            for (std::size_t at = 0; at < len; at += chunk) EVP_DigestUpdate(ctx, data + at, std::min(chunk, len - at));
            EVP_DigestFinal_ex(ctx, out, nullptr);
            benchmark::DoNotOptimize(out);
            benchmark::ClobberMemory();
          }
          EVP_MD_CTX_free(ctx);
          set_bytes(state, len);
        },
        [alg, len, chunk](const std::string& backend) {
          return [alg, len, chunk, backend](benchmark::State& state) {
            Hasher hasher(alg, backend);
            const std::uint8_t* data = message(len);
            std::uint8_t out[kMaxDigestSize];
            for (auto _ : state) {
              hasher.reset();
              for (std::size_t at = 0; at < len; at += chunk) hasher.update(data + at, std::min(chunk, len - at));
              hasher.final(out, digest_size(alg));
              benchmark::DoNotOptimize(out);
              benchmark::ClobberMemory();
            }
            set_bytes(state, len);
          };
        });
  }

  // n messages of len bytes: OpenSSL hashes them one after another (EVP_Digest each), ours in one hash_many()
  // call. Measured: the n * len bytes of a call.
  void many(Algorithm alg, std::size_t n, std::size_t len) {
    const std::string label = std::string(name(alg)) + "-x" + std::to_string(n);
    std::vector<std::string> ours = backends_to_measure(family_of(alg), opt_);
    std::erase_if(ours, [&](const std::string& b) { return !has_lanes(family_of(alg), b); });
    if (ours.empty()) return;
    add({label, kOpenssl, len}, [alg, n, len](benchmark::State& state) {
      const EVP_MD* md = openssl_md(alg);
      std::vector<std::uint8_t> out(n * digest_size(alg));
      for (auto _ : state) {
        for (std::size_t i = 0; i < n; ++i)
          openssl_oneshot(alg, md, message(n * len) + i * len, len, out.data() + i * digest_size(alg),
                          digest_size(alg));
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      set_bytes(state, n * len);
    });
    // The backends by name, then "default": hash_many() choosing its rows by message count (selected_many_backend).
    if (opt_.backends.empty()) ours.push_back(kDefaultRows);
    for (const auto& backend : ours)
      add({label, backend, len}, [alg, n, len, backend](benchmark::State& state) {
        std::vector<std::span<const std::uint8_t>> msgs;
        std::vector<std::uint8_t> out(n * digest_size(alg));
        std::vector<std::span<std::uint8_t>> outs;
        for (std::size_t i = 0; i < n; ++i) {
          msgs.emplace_back(message(n * len) + i * len, len);
          outs.emplace_back(out.data() + i * digest_size(alg), digest_size(alg));
        }
        for (auto _ : state) {
          if (backend == kDefaultRows)
            hash_many(alg, msgs, outs);
          else
            hash_many(alg, backend, msgs, outs);
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        set_bytes(state, n * len);
      });
  }

  std::vector<Case> take() { return std::move(cases_); }

 private:
  // OpenSSL first, then each of our backends; nothing at all when none of ours is selected.
  template <class Reference, class MakeOurs>
  void group(const std::string& label, Algorithm alg, std::size_t len, Reference reference, MakeOurs make_ours) {
    std::vector<std::string> ours = backends_to_measure(family_of(alg), opt_);
    if (ours.empty()) return;
    add({label, kOpenssl, len}, reference);
    for (const auto& backend : ours) add({label, backend, len}, make_ours(backend));
  }

  template <class Fn>
  void add(Case c, Fn fn) {
    benchmark::RegisterBenchmark(run_name(c, round_).c_str(), fn);
    cases_.push_back(std::move(c));
  }

  const Options& opt_;
  const int round_;
  std::vector<Case> cases_;
};

void check_backend_names(const Options& opt) {
  for (const auto& wanted : opt.backends) {
    bool found = false;
    for (Family family : kAllFamilies) {
      auto names = available_backends(family);
      found = found || std::find(names.begin(), names.end(), wanted) != names.end();
    }
    if (!found) throw std::invalid_argument("backend '" + wanted + "' is not available in any family");
  }
}

}  // namespace

std::string run_name(const Case& c, int round) { return c.name() + "/round:" + std::to_string(round); }

std::string case_of(const std::string& run_name) {
  const std::size_t at = run_name.rfind("/round:");
  return at == std::string::npos ? run_name : run_name.substr(0, at);
}

std::vector<Case> register_round(const Options& opt, int round) {
  check_backend_names(opt);
  std::size_t longest = std::max(kLargeLength, *std::max_element(opt.lengths.begin(), opt.lengths.end()));
  for (std::size_t n : opt.many_counts)
    for (std::size_t len : opt.many_lengths) longest = std::max(longest, n * len);
  message(longest);
  Registrar reg(opt, round);
  for (Algorithm alg : kAllAlgorithms)
    for (std::size_t len : opt.lengths) reg.oneshot(alg, len);
  reg.hmac(Algorithm::sha256, kLargeLength);
  for (Algorithm alg : kIncrementalAlgorithms) reg.incremental(alg, kLargeLength);
  for (Algorithm alg : kManyAlgorithms)
    for (std::size_t n : opt.many_counts)
      for (std::size_t len : opt.many_lengths) reg.many(alg, n, len);
  return reg.take();
}

}  // namespace shakedown::bench

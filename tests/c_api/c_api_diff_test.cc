// The C API (shakedown/c.h) against OpenSSL for every algorithm on every available backend: random messages fed in
// random chunks, copies mid-stream, SHAKE squeezed in random pieces, HMAC with keys across the block size; and
// the allocation contract: update, final, squeeze, verify, reset and copy never reach operator new or malloc.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "shakedown/c.h"
#include "support.h"

// Every C++ allocation of this process, counted (the library's only allocator is operator new: it has no malloc).
static std::atomic<unsigned long> g_allocations{0};
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 pairs the malloc below with the caller's delete and warns; these replacements are the standard's own.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace shakedown::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

void expect_ok(int status, const char* call) {
  ASSERT_EQ(status, SHAKEDOWN_OK) << call << ": " << shakedown_status_name(status) << " (" << shakedown_last_error()
                                  << ")";
}

// Random chunk sizes summing to len, zero-length chunks included.
std::vector<std::size_t> random_chunks(std::size_t len, std::mt19937& rng) {
  std::vector<std::size_t> chunks;
  while (len > 0) {
    const std::size_t n = std::min(len, static_cast<std::size_t>(rng() % 300));
    chunks.push_back(n);
    len -= n;
  }
  chunks.push_back(0);
  return chunks;
}

class CApiDiff : public ::testing::TestWithParam<AlgBackend> {
 protected:
  shakedown_algorithm alg() const { return static_cast<shakedown_algorithm>(GetParam().alg); }
  const char* backend() const { return GetParam().backend.c_str(); }
};

TEST_P(CApiDiff, HashAndXofMatchOpenSsl) {
  std::mt19937 rng(static_cast<unsigned>(GetParam().alg) * 131 + 7);
  const std::size_t rounds = scaled(40, 4);
  for (std::size_t round = 0; round < rounds; ++round) {
    const Bytes msg = pattern(rng() % 1200, static_cast<std::uint32_t>(round));
    const std::size_t outlen = shakedown_is_xof(alg()) ? rng() % 400 : shakedown_digest_size(alg());
    const Bytes want = openssl_digest(GetParam().alg, msg, outlen);
    Bytes got(outlen), got_copy(outlen), oneshot(outlen);
    const auto chunks = random_chunks(msg.size(), rng);
    const std::size_t copy_at = rng() % chunks.size();
    std::size_t offset = 0;
    if (shakedown_is_xof(alg())) {
      shakedown_xof_ctx ctx{}, copy{};
      expect_ok(shakedown_xof_init(&ctx, alg(), backend()), "xof_init");
      for (std::size_t i = 0; i < chunks.size(); ++i) {
        if (i == copy_at) expect_ok(shakedown_xof_copy(&copy, &ctx), "xof_copy");
        expect_ok(shakedown_xof_update(&ctx, msg.data() + offset, chunks[i]), "xof_update");
        if (i >= copy_at) expect_ok(shakedown_xof_update(&copy, msg.data() + offset, chunks[i]), "xof_update");
        offset += chunks[i];
      }
      for (std::size_t done = 0; done < outlen;) {  // squeezes of 0..199 bytes
        const std::size_t n = std::min(outlen - done, static_cast<std::size_t>(rng() % 200));
        expect_ok(shakedown_xof_squeeze(&ctx, got.data() + done, n), "xof_squeeze");
        done += n;
      }
      expect_ok(shakedown_xof_squeeze(&copy, got_copy.data(), outlen), "xof_squeeze");
      shakedown_xof_cleanup(&ctx);
      shakedown_xof_cleanup(&copy);
    } else {
      shakedown_hash_ctx ctx{}, copy{};
      expect_ok(shakedown_hash_init(&ctx, alg(), backend()), "hash_init");
      for (std::size_t i = 0; i < chunks.size(); ++i) {
        if (i == copy_at) expect_ok(shakedown_hash_copy(&copy, &ctx), "hash_copy");
        expect_ok(shakedown_hash_update(&ctx, msg.data() + offset, chunks[i]), "hash_update");
        if (i >= copy_at) expect_ok(shakedown_hash_update(&copy, msg.data() + offset, chunks[i]), "hash_update");
        offset += chunks[i];
      }
      expect_ok(shakedown_hash_final(&ctx, got.data(), outlen), "hash_final");
      expect_ok(shakedown_hash_final(&copy, got_copy.data(), outlen), "hash_final");
      shakedown_hash_cleanup(&ctx);
      shakedown_hash_cleanup(&copy);
    }
    expect_ok(shakedown_hash(alg(), msg.data(), msg.size(), oneshot.data(), outlen), "shakedown_hash");
    EXPECT_EQ(to_hex(got), to_hex(want)) << "message of " << msg.size() << " bytes, " << chunks.size() << " chunks";
    EXPECT_EQ(to_hex(got_copy), to_hex(want)) << "copy before chunk " << copy_at;
    if (GetParam().backend == selected_backend(family_of(GetParam().alg))) {
      EXPECT_EQ(to_hex(oneshot), to_hex(want)) << "one-shot";
    }
  }
  record("c_api", GetParam().alg, GetParam().backend, "hash", rounds);
}

TEST_P(CApiDiff, HmacMatchesOpenSsl) {
  if (shakedown_is_xof(alg())) {  // HMAC over SHAKE is not defined: refused, and the context stays unusable
    shakedown_hmac_ctx ctx{};
    EXPECT_EQ(shakedown_hmac_init(&ctx, alg(), "key", 3, backend()), SHAKEDOWN_E_NOT_HMAC_CAPABLE);
    EXPECT_EQ(shakedown_hmac_update(&ctx, "x", 1), SHAKEDOWN_E_NOT_INITIALIZED);
    return;
  }
  std::mt19937 rng(static_cast<unsigned>(GetParam().alg) * 977 + 3);
  const std::size_t rounds = scaled(40, 4);
  const std::size_t L = shakedown_digest_size(alg());
  for (std::size_t round = 0; round < rounds; ++round) {
    const Bytes key = pattern(rng() % 300, static_cast<std::uint32_t>(round) + 1000);  // 0..299: across every block
    const Bytes msg = pattern(rng() % 700, static_cast<std::uint32_t>(round));
    const Bytes want = openssl_hmac(GetParam().alg, key, msg);
    shakedown_hmac_ctx ctx{}, copy{};
    expect_ok(shakedown_hmac_init(&ctx, alg(), key.data(), key.size(), backend()), "hmac_init");
    const auto chunks = random_chunks(msg.size(), rng);
    std::size_t offset = 0;
    for (std::size_t chunk : chunks) {
      expect_ok(shakedown_hmac_update(&ctx, msg.data() + offset, chunk), "hmac_update");
      offset += chunk;
    }
    expect_ok(shakedown_hmac_copy(&copy, &ctx), "hmac_copy");
    Bytes got(L), oneshot(L);
    expect_ok(shakedown_hmac_final(&ctx, got.data(), L), "hmac_final");
    EXPECT_EQ(to_hex(got), to_hex(want)) << "key " << key.size() << " bytes, message " << msg.size() << " bytes";
    expect_ok(shakedown_hmac_verify(&copy, want.data(), want.size()), "hmac_verify");
    expect_ok(shakedown_hmac(alg(), key.data(), key.size(), msg.data(), msg.size(), oneshot.data(), L),
              "shakedown_hmac");
    EXPECT_EQ(to_hex(oneshot), to_hex(want));
    shakedown_hmac_cleanup(&ctx);
    shakedown_hmac_cleanup(&copy);
  }
  record("c_api", GetParam().alg, GetParam().backend, "hmac", rounds);
}

// No allocation from init to cleanup: a long message, many updates and squeezes, verify, reset and copy. A first
// init/cleanup pair runs before counting: the library's one-time start (backend selection, a self-test) may allocate.
TEST_P(CApiDiff, ContextsDoNotAllocate) {
  const Bytes msg = pattern(5000, 1);
  std::uint8_t out[512];
  unsigned long before = 0;
  {
    shakedown_hash_ctx warm{};
    expect_ok(shakedown_hash_init(&warm, alg(), backend()), "hash_init (warm-up)");
    shakedown_hash_cleanup(&warm);
  }
  if (shakedown_is_xof(alg())) {
    shakedown_xof_ctx ctx{}, copy{};
    before = g_allocations.load();
    expect_ok(shakedown_xof_init(&ctx, alg(), backend()), "xof_init");
    for (std::size_t i = 0; i < msg.size(); i += 97)
      shakedown_xof_update(&ctx, msg.data() + i, std::min<std::size_t>(97, msg.size() - i));
    shakedown_xof_copy(&copy, &ctx);
    for (int i = 0; i < 10; ++i) shakedown_xof_squeeze(&ctx, out, sizeof out);
    shakedown_xof_reset(&ctx);
    shakedown_xof_squeeze(&copy, out, sizeof out);
    shakedown_xof_cleanup(&ctx);
    shakedown_xof_cleanup(&copy);
  } else {
    shakedown_hash_ctx ctx{}, copy{};
    shakedown_hmac_ctx mac{}, mac_copy{};
    before = g_allocations.load();
    expect_ok(shakedown_hash_init(&ctx, alg(), backend()), "hash_init");
    expect_ok(shakedown_hmac_init(&mac, alg(), msg.data(), 200, backend()), "hmac_init");
    for (std::size_t i = 0; i < msg.size(); i += 97) {
      const std::size_t n = std::min<std::size_t>(97, msg.size() - i);
      shakedown_hash_update(&ctx, msg.data() + i, n);
      shakedown_hmac_update(&mac, msg.data() + i, n);
    }
    shakedown_hash_copy(&copy, &ctx);
    shakedown_hmac_copy(&mac_copy, &mac);
    expect_ok(shakedown_hash_final(&ctx, out, shakedown_digest_size(alg())), "hash_final");
    expect_ok(shakedown_hmac_final(&mac, out, shakedown_digest_size(alg())), "hmac_final");
    shakedown_hmac_verify(&mac_copy, out, shakedown_digest_size(alg()));
    shakedown_hash_reset(&ctx);
    shakedown_hmac_reset(&mac);
    shakedown_hash(alg(), msg.data(), msg.size(), out, shakedown_digest_size(alg()));
    shakedown_hash_cleanup(&ctx);
    shakedown_hash_cleanup(&copy);
    shakedown_hmac_cleanup(&mac);
    shakedown_hmac_cleanup(&mac_copy);
  }
  EXPECT_EQ(g_allocations.load() - before, 0u) << "allocations between init and cleanup";
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CApiDiff, ::testing::ValuesIn(all_alg_backends()),
                         [](const ::testing::TestParamInfo<AlgBackend>& param) { return param_name(param.param); });

}  // namespace
}  // namespace shakedown::test

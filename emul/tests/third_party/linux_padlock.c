/* The Linux kernel's PadLock hash code, compiled from Debian's linux-source at build time (ci/fetch-third-party kit
 * linux-forky-padlock, docs/third-party.md), and called the way the kernel calls it. Nothing of the kernel is in
 * this repository: the two files are included from the kit, the kernel API they use is linux_kernel_shim.h.
 * Built with -fno-toplevel-reorder, so the code between the two markers is this translation unit's, in order. */
#include "linux_padlock.h"

#include "linux_kernel_shim.h"

void shakedown_linux_code_begin(void) {}

#include "drivers/crypto/padlock-sha.c"
#include "lib/crypto/x86/sha256.h"

/* lib/crypto/x86/sha256.h's other block functions are assembly files the harness does not build; nothing calls them
 * (the PHE path is taken by hand below). */
int shakedown_linux_unreachable(const char* what) {
  fprintf(stderr, "linux_padlock.c: %s reached: the harness drives the PadLock functions directly\n", what);
  __builtin_trap();
}
void sha256_transform_ssse3(struct sha256_block_state* state, const u8* data, size_t nblocks) {
  (void)state, (void)data, (void)nblocks;
  shakedown_linux_unreachable("sha256_transform_ssse3");
}
void sha256_transform_avx(struct sha256_block_state* state, const u8* data, size_t nblocks) {
  (void)state, (void)data, (void)nblocks;
  shakedown_linux_unreachable("sha256_transform_avx");
}
void sha256_transform_rorx(struct sha256_block_state* state, const u8* data, size_t nblocks) {
  (void)state, (void)data, (void)nblocks;
  shakedown_linux_unreachable("sha256_transform_rorx");
}
void sha256_ni_transform(struct sha256_block_state* state, const u8* data, size_t nblocks) {
  (void)state, (void)data, (void)nblocks;
  shakedown_linux_unreachable("sha256_ni_transform");
}
void sha256_ni_finup2x(const struct __sha256_ctx* ctx, const u8* data1, const u8* data2, int len, u8 out1[32],
                       u8 out2[32]) {
  (void)ctx, (void)data1, (void)data2, (void)len, (void)out1, (void)out2;
  shakedown_linux_unreachable("sha256_ni_finup2x");
}
void sha256_blocks_generic(struct sha256_block_state* state, const u8* data, size_t nblocks) {
  (void)state, (void)data, (void)nblocks;
  shakedown_linux_unreachable("sha256_blocks_generic");
}

struct cpuinfo_x86 shakedown_linux_cpu;
const u32* shakedown_linux_sha256_iv;

/* FIPS 180-4 §5.3.2 and §5.3.3 */
static const u32 kSha224Iv[8] = {0xc1059ed8u, 0x367cd507u, 0x3070dd17u, 0xf70e5939u,
                                 0xffc00b31u, 0x68581511u, 0x64f98fa7u, 0xbefa4fa4u};
static const u32 kSha256Iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

/* The crypto API's shash calls for an algorithm with CRYPTO_AHASH_ALG_BLOCK_ONLY: update() sees whole blocks and
 * returns what it left, which the API keeps and hands to finup() with the rest. */
static int via_shash(const struct shash_alg* alg, const u8* msg, size_t len, size_t split, u8* out) {
  struct crypto_shash tfm = {alg, {0}};
  struct shash_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.tfm = &tfm;
  if (alg->init(&desc) != 0) return -1;
  u8 pending[2 * SHA256_BLOCK_SIZE];
  size_t have = 0, at = 0;
  const size_t step = split == 0 ? (len == 0 ? 1 : len) : split;
  while (at < len) {
    size_t n = len - at < step ? len - at : step;
    /* Whole blocks of the pending bytes plus this chunk go to update(); the API copies a partial block. */
    while (n > 0) {
      if (have == 0 && n >= SHA256_BLOCK_SIZE) {
        const size_t whole = n - n % SHA256_BLOCK_SIZE;
        const int left = alg->update(&desc, msg + at, (unsigned)whole);
        if (left != 0) return -1;
        at += whole, n -= whole;
        continue;
      }
      const size_t take = SHA256_BLOCK_SIZE - have < n ? SHA256_BLOCK_SIZE - have : n;
      memcpy(pending + have, msg + at, take);
      have += take, at += take, n -= take;
      if (have == SHA256_BLOCK_SIZE) {
        if (alg->update(&desc, pending, SHA256_BLOCK_SIZE) != 0) return -1;
        have = 0;
      }
    }
  }
  return alg->finup(&desc, pending, (unsigned)have, out);
}

/* The C7's algorithm ("sha256-padlock") hashes in software until its final-mode finup; a one-shot digest is init and
 * one finup over the whole message, which is what the crypto API does for an algorithm with FINUP_MAX. */
static int via_one_finup(const struct shash_alg* alg, const u8* msg, size_t len, u8* out) {
  struct crypto_shash tfm = {alg, {0}};
  struct shash_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.tfm = &tfm;
  if (alg->init(&desc) != 0) return -1;
  return alg->finup(&desc, msg, (unsigned)len, out);
}

/* lib/crypto's block function, framed as FIPS 180-4 §5.1.1 says (the framing is the harness's). */
static int via_lib_blocks(const u8* msg, size_t len, size_t split, u8* out, unsigned digest_size) {
  struct sha256_block_state st;
  memcpy(st.h, shakedown_linux_sha256_iv, sizeof st.h);
  u8 block[2 * SHA256_BLOCK_SIZE];
  size_t have = 0, at = 0;
  const size_t step = split == 0 ? (len == 0 ? 1 : len) : split;
  while (at < len) {
    const size_t n = len - at < step ? len - at : step;
    size_t i = 0;
    while (i < n) {
      if (have == 0 && n - i >= SHA256_BLOCK_SIZE) {
        const size_t blocks = (n - i) / SHA256_BLOCK_SIZE;
        sha256_blocks_phe(&st, msg + at + i, blocks);
        i += blocks * SHA256_BLOCK_SIZE;
        continue;
      }
      block[have++] = msg[at + i++];
      if (have == SHA256_BLOCK_SIZE) {
        sha256_blocks_phe(&st, block, 1);
        have = 0;
      }
    }
    at += n;
  }
  block[have++] = 0x80;
  const size_t total = have <= SHA256_BLOCK_SIZE - 8 ? SHA256_BLOCK_SIZE : 2 * SHA256_BLOCK_SIZE;
  memset(block + have, 0, total - have);
  const u64 bits = (u64)len * 8;
  for (int b = 0; b < 8; ++b) block[total - 1 - b] = (u8)(bits >> (8 * b));
  sha256_blocks_phe(&st, block, total / SHA256_BLOCK_SIZE);
  for (unsigned w = 0; w < digest_size / 4; ++w) {
    const u32 v = st.h[w];
    out[4 * w] = (u8)(v >> 24), out[4 * w + 1] = (u8)(v >> 16), out[4 * w + 2] = (u8)(v >> 8), out[4 * w + 3] = (u8)v;
  }
  return 0;
}

void shakedown_linux_code_end(void) {}

int shakedown_linux_sha256(enum shakedown_linux_path path, int sha224, const uint8_t* msg, size_t len, size_t split,
                           uint8_t* out) {
  shakedown_linux_sha256_iv = sha224 ? kSha224Iv : kSha256Iv;
  u8 full[SHA256_DIGEST_SIZE];
  int rc;
  switch (path) {
    case SHAKEDOWN_LINUX_NANO: rc = via_shash(&sha256_alg_nano, msg, len, split, full); break;
    case SHAKEDOWN_LINUX_C7: rc = via_one_finup(&sha256_alg, msg, len, full); break;
    case SHAKEDOWN_LINUX_LIB: return via_lib_blocks(msg, len, split, out, sha224 ? 28 : 32);
    default: return -1;
  }
  if (rc == 0) memcpy(out, full, sha224 ? 28 : 32);
  return rc;
}

uintptr_t shakedown_linux_code_begin_address(void) { return (uintptr_t)&shakedown_linux_code_begin; }
uintptr_t shakedown_linux_code_end_address(void) { return (uintptr_t)&shakedown_linux_code_end; }

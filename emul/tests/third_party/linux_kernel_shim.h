/* A user-space stand-in for the parts of the Linux kernel API that its PadLock hash code uses
 * (drivers/crypto/padlock-sha.c, lib/crypto/x86/sha256.h), so that those files, taken from Debian's linux-source
 * package at build time (ci/fetch-third-party), compile into a test program unchanged (docs/third-party.md).
 * Every kernel header those files include is a one-line file that includes this one (emul/x86_64.cmake).
 *
 * Written from the kernel's documented interfaces, not copied: only the names, the layouts the code relies on
 * (the hash states, read and written by the instruction) and the behaviour the harness needs. The crypto API's
 * fallback and registration calls exist so that the file compiles; the harness calls the PadLock functions
 * directly, the way the crypto API would (linux_padlock.c), and never reaches them. */
#ifndef SHAKEDOWN_LINUX_KERNEL_SHIM_H
#define SHAKEDOWN_LINUX_KERNEL_SHIM_H

#include <assert.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#define __init
#define __exit
#define __ro_after_init
#define asmlinkage
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define IS_ENABLED(option) 1
#define ENODEV 19
#define EINVAL 22
#define IS_ERR(p) ((uintptr_t)(p) >= (uintptr_t)-4095)
#define PTR_ERR(p) ((long)(intptr_t)(p))
#define PTR_ALIGN(p, a) ((__typeof__(p))(((uintptr_t)(p) + (a)-1) & ~(uintptr_t)((a)-1)))
#define round_down(x, y) ((x) & ~((__typeof__(x))(y)-1))
#define swab32(x) __builtin_bswap32(x)
#define KERN_WARNING ""
#define KERN_NOTICE ""
#define KERN_ERR ""
#define printk(...) fprintf(stderr, __VA_ARGS__)
#define THIS_MODULE NULL
#define module_init(f) void* shakedown_linux_module_init = (void*)(f);
#define module_exit(f) void* shakedown_linux_module_exit = (void*)(f);
#define MODULE_DEVICE_TABLE(type, name)
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_ALIAS_CRYPTO(s)

/* crypto/padlock.h */
#define PADLOCK_ALIGNMENT 16
#define PFX "padlock: "
#define PADLOCK_CRA_PRIORITY 300

/* ---- SHA-1 and SHA-256 (crypto/sha1.h, crypto/sha2.h): the states the instructions read and write ---- */
#define SHA1_DIGEST_SIZE 20
#define SHA1_BLOCK_SIZE 64
#define SHA256_DIGEST_SIZE 32
#define SHA256_BLOCK_SIZE 64
/* FIPS 180-4 §5.3.1 and §5.3.3 */
#define SHA1_H0 0x67452301u
#define SHA1_H1 0xefcdab89u
#define SHA1_H2 0x98badcfeu
#define SHA1_H3 0x10325476u
#define SHA1_H4 0xc3d2e1f0u
struct sha1_state {
  u32 state[SHA1_DIGEST_SIZE / 4];
  u64 count;
  u8 buffer[SHA1_BLOCK_SIZE];
};
#define SHA1_STATE_SIZE offsetof(struct sha1_state, buffer)
struct crypto_sha256_state {
  u32 state[SHA256_DIGEST_SIZE / 4];
  u64 count;
};
struct sha256_state {
  u32 state[SHA256_DIGEST_SIZE / 4];
  u64 count;
  u8 buf[SHA256_BLOCK_SIZE];
};
struct sha256_block_state {
  u32 h[SHA256_DIGEST_SIZE / 4];
};
struct __sha256_ctx {
  struct sha256_block_state state;
  u64 bytecount;
  u8 buf[SHA256_BLOCK_SIZE];
};
/* The harness's SHA-224 or SHA-256 initial value for the next sha256_block_init() (linux_padlock.c). */
extern const u32* shakedown_linux_sha256_iv;
static inline void sha256_block_init(struct crypto_sha256_state* s) {
  memcpy(s->state, shakedown_linux_sha256_iv, sizeof s->state);
  s->count = 0;
}
void sha256_blocks_generic(struct sha256_block_state* state, const u8* data, size_t nblocks);

/* ---- the crypto API (crypto/internal/hash.h): what the file names ---- */
#define CRYPTO_MINALIGN 16
#define CRYPTO_ALG_ASYNC 0x80u
#define CRYPTO_ALG_NEED_FALLBACK 0x100u
#define CRYPTO_AHASH_ALG_BLOCK_ONLY 0x1000000u
#define CRYPTO_AHASH_ALG_FINUP_MAX 0x2000000u
struct crypto_alg {
  const char* cra_name;
  const char* cra_driver_name;
  int cra_priority;
  unsigned cra_flags;
  unsigned cra_blocksize;
  unsigned cra_ctxsize;
  void* cra_module;
};
struct crypto_shash;
struct shash_desc {
  struct crypto_shash* tfm;
  _Alignas(16) u8 ctx[256];
};
struct shash_alg {
  unsigned digestsize;
  int (*init)(struct shash_desc*);
  int (*update)(struct shash_desc*, const u8*, unsigned int);
  int (*finup)(struct shash_desc*, const u8*, unsigned int, u8*);
  int (*export)(struct shash_desc*, void*);
  int (*import)(struct shash_desc*, const void*);
  int (*init_tfm)(struct crypto_shash*);
  void (*exit_tfm)(struct crypto_shash*);
  unsigned descsize;
  unsigned statesize;
  struct crypto_alg base;
};
struct crypto_shash {
  const struct shash_alg* alg;
  _Alignas(16) u8 ctx[64];
};
struct crypto_ahash {
  int unused;
};
struct ahash_request {
  int unused;
};
static inline void* shash_desc_ctx(struct shash_desc* desc) { return desc->ctx; }
static inline void* crypto_shash_ctx(struct crypto_shash* tfm) { return tfm->ctx; }
static inline unsigned crypto_shash_blocksize(struct crypto_shash* tfm) { return tfm->alg->base.cra_blocksize; }
static inline unsigned crypto_shash_statesize(struct crypto_shash* tfm) { return tfm->alg->statesize; }
static inline unsigned crypto_shash_coresize(struct crypto_shash* tfm) { return tfm->alg->statesize; }
static inline const char* crypto_shash_alg_name(struct crypto_shash* tfm) { return tfm->alg->base.cra_name; }
int shakedown_linux_unreachable(const char* what);
#define HASH_REQUEST_ON_STACK(name, tfm)                        \
  struct ahash_request name##_storage, *name = &name##_storage; \
  (void)(tfm)
#define HASH_REQUEST_ZERO(req) memset((req), 0, sizeof *(req))
#define ahash_request_set_callback(req, flags, fn, data) ((void)(req))
#define ahash_request_set_virt(req, src, dst, len) ((void)(req))
#define crypto_ahash_import_core(req, in) shakedown_linux_unreachable("crypto_ahash_import_core")
#define crypto_ahash_export_core(req, out) shakedown_linux_unreachable("crypto_ahash_export_core")
#define crypto_ahash_update(req) shakedown_linux_unreachable("crypto_ahash_update")
#define crypto_ahash_finup(req) shakedown_linux_unreachable("crypto_ahash_finup")
#define crypto_alloc_ahash(name, type, mask) ((struct crypto_ahash*)(uintptr_t)-ENODEV)
#define crypto_free_ahash(tfm) ((void)(tfm))
#define crypto_ahash_statesize(tfm) 0u
#define crypto_register_shash(alg) 0
#define crypto_unregister_shash(alg) ((void)(alg))

/* ---- CPU identification (asm/cpu_device_id.h, linux/cpufeature.h): never consulted by the harness ---- */
#define X86_FEATURE_SHA_NI 1
#define X86_FEATURE_PHE 2
#define X86_FEATURE_PHE_EN 3
#define X86_FEATURE_AVX 4
#define X86_FEATURE_AVX2 5
#define X86_FEATURE_BMI2 6
#define X86_FEATURE_SSSE3 7
#define XFEATURE_MASK_SSE 2
#define XFEATURE_MASK_YMM 4
struct x86_cpu_id {
  int feature;
  void* data;
};
#define X86_MATCH_FEATURE(f, d) \
  { (f), (d) }
struct cpuinfo_x86 {
  int x86, x86_model;
};
extern struct cpuinfo_x86 shakedown_linux_cpu;
#define cpu_data(n) (shakedown_linux_cpu)
#define boot_cpu_data shakedown_linux_cpu
#define boot_cpu_has(f) 0
#define x86_match_cpu(ids) ((void*)0)
#define cpu_has_xfeatures(mask, name) 0

/* ---- lib/crypto/x86/sha256.h's surroundings: FPU sections, static calls and keys ---- */
#define irq_fpu_usable() 1
#define kernel_fpu_begin() ((void)0)
#define kernel_fpu_end() ((void)0)
#define kmsan_unpoison_memory(p, n) ((void)0)
#define DEFINE_STATIC_KEY_FALSE(name) int name
#define static_branch_likely(key) (*(key))
#define static_branch_enable(key) (*(key) = 1)
#define static_key_enabled(key) (*(key))
#define DEFINE_STATIC_CALL(name, fn) static void (*name)(struct sha256_block_state*, const u8*, size_t) = fn
#define static_call(name) (name)
#define static_call_update(name, fn) ((name) = (fn))

#endif

// The C API (shakedown/c.h) over the C++ one: contexts built in caller storage, every exception turned into a status.
#include "shakedown/c.h"

#include <cstring>
#include <exception>
#include <new>
#include <string_view>
#include <type_traits>

#include "internal/bytes.h"
#include "internal/message_text.h"
#include "shakedown/shakedown.h"

namespace shakedown {
namespace {

static_assert(static_cast<int>(Algorithm::sha224) == SHAKEDOWN_SHA224 &&
              static_cast<int>(Algorithm::sha512_256) == SHAKEDOWN_SHA512_256 &&
              static_cast<int>(Algorithm::sha3_224) == SHAKEDOWN_SHA3_224 &&
              static_cast<int>(Algorithm::shake256) == SHAKEDOWN_SHAKE256 &&
              kAllAlgorithms.size() == SHAKEDOWN_ALGORITHM_COUNT);
static_assert(static_cast<int>(Family::sha256) == SHAKEDOWN_FAMILY_SHA256 &&
              static_cast<int>(Family::sha512) == SHAKEDOWN_FAMILY_SHA512 &&
              static_cast<int>(Family::keccak) == SHAKEDOWN_FAMILY_KECCAK &&
              kAllFamilies.size() == SHAKEDOWN_FAMILY_COUNT);
static_assert(kMaxDigestSize == SHAKEDOWN_MAX_DIGEST_SIZE);

// Errc -> status; a new Errc without a status here is a -Wswitch warning (an error in -Werror builds).
int status_of(Errc code) noexcept {
  switch (code) {
    case Errc::unknown_algorithm: return SHAKEDOWN_E_UNKNOWN_ALGORITHM;
    case Errc::unknown_family: return SHAKEDOWN_E_UNKNOWN_FAMILY;
    case Errc::unknown_backend: return SHAKEDOWN_E_UNKNOWN_BACKEND;
    case Errc::backend_unavailable: return SHAKEDOWN_E_BACKEND_UNAVAILABLE;
    case Errc::bad_environment: return SHAKEDOWN_E_BAD_ENVIRONMENT;
    case Errc::unknown_feature: return SHAKEDOWN_E_UNKNOWN_FEATURE;
    case Errc::finalized: return SHAKEDOWN_E_FINALIZED;
    case Errc::not_xof: return SHAKEDOWN_E_NOT_XOF;
    case Errc::wrong_phase: return SHAKEDOWN_E_WRONG_PHASE;
    case Errc::bad_output_length: return SHAKEDOWN_E_BAD_OUTPUT_LENGTH;
    case Errc::null_pointer: return SHAKEDOWN_E_NULL_POINTER;
    case Errc::message_too_long: return SHAKEDOWN_E_MESSAGE_TOO_LONG;
    case Errc::not_hmac_capable: return SHAKEDOWN_E_NOT_HMAC_CAPABLE;
  }
  return SHAKEDOWN_E_INTERNAL;
}

// This thread's last error message: a fixed buffer, so that reporting an error never allocates.
thread_local char g_last_error[512];

int fail(int status, std::string_view message) noexcept {
  const std::size_t n = internal::utf8_prefix_length(message, sizeof g_last_error - 1);
  std::memcpy(g_last_error, message.data(), n);
  g_last_error[n] = '\0';
  return status;
}

// Runs fn; every exception becomes a status (the one place a C entry point may see one).
template <class Fn>
int guarded(Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const Error& e) {
    return fail(status_of(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(SHAKEDOWN_E_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return fail(SHAKEDOWN_E_INTERNAL, e.what());
  } catch (...) {
    return fail(SHAKEDOWN_E_INTERNAL, "unknown exception");
  }
}

// Copies what fits of text into out[size] (size > 0), terminated and cut on a UTF-8 boundary; how much was kept.
std::size_t copy_cut(std::string_view text, char* out, std::size_t size) noexcept {
  const std::size_t n = internal::utf8_prefix_length(text, size - 1);
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
  return n;
}

// Copies text into a caller's buffer, always terminated; SHAKEDOWN_E_BUFFER_TOO_SMALL when it was cut.
int copy_text(std::string_view text, char* out, std::size_t size) noexcept {
  if (out == nullptr || size == 0) return fail(SHAKEDOWN_E_NULL_POINTER, "name buffer is null or empty");
  return copy_cut(text, out, size) == text.size() ? SHAKEDOWN_OK : fail(SHAKEDOWN_E_BUFFER_TOO_SMALL, "name truncated");
}

bool valid(shakedown_algorithm alg) noexcept { return alg >= 0 && alg < SHAKEDOWN_ALGORITHM_COUNT; }
Algorithm algorithm(shakedown_algorithm alg) {
  if (!valid(alg))
    throw Error(Errc::unknown_algorithm, "algorithm value " + std::to_string(alg) + " is not a shakedown_algorithm");
  return static_cast<Algorithm>(alg);
}
Family family(shakedown_family f) {
  if (f < 0 || f >= SHAKEDOWN_FAMILY_COUNT)
    throw Error(Errc::unknown_family, "family value " + std::to_string(f) + " is not a shakedown_family");
  return static_cast<Family>(f);
}

// A C++ object living in a C context's storage, behind a tag that says which kind was constructed there (and that
// it still is): a context that was never initialized, or was cleaned up, is refused rather than used.
template <class Object, std::uint64_t Tag, class CContext>
struct Slot {
  std::uint64_t tag;
  alignas(Object) unsigned char object[sizeof(Object)];

  static_assert(sizeof(CContext) >= sizeof(std::uint64_t) + sizeof(Object) + alignof(Object),
                "the context size of shakedown/c.h no longer holds the C++ object");
  static_assert(alignof(CContext) >= alignof(std::uint64_t) && alignof(CContext) >= alignof(Object));

  // Through the union (aligned like its long double member), not its byte array: the storage's alignment is the
  // union's.
  static Slot* of(CContext* c) noexcept { return reinterpret_cast<Slot*>(&c->opaque); }
  static const Slot* of(const CContext* c) noexcept { return reinterpret_cast<const Slot*>(&c->opaque); }
  Object& get() noexcept { return *std::launder(reinterpret_cast<Object*>(object)); }
  const Object& get() const noexcept { return *std::launder(reinterpret_cast<const Object*>(object)); }

  // The live object, or SHAKEDOWN_E_NOT_INITIALIZED / NULL_POINTER through the status.
  static Object* live(CContext* c, int& status) noexcept {
    if (c == nullptr) {
      status = fail(SHAKEDOWN_E_NULL_POINTER, "context is null");
      return nullptr;
    }
    if (of(c)->tag != Tag) {
      status = fail(SHAKEDOWN_E_NOT_INITIALIZED, "context is not initialized (or was cleaned up)");
      return nullptr;
    }
    return &of(c)->get();
  }
  static const Object* live(const CContext* c, int& status) noexcept { return live(const_cast<CContext*>(c), status); }

  // Constructs the object make() returns in place (guaranteed elision). The storage is wiped first and its old
  // contents never read: it may be uninitialized (a context on the stack), and a live context initialized again
  // loses its old state the same way (the objects own nothing but their bytes: destruction is zeroization).
  template <class Make>
  static int construct(CContext* c, Make&& make) {
    if (c == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "context is null");
    destroy(c);
    try {
      new (of(c)->object) Object(make());
    } catch (...) {
      destroy(c);  // a constructor that threw may have written part of the object
      throw;
    }
    of(c)->tag = Tag;
    return SHAKEDOWN_OK;
  }
  // Wipes all of the storage without reading it (cleanup is allowed on a context never initialized): the objects'
  // destructors do nothing but zeroize, which this does for every byte. One memset behind secure_zero's barrier,
  // not a volatile byte loop: that loop was a store (and, in fuzz builds, an ASan check and a coverage compare
  // hook) per byte of the 1536-byte HMAC storage at every init, copy and cleanup.
  static void destroy(CContext* c) noexcept {
    if (c == nullptr) return;
    internal::secure_zero(c->opaque.bytes, sizeof c->opaque.bytes);
  }
  // dst may be uninitialized: it is wiped and a copy constructed there, its old contents never read.
  static int copy(CContext* dst, const CContext* src) noexcept {
    int status = SHAKEDOWN_OK;
    const Object* from = live(src, status);
    if (from == nullptr) return status;
    if (dst == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "context is null");
    if (dst == src) return SHAKEDOWN_OK;
    destroy(dst);
    new (of(dst)->object) Object(*from);  // noexcept copy constructor
    of(dst)->tag = Tag;
    return SHAKEDOWN_OK;
  }
};
static_assert(std::is_nothrow_copy_constructible_v<Hasher> && std::is_nothrow_copy_assignable_v<Hasher> &&
              std::is_nothrow_copy_constructible_v<Hmac> && std::is_nothrow_copy_assignable_v<Hmac>);

// Distinct tags: a context of one kind passed as another is refused too.
using HashSlot = Slot<Hasher, 0x73686b2d68617368ull, shakedown_hash_ctx>;  // "shk-hash"
using XofSlot = Slot<Hasher, 0x73686b2d786f6621ull, shakedown_xof_ctx>;    // "shk-xof!"
using HmacSlot = Slot<Hmac, 0x73686b2d686d6163ull, shakedown_hmac_ctx>;    // "shk-hmac"

// fn(object) on a live context, guarded.
template <class S, class C, class Fn>
int with(C* ctx, Fn&& fn) noexcept {
  int status = SHAKEDOWN_OK;
  auto* object = S::live(ctx, status);
  if (object == nullptr) return status;
  return guarded([&] { return fn(*object); });
}

Hasher make_hasher(shakedown_algorithm alg, const char* backend) {
  return backend == nullptr ? Hasher(algorithm(alg)) : Hasher(algorithm(alg), backend);
}

}  // namespace
}  // namespace shakedown

using namespace shakedown;

extern "C" {

const char* shakedown_status_name(int status) {
  switch (status) {
#define SHAKEDOWN_STATUS_NAME(s) \
  case s: return #s;
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_OK)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_UNKNOWN_ALGORITHM)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_UNKNOWN_FAMILY)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_UNKNOWN_BACKEND)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_BACKEND_UNAVAILABLE)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_BAD_ENVIRONMENT)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_UNKNOWN_FEATURE)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_FINALIZED)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_NOT_XOF)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_WRONG_PHASE)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_BAD_OUTPUT_LENGTH)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_NULL_POINTER)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_MESSAGE_TOO_LONG)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_NOT_HMAC_CAPABLE)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_VERIFY_FAILED)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_BUFFER_TOO_SMALL)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_NOT_INITIALIZED)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_OUT_OF_MEMORY)
    SHAKEDOWN_STATUS_NAME(SHAKEDOWN_E_INTERNAL)
#undef SHAKEDOWN_STATUS_NAME
  }
  return "unknown status";
}

const char* shakedown_last_error(void) { return g_last_error; }

const char* shakedown_version(void) { return SHAKEDOWN_VERSION_STRING; }

size_t shakedown_hash_ctx_size(void) { return sizeof(shakedown_hash_ctx); }
size_t shakedown_xof_ctx_size(void) { return sizeof(shakedown_xof_ctx); }
size_t shakedown_hmac_ctx_size(void) { return sizeof(shakedown_hmac_ctx); }

const char* shakedown_algorithm_name(shakedown_algorithm alg) {
  // name() views string literals: their terminating NUL is there.
  return valid(alg) ? name(static_cast<Algorithm>(alg)).data() : nullptr;
}

int shakedown_algorithm_from_name(const char* text, shakedown_algorithm* alg) {
  if (text == nullptr || alg == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "name or result is null");
  const auto parsed = parse_algorithm(text);
  if (!parsed) return fail(SHAKEDOWN_E_UNKNOWN_ALGORITHM, "not an algorithm name");
  *alg = static_cast<shakedown_algorithm>(*parsed);
  return SHAKEDOWN_OK;
}

size_t shakedown_digest_size(shakedown_algorithm alg) {
  return valid(alg) ? digest_size(static_cast<Algorithm>(alg)) : 0;
}
size_t shakedown_block_size(shakedown_algorithm alg) {
  return valid(alg) ? block_size(static_cast<Algorithm>(alg)) : 0;
}
int shakedown_is_xof(shakedown_algorithm alg) {
  return valid(alg) ? (is_xof(static_cast<Algorithm>(alg)) ? 1 : 0) : -1;
}

int shakedown_family_of(shakedown_algorithm alg, shakedown_family* out) {
  return guarded([&]() -> int {
    if (out == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "result is null");
    *out = static_cast<shakedown_family>(family_of(algorithm(alg)));
    return SHAKEDOWN_OK;
  });
}

int shakedown_hash(shakedown_algorithm alg, const void* data, size_t len, void* out, size_t outlen) {
  return guarded([&] {
    hash(algorithm(alg), data, len, out, outlen);
    return SHAKEDOWN_OK;
  });
}

int shakedown_hmac(shakedown_algorithm alg, const void* key, size_t keylen, const void* data, size_t len, void* out,
                   size_t outlen) {
  return guarded([&] {
    Hmac mac(algorithm(alg), key, keylen);
    mac.update(data, len);
    mac.final(std::span<std::uint8_t>(static_cast<std::uint8_t*>(out), outlen));
    return SHAKEDOWN_OK;
  });
}

// ---- Hash contexts ----

int shakedown_hash_init(shakedown_hash_ctx* ctx, shakedown_algorithm alg, const char* backend) {
  return guarded([&] { return HashSlot::construct(ctx, [&] { return make_hasher(alg, backend); }); });
}
int shakedown_hash_update(shakedown_hash_ctx* ctx, const void* data, size_t len) {
  return with<HashSlot>(ctx, [&](Hasher& h) {
    h.update(data, len);
    return SHAKEDOWN_OK;
  });
}
int shakedown_hash_final(shakedown_hash_ctx* ctx, void* out, size_t outlen) {
  return with<HashSlot>(ctx, [&](Hasher& h) {
    h.final(out, outlen);
    return SHAKEDOWN_OK;
  });
}
int shakedown_hash_reset(shakedown_hash_ctx* ctx) {
  return with<HashSlot>(ctx, [](Hasher& h) {
    h.reset();
    return SHAKEDOWN_OK;
  });
}
int shakedown_hash_copy(shakedown_hash_ctx* dst, const shakedown_hash_ctx* src) { return HashSlot::copy(dst, src); }
int shakedown_hash_backend(const shakedown_hash_ctx* ctx, char* buffer, size_t size) {
  return with<HashSlot>(ctx, [&](const Hasher& h) { return copy_text(h.backend_name(), buffer, size); });
}
void shakedown_hash_cleanup(shakedown_hash_ctx* ctx) { HashSlot::destroy(ctx); }

// ---- XOF contexts ----

int shakedown_xof_init(shakedown_xof_ctx* ctx, shakedown_algorithm alg, const char* backend) {
  return guarded([&] {
    return XofSlot::construct(ctx, [&] {
      if (!is_xof(algorithm(alg)))
        throw Error(Errc::not_xof, std::string(name(algorithm(alg))) + " is not an XOF: use shakedown_hash_init");
      return make_hasher(alg, backend);
    });
  });
}
int shakedown_xof_update(shakedown_xof_ctx* ctx, const void* data, size_t len) {
  return with<XofSlot>(ctx, [&](Hasher& h) {
    h.update(data, len);
    return SHAKEDOWN_OK;
  });
}
int shakedown_xof_squeeze(shakedown_xof_ctx* ctx, void* out, size_t len) {
  return with<XofSlot>(ctx, [&](Hasher& h) {
    h.squeeze(out, len);
    return SHAKEDOWN_OK;
  });
}
int shakedown_xof_reset(shakedown_xof_ctx* ctx) {
  return with<XofSlot>(ctx, [](Hasher& h) {
    h.reset();
    return SHAKEDOWN_OK;
  });
}
int shakedown_xof_copy(shakedown_xof_ctx* dst, const shakedown_xof_ctx* src) { return XofSlot::copy(dst, src); }
int shakedown_xof_backend(const shakedown_xof_ctx* ctx, char* buffer, size_t size) {
  return with<XofSlot>(ctx, [&](const Hasher& h) { return copy_text(h.backend_name(), buffer, size); });
}
void shakedown_xof_cleanup(shakedown_xof_ctx* ctx) { XofSlot::destroy(ctx); }

// ---- HMAC contexts ----

int shakedown_hmac_init(shakedown_hmac_ctx* ctx, shakedown_algorithm alg, const void* key, size_t keylen,
                        const char* backend) {
  return guarded([&] {
    return HmacSlot::construct(ctx, [&] {
      if (key == nullptr && keylen != 0) throw Error(Errc::null_pointer, "HMAC key is null");
      const std::span<const std::uint8_t> k(static_cast<const std::uint8_t*>(key), keylen);
      return backend == nullptr ? Hmac(algorithm(alg), k) : Hmac(algorithm(alg), k, std::string_view(backend));
    });
  });
}
int shakedown_hmac_update(shakedown_hmac_ctx* ctx, const void* data, size_t len) {
  return with<HmacSlot>(ctx, [&](Hmac& m) {
    m.update(data, len);
    return SHAKEDOWN_OK;
  });
}
int shakedown_hmac_final(shakedown_hmac_ctx* ctx, void* out, size_t outlen) {
  return with<HmacSlot>(ctx, [&](Hmac& m) {
    m.final(std::span<std::uint8_t>(static_cast<std::uint8_t*>(out), outlen));
    return SHAKEDOWN_OK;
  });
}
int shakedown_hmac_verify(shakedown_hmac_ctx* ctx, const void* tag, size_t taglen) {
  return with<HmacSlot>(ctx, [&](Hmac& m) {
    if (tag == nullptr && taglen != 0) throw Error(Errc::null_pointer, "HMAC tag is null");
    const bool equal = m.verify({static_cast<const std::uint8_t*>(tag), taglen});
    return equal ? SHAKEDOWN_OK : fail(SHAKEDOWN_E_VERIFY_FAILED, "HMAC tag mismatch");
  });
}
int shakedown_hmac_verify_truncated(shakedown_hmac_ctx* ctx, const void* tag, size_t taglen, size_t expected_len) {
  return with<HmacSlot>(ctx, [&](Hmac& m) {
    if (tag == nullptr && taglen != 0) throw Error(Errc::null_pointer, "HMAC tag is null");
    return m.verify_truncated({static_cast<const std::uint8_t*>(tag), taglen}, expected_len)
               ? SHAKEDOWN_OK
               : fail(SHAKEDOWN_E_VERIFY_FAILED, "HMAC tag mismatch");
  });
}
int shakedown_hmac_reset(shakedown_hmac_ctx* ctx) {
  return with<HmacSlot>(ctx, [](Hmac& m) {
    m.reset();
    return SHAKEDOWN_OK;
  });
}
int shakedown_hmac_copy(shakedown_hmac_ctx* dst, const shakedown_hmac_ctx* src) { return HmacSlot::copy(dst, src); }
int shakedown_hmac_backend(const shakedown_hmac_ctx* ctx, char* buffer, size_t size) {
  return with<HmacSlot>(ctx, [&](const Hmac& m) { return copy_text(m.backend_name(), buffer, size); });
}
void shakedown_hmac_cleanup(shakedown_hmac_ctx* ctx) { HmacSlot::destroy(ctx); }

// ---- Backends ----

int shakedown_backend_count(shakedown_family f, size_t* count) {
  return guarded([&]() -> int {
    if (count == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "count is null");
    *count = backends(family(f)).size();
    return SHAKEDOWN_OK;
  });
}

int shakedown_backend_get(shakedown_family f, size_t index, shakedown_backend_info* info) {
  return guarded([&]() -> int {
    if (info == nullptr) return fail(SHAKEDOWN_E_NULL_POINTER, "info is null");
    const auto all = backends(family(f));
    if (index >= all.size())
      throw Error(Errc::unknown_backend,
                  "backend index " + std::to_string(index) + " of " + std::to_string(all.size()));
    const BackendStatus& b = all[index];
    std::memset(info, 0, sizeof *info);
    info->available = b.available ? 1 : 0;
    info->selected = b.selected ? 1 : 0;
    // A long reason is cut and the call still succeeds, so the cut is not reported (shakedown_last_error changes
    // on failure only).
    copy_cut(b.reason, info->reason, sizeof info->reason);
    return copy_text(b.name, info->name, sizeof info->name);
  });
}

int shakedown_selected_backend(shakedown_family f, char* buffer, size_t size) {
  return guarded([&] { return copy_text(selected_backend(family(f)), buffer, size); });
}

int shakedown_check_environment(void) {
  return guarded([] {
    check_environment();
    return SHAKEDOWN_OK;
  });
}

}  // extern "C"

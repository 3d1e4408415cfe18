// Runs one vector file through one (algorithm, backend): failures name file:line, counts say what ran.
#include "runners.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <optional>

#include "cavp.h"
#include "monte.h"
#include "shakedown/shakedown.h"
#include "vector_files.h"
#include "wycheproof.h"

namespace shakedown::vectors {

namespace {

// Collects mismatches of one file: the first few become failures with full detail, the rest are
// summarized, so a broken backend yields a readable report instead of thousands of lines.
class Mismatches {
 public:
  explicit Mismatches(std::string who) : who_(std::move(who)) {}
  Mismatches(const Mismatches&) = delete;
  Mismatches& operator=(const Mismatches&) = delete;
  ~Mismatches() {
    if (total_ > kShown) ADD_FAILURE() << who_ << ": " << total_ - kShown << " more mismatches not shown";
  }
  void add(const std::string& where, const std::string& what) {
    if (++total_ <= kShown) ADD_FAILURE() << where << ": " << who_ << ": " << what;
  }
  // Compares and reports "<path>: expected <hex>, got <hex>"; returns whether they matched.
  bool check(const std::string& where, std::string_view path, const Bytes& expected, const Bytes& got) {
    if (expected == got) return true;
    add(where, std::string(path) + ": expected " + test::to_hex(expected) + ", got " + test::to_hex(got));
    return false;
  }
  std::size_t total() const { return total_; }

 private:
  static constexpr std::size_t kShown = 10;
  std::string who_;
  std::size_t total_ = 0;
};

// Runs `body` and turns any exception into one failure: a malformed file (VectorFileError, which
// already names file:line), or a library error mid-run. Returns the body's count, or 0 when the
// file never loaded; with a later exception the vectors completed before it still count.
template <class Body>
std::size_t guarded(const test::AlgBackend& p, const std::string& path, std::size_t& completed, Body body) {
  try {
    body();
  } catch (const VectorFileError& e) {
    ADD_FAILURE() << e.what() << " [" << who(p) << "]";
  } catch (const std::exception& e) {
    ADD_FAILURE() << path << ": " << who(p) << ": unexpected exception after " << completed
                  << " vectors: " << e.what();
  }
  return completed;
}

// Chunk lengths cycled through by the split-update paths: single bytes, odd sizes, and sizes
// around the block (rate) boundary so that buffering and multi-block calls all run.
std::array<std::size_t, 6> chunk_cycle(Algorithm alg) {
  std::size_t block = block_size(alg);
  return {1, 13, block - 1, block, block + 1, 3 * block + 7};
}

Bytes hash_in_chunks(const test::AlgBackend& p, const Bytes& msg, std::size_t outlen) {
  Hasher ctx(p.alg, p.backend);
  auto cycle = chunk_cycle(p.alg);
  std::size_t at = 0;
  for (std::size_t i = 0; at < msg.size(); ++i) {
    std::size_t n = std::min(cycle[i % cycle.size()], msg.size() - at);
    ctx.update(msg.data() + at, n);
    at += n;
  }
  Bytes out(outlen);
  if (is_xof(p.alg) && outlen > 1) {
    // Two squeezes must equal one (FIPS 202 §4: the output is one bit string read in order).
    ctx.squeeze(out.data(), 1);
    ctx.squeeze(out.data() + 1, outlen - 1);
  } else {
    ctx.final(out);
  }
  return out;
}

Bytes hash_with_hasher(const test::AlgBackend& p, const Bytes& msg, std::size_t outlen) {
  Hasher ctx(p.alg, p.backend);
  ctx.update(msg);
  Bytes out(outlen);
  ctx.final(out);
  return out;
}

Bytes hash_one_shot(const test::AlgBackend& p, const Bytes& msg, std::size_t outlen) {
  Bytes out(outlen);
  hash(p.alg, p.backend, msg, out);
  return out;
}

std::string algorithm_label(Algorithm alg) { return std::string(name(alg)); }

}  // namespace

std::string who(const test::AlgBackend& p) { return algorithm_label(p.alg) + " on " + p.backend; }

std::size_t run_msg_file(const std::string& path, const test::AlgBackend& p, std::size_t split_limit) {
  std::size_t completed = 0;
  return guarded(p, path, completed, [&] {
    const std::string_view field = is_xof(p.alg) ? "Output" : "MD";
    auto vectors = parse_msg_file(path, field, is_xof(p.alg) ? 0 : digest_size(p.alg));
    Mismatches bad(who(p));
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      const MsgVector& v = vectors[i];
      const std::size_t outlen = v.expected.size();
      bad.check(v.where, "Hasher(alg, backend)", v.expected, hash_with_hasher(p, v.msg, outlen));
      bad.check(v.where, "hash(alg, backend, ...)", v.expected, hash_one_shot(p, v.msg, outlen));
      if (i < split_limit) bad.check(v.where, "chunked updates", v.expected, hash_in_chunks(p, v.msg, outlen));
      ++completed;
    }
  });
}

std::size_t run_monte_file(const std::string& path, const test::AlgBackend& p, std::size_t checkpoints) {
  std::size_t completed = 0;
  return guarded(p, path, completed, [&] {
    const bool xof = is_xof(p.alg);
    MonteFile monte = parse_monte_file(path, xof ? 0 : digest_size(p.alg));
    checkpoints = std::min(checkpoints, monte.checkpoints.size());
    Hasher ctx(p.alg, p.backend);
    std::vector<Bytes> got;
    if (xof)
      got = shake_monte(ctx, monte.seed, monte.min_out_bytes, monte.max_out_bytes, checkpoints);
    else if (family_of(p.alg) == Family::keccak)
      got = sha3_monte(ctx, monte.seed, checkpoints);
    else
      got = sha2_monte(ctx, monte.seed, checkpoints);
    Mismatches bad(who(p));
    for (std::size_t j = 0; j < checkpoints; ++j) {
      // Every later checkpoint derives from this one: report the first divergence only.
      if (!bad.check(monte.checkpoints[j].where, "Monte Carlo checkpoint", monte.checkpoints[j].output, got[j]))
        break;
      ++completed;
    }
  });
}

std::size_t run_variable_out_file(const std::string& path, const test::AlgBackend& p) {
  std::size_t completed = 0;
  return guarded(p, path, completed, [&] {
    auto vectors = parse_variable_out_file(path);
    Mismatches bad(who(p));
    for (const VariableOutVector& v : vectors) {
      const std::size_t outlen = v.expected.size();
      bad.check(v.where, "Hasher final", v.expected, hash_with_hasher(p, v.msg, outlen));
      bad.check(v.where, "hash(alg, backend, ...)", v.expected, hash_one_shot(p, v.msg, outlen));
      bad.check(v.where, "chunked updates, split squeeze", v.expected, hash_in_chunks(p, v.msg, outlen));
      ++completed;
    }
  });
}

// A verifier that knows the tag length it expects (hmac.h): verify() for the full digest, verify_truncated() from
// the RFC 2104 §5 minimum up, and below that minimum a refusal (Errc::bad_output_length, checked here), so that
// nothing verifies. nullopt for a refusal. Whatever the length, verify() of a shorter tag must say false.
std::optional<bool> verify_stated(const Hmac& keyed, const Bytes& tag, std::size_t stated, Mismatches& bad,
                                  const std::string& where) {
  const std::size_t full = digest_size(keyed.algorithm());
  if (stated < full) {
    Hmac plain = keyed;
    if (plain.verify(tag)) bad.add(where, "Hmac::verify accepted a truncated tag (no length stated)");
  }
  Hmac verifier = keyed;
  if (stated == full) return verifier.verify(tag);
  if (stated >= Hmac::min_truncated_length(keyed.algorithm())) return verifier.verify_truncated(tag, stated);
  try {
    (void)verifier.verify_truncated(tag, stated);
    bad.add(where, "Hmac::verify_truncated accepted a stated length below the RFC 2104 §5 minimum");
  } catch (const Error& e) {
    if (e.code() != Errc::bad_output_length) bad.add(where, std::string("verify_truncated threw ") + e.what());
  }
  return std::nullopt;
}

std::size_t run_nist_hmac_file(const std::string& path, const test::AlgBackend& p, std::size_t* skipped_sha1) {
  std::size_t completed = 0;
  *skipped_sha1 = 0;
  return guarded(p, path, completed, [&] {
    auto vectors = parse_hmac_file(path);
    Mismatches bad(who(p));
    for (const HmacVector& v : vectors) {
      // HMACVS [L=bytes] names the hash by its output size (SHA-1 and the four plain SHA-2 sizes).
      std::optional<Algorithm> alg;
      switch (v.digest_bytes) {
        case 20: ++*skipped_sha1; continue;  // SHA-1: out of scope, counted explicitly
        case 28: alg = Algorithm::sha224; break;
        case 32: alg = Algorithm::sha256; break;
        case 48: alg = Algorithm::sha384; break;
        case 64: alg = Algorithm::sha512; break;
        default:
          throw VectorFileError(v.where + ": expected a section [L=20|28|32|48|64], got [L=" +
                                std::to_string(v.digest_bytes) + "]");
      }
      if (*alg != p.alg) continue;
      Hmac mac(p.alg, v.key, p.backend);
      mac.update(v.msg);
      const Hmac keyed = mac;  // copy mid-stream: same key and message
      Bytes tag(v.mac.size());
      mac.final(tag);  // FIPS 198-1 §5: the leftmost Tlen bytes
      bad.check(v.where, "HMAC truncated to Tlen", v.mac, tag);
      if (verify_stated(keyed, v.mac, v.mac.size(), bad, v.where) == false)
        bad.add(v.where, "Hmac::verify rejected the file's Mac");
      Bytes wrong = v.mac;
      wrong.back() ^= 1;
      if (verify_stated(keyed, wrong, wrong.size(), bad, v.where) == true)
        bad.add(v.where, "Hmac::verify accepted a Mac with its last bit flipped");
      ++completed;
    }
  });
}

std::size_t run_wycheproof_file(const std::string& path, const test::AlgBackend& p) {
  std::size_t completed = 0;
  return guarded(p, path, completed, [&] {
    WycheproofMacFile file = parse_wycheproof_mac_file(path);
    if (file.algorithm != wycheproof_hmac_algorithm(p.alg))
      throw VectorFileError(path + ": expected \"algorithm\": \"" + wycheproof_hmac_algorithm(p.alg) +
                            "\", got \"" + file.algorithm + "\"");
    Mismatches bad(who(p));
    for (const WycheproofMacTest& t : file.tests) {
      if (t.tag_bytes > digest_size(p.alg))
        throw VectorFileError(t.where + ": expected tagSize <= the digest size");
      Hmac mac(p.alg, t.key, p.backend);
      // Split the message so the verify path also runs incremental updates.
      std::size_t half = t.msg.size() / 2;
      mac.update(t.msg.data(), half);
      mac.update(t.msg.data() + half, t.msg.size() - half);
      const Hmac keyed = mac;
      Bytes computed(t.tag_bytes);
      mac.final(computed);
      // The file's tagSize is the length its verifier states; a tag of another length (some invalid cases) is
      // checked at that stated length, where the library must say false.
      const std::optional<bool> verified = verify_stated(keyed, t.tag, t.tag_bytes, bad, t.where);
      if (t.valid) {
        bad.check(t.where, "valid tag (truncated to tagSize)", t.tag, computed);
        if (verified == false) bad.add(t.where, "Hmac::verify rejected a valid tag");
      } else if (verified == true) {
        bad.add(t.where, "Hmac::verify accepted an invalid tag " + test::to_hex(t.tag));
      } else if (computed == t.tag) {
        bad.add(t.where, "Hmac::verify rejected a tag equal to the computed MAC (the file marks it invalid)");
      }
      ++completed;
    }
  });
}

std::vector<test::AlgBackend> alg_backends_where(bool (*keep)(Algorithm)) {
  std::vector<test::AlgBackend> out;
  for (auto& p : test::all_alg_backends())
    if (keep(p.alg)) out.push_back(p);
  return out;
}

std::string param_label(const ::testing::TestParamInfo<test::AlgBackend>& info) {
  return test::param_name(info.param);
}

void report_count(std::string_view check, const test::AlgBackend& p, std::size_t count, const std::string& file) {
  std::printf("[vectors] %-11.*s %-11s on %-16s %5zu vectors (%s)\n", static_cast<int>(check.size()), check.data(),
              algorithm_label(p.alg).c_str(), p.backend.c_str(), count, file.c_str());
  if (count == 0) {
    ADD_FAILURE() << who(p) << ": no " << check << " vector ran from " << file
                  << " (a backend that ran nothing does not pass)";
    return;
  }
  test::record("vectors", p.alg, p.backend, check, count);
}

}  // namespace shakedown::vectors

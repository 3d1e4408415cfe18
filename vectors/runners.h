// Runs one vector file through one (algorithm, backend): failures name file:line, counts say what ran.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "support.h"

namespace shakedown::vectors {

// Every runner loads `path`, runs each vector through the backend `p.backend` and reports each
// mismatch as a GoogleTest failure "path:line: <alg> on <backend>: ...". A file that cannot be
// read or parsed is one failure naming file:line and what was expected (never an exception
// escaping). Returns how many vectors ran to completion (0 when the file did not load).

// ShortMsg / LongMsg: Hasher(alg, backend) one-shot, hash(alg, backend, ...), and chunked updates
// (for SHAKE also a split squeeze) on the first `split_limit` vectors.
std::size_t run_msg_file(const std::string& path, const test::AlgBackend& p, std::size_t split_limit);

// Monte Carlo: the first `checkpoints` (<= 100) checkpoints with the family's procedure.
std::size_t run_monte_file(const std::string& path, const test::AlgBackend& p, std::size_t checkpoints);

// SHAKE VariableOut: Hasher final, hash(alg, backend, ...) and a split squeeze.
std::size_t run_variable_out_file(const std::string& path, const test::AlgBackend& p);

// NIST HMAC.rsp: the [L=...] section of p.alg (SHA-224/256/384/512); the tag truncated to Tlen must
// match and verify, and a one-bit-flipped tag must not verify. `skipped_sha1` receives the number
// of [L=20] records (SHA-1 is out of scope).
std::size_t run_nist_hmac_file(const std::string& path, const test::AlgBackend& p, std::size_t* skipped_sha1);

// Wycheproof HMAC JSON: valid tags must match (truncated to tagSize) and verify; invalid must not verify.
std::size_t run_wycheproof_file(const std::string& path, const test::AlgBackend& p);

// Prints "[vectors] <check> <alg> on <backend>: N vectors (<file>)", records the count for the
// coverage gate, and fails the test when N is 0: a backend that ran no vector never passes.
void report_count(std::string_view check, const test::AlgBackend& p, std::size_t count, const std::string& file);

// Parameters: every (algorithm, backend) pair whose algorithm passes `keep`, and the gtest name
// generator that puts algorithm and backend into every test name ("sha512_256__x86_64_avx2").
std::vector<test::AlgBackend> alg_backends_where(bool (*keep)(Algorithm));
inline bool any_algorithm(Algorithm) { return true; }
std::string param_label(const ::testing::TestParamInfo<test::AlgBackend>& info);

// "sha256 on x86_64/shani": the prefix of every failure message.
std::string who(const test::AlgBackend& p);

}  // namespace shakedown::vectors

// The consolidated "hash of hashes" (consolidated_spec.h) computed through one backend, and its file.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "rsp_reader.h"
#include "support.h"

namespace shakedown::vectors {

// data/consolidated.txt: "<algorithm name> <hex>" lines, '#' comments. VectorFileError (path:line)
// on a malformed line, an unknown algorithm name, bad hex, or a repeated algorithm.
std::map<Algorithm, Bytes> read_consolidated_file(const std::string& path);

// The per-length outputs of consolidated_spec.h concatenated, for lengths 0 .. count-1, hashed
// on p.backend either one-shot (hash(alg, backend, ...)) or with chunked Hasher updates.
enum class HashPath { one_shot, chunked };
Bytes consolidated_outputs(const test::AlgBackend& p, HashPath path, std::size_t count);
// The final step: H(outputs) on p.backend (SHAKE: 64 bytes).
Bytes consolidate(const test::AlgBackend& p, const Bytes& outputs);

}  // namespace shakedown::vectors

// Typed parsers for the NIST CAVP hash and HMAC response files (SHAVS, SHA3VS, HMACVS).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rsp_reader.h"

namespace shakedown::vectors {

// ShortMsg / LongMsg record: `Len` (message bits), `Msg`, and the digest field.
struct MsgVector {
  std::string where;  // "path:line" of the record
  Bytes msg;          // the first Len/8 bytes of `Msg` (Len = 0 carries a placeholder `Msg = 00`)
  Bytes expected;
};

// digest_field: "MD" (SHA-2, SHA-3) or "Output" (SHAKE). digest_bytes: required size of every
// digest; for SHAKE pass 0 and the `[Outputlen = bits]` header is required instead.
// Len must be a multiple of 8 (these are the byte-oriented files) and match `Msg` exactly.
std::vector<MsgVector> parse_msg_file(const std::string& path, std::string_view digest_field,
                                      std::size_t digest_bytes);

// Monte Carlo file: seed plus 100 checkpoints (COUNT = 0..99 in order, all required).
struct MonteCheckpoint {
  std::string where;
  Bytes output;  // `MD` (SHA-2/SHA-3) or `Output` (SHAKE, of `Outputlen` bits)
};
struct MonteFile {
  Bytes seed;                    // `Seed` (SHAVS, SHA3VS §6.2) or `Msg` (SHAKE, SHA3VS §6.3)
  std::size_t min_out_bytes = 0; // SHAKE only: [Minimum Output Length (bits)] / 8
  std::size_t max_out_bytes = 0; // SHAKE only: [Maximum Output Length (bits)] / 8
  std::vector<MonteCheckpoint> checkpoints;
};
inline constexpr std::size_t kMonteCheckpoints = 100;  // SHAVS §6.4, SHA3VS §6.2.3 / §6.3.3
inline constexpr std::size_t kMonteInnerIterations = 1000;

// digest_bytes as for parse_msg_file (0 for SHAKE: variable `Outputlen` per checkpoint).
MonteFile parse_monte_file(const std::string& path, std::size_t digest_bytes);

// SHAKE VariableOut record: `COUNT`, `Outputlen` (bits, byte multiple), `Msg`, `Output`.
struct VariableOutVector {
  std::string where;
  Bytes msg;
  Bytes expected;
};
std::vector<VariableOutVector> parse_variable_out_file(const std::string& path);

// HMACVS record (HMAC.rsp): section `[L=bytes]`, `Count`, `Klen`, `Tlen`, `Key`, `Msg`, `Mac`.
struct HmacVector {
  std::string where;
  std::size_t digest_bytes;  // the section's L: 20 SHA-1, 28 SHA-224, 32 SHA-256, 48 SHA-384, 64 SHA-512
  Bytes key;                 // Klen bytes
  Bytes msg;
  Bytes mac;                 // the leftmost Tlen bytes of the HMAC (FIPS 198-1 §5)
};
std::vector<HmacVector> parse_hmac_file(const std::string& path);

}  // namespace shakedown::vectors

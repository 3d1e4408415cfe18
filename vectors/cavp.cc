// Typed parsers for the NIST CAVP hash and HMAC response files (SHAVS, SHA3VS, HMACVS).
#include "cavp.h"

namespace shakedown::vectors {

namespace {

// The record's "path:line: " prefixed error.
[[noreturn]] void fail(const RspRecord& r, std::string_view field, const std::string& message) {
  throw VectorFileError(r.where(field) + ": " + message);
}

void expect_records(const RspFile& file, std::string_view what) {
  if (file.records.empty()) fail_at(file.path, 0, "expected " + std::string(what) + " records, found none");
}

// `name` must hold exactly `bytes` bytes of hex.
Bytes hex_of_size(const RspRecord& r, std::string_view name, std::size_t bytes) {
  Bytes value = r.hex(name);
  if (value.size() != bytes)
    fail(r, name, "expected `" + std::string(name) + "` of " + std::to_string(bytes) + " bytes, got " +
                      std::to_string(value.size()));
  return value;
}

// A bit length that the byte-oriented files promise is a multiple of 8; returns bytes.
std::size_t bits_to_bytes(const RspRecord& r, std::string_view name, std::uint64_t bits) {
  if (bits % 8 != 0)
    fail(r, name, "expected `" + std::string(name) + "` to be a multiple of 8 bits, got " + std::to_string(bits));
  return static_cast<std::size_t>(bits / 8);
}

// A `[name (bits) = n]` header, in bytes.
std::size_t header_bytes(const RspRecord& r, std::string_view name) {
  return bits_to_bytes(r, "", r.param_number(name));
}

}  // namespace

std::vector<MsgVector> parse_msg_file(const std::string& path, std::string_view digest_field,
                                      std::size_t digest_bytes) {
  RspFile file = read_rsp(path);
  expect_records(file, "`Len`/`Msg`/`" + std::string(digest_field) + "`");
  std::vector<MsgVector> out;
  out.reserve(file.records.size());
  for (const RspRecord& r : file.records) {
    std::size_t len = bits_to_bytes(r, "Len", r.number("Len"));
    Bytes msg = r.hex("Msg");
    // SHAVS §5 / SHA3VS: a Len = 0 record carries the placeholder `Msg = 00`; hash Len/8 bytes.
    std::size_t msg_field_bytes = len == 0 ? 1 : len;
    if (msg.size() != msg_field_bytes)
      fail(r, "Msg", "expected `Msg` of " + std::to_string(msg_field_bytes) + " bytes for Len = " +
                         std::to_string(len * 8) + ", got " + std::to_string(msg.size()));
    msg.resize(len);
    std::size_t want = digest_bytes ? digest_bytes : header_bytes(r, "Outputlen");
    out.push_back({r.where(), std::move(msg), hex_of_size(r, digest_field, want)});
  }
  return out;
}

MonteFile parse_monte_file(const std::string& path, std::size_t digest_bytes) {
  RspFile file = read_rsp(path);
  expect_records(file, "Monte Carlo seed and checkpoint");
  const bool xof = digest_bytes == 0;
  const RspRecord& seed_record = file.records.front();
  MonteFile monte;
  if (xof) {
    // SHA3VS §6.3: the SHAKE Monte seed is a 128-bit `Msg`, outputs range over [min, max] bytes.
    monte.seed = hex_of_size(seed_record, "Msg", 16);
    monte.min_out_bytes = header_bytes(seed_record, "Minimum Output Length (bits)");
    monte.max_out_bytes = header_bytes(seed_record, "Maximum Output Length (bits)");
    // The next output length is read from the last 16 bits of each output, so lengths past min + 65535 could
    // only be the first; 64 KiB bounds a header that would otherwise ask for gigabytes 100 000 times (NIST's
    // files: at most 2000 bits).
    constexpr std::size_t kMaxOutBytes = 65536;
    if (monte.min_out_bytes < 2 || monte.max_out_bytes < monte.min_out_bytes || monte.max_out_bytes > kMaxOutBytes)
      fail(seed_record, "", "expected 2 <= minimum output bytes <= maximum output bytes <= " +
                                std::to_string(kMaxOutBytes) + ", got " + std::to_string(monte.min_out_bytes) +
                                " and " + std::to_string(monte.max_out_bytes));
  } else {
    monte.seed = hex_of_size(seed_record, "Seed", digest_bytes);
  }
  for (std::size_t i = 1; i < file.records.size(); ++i) {
    const RspRecord& r = file.records[i];
    std::uint64_t count = r.number("COUNT");
    std::size_t index = i - 1;
    if (count != index)
      fail(r, "COUNT", "expected COUNT = " + std::to_string(index) + ", got " + std::to_string(count));
    if (index >= kMonteCheckpoints)
      fail(r, "COUNT", "expected only " + std::to_string(kMonteCheckpoints) + " checkpoints");
    Bytes output;
    if (xof) {
      std::size_t outlen = bits_to_bytes(r, "Outputlen", r.number("Outputlen"));
      if (outlen < monte.min_out_bytes || outlen > monte.max_out_bytes)
        fail(r, "Outputlen", "expected Outputlen within the header's minimum and maximum");
      output = hex_of_size(r, "Output", outlen);
    } else {
      output = hex_of_size(r, "MD", digest_bytes);
    }
    monte.checkpoints.push_back({r.where(), std::move(output)});
  }
  if (monte.checkpoints.size() != kMonteCheckpoints) {
    const RspRecord& last = file.records.back();
    std::size_t after = last.fields().empty() ? last.line() : last.fields().back().line;
    fail_at(path, after + 1,
            "expected " + std::to_string(kMonteCheckpoints) + " checkpoints (COUNT = 0.." +
                std::to_string(kMonteCheckpoints - 1) + "), the file ends after " +
                std::to_string(monte.checkpoints.size()));
  }
  return monte;
}

std::vector<VariableOutVector> parse_variable_out_file(const std::string& path) {
  RspFile file = read_rsp(path);
  expect_records(file, "`COUNT`/`Outputlen`/`Msg`/`Output`");
  std::vector<VariableOutVector> out;
  out.reserve(file.records.size());
  for (const RspRecord& r : file.records) {
    r.number("COUNT");
    std::size_t outlen = bits_to_bytes(r, "Outputlen", r.number("Outputlen"));
    std::size_t msg_bytes = header_bytes(r, "Input Length");
    out.push_back({r.where(), hex_of_size(r, "Msg", msg_bytes), hex_of_size(r, "Output", outlen)});
  }
  return out;
}

std::vector<HmacVector> parse_hmac_file(const std::string& path) {
  RspFile file = read_rsp(path);
  expect_records(file, "HMAC `Count`/`Klen`/`Tlen`/`Key`/`Msg`/`Mac`");
  std::vector<HmacVector> out;
  out.reserve(file.records.size());
  for (const RspRecord& r : file.records) {
    r.number("Count");
    std::size_t digest_bytes = static_cast<std::size_t>(r.param_number("L"));
    std::size_t klen = static_cast<std::size_t>(r.number("Klen"));
    std::size_t tlen = static_cast<std::size_t>(r.number("Tlen"));
    if (tlen == 0 || tlen > digest_bytes)
      fail(r, "Tlen", "expected 1 <= Tlen <= L = " + std::to_string(digest_bytes) + ", got " + std::to_string(tlen));
    Bytes key = hex_of_size(r, "Key", klen);
    Bytes msg = r.hex("Msg");
    out.push_back({r.where(), digest_bytes, std::move(key), std::move(msg), hex_of_size(r, "Mac", tlen)});
  }
  return out;
}

}  // namespace shakedown::vectors

// The checksum-list formats of GNU coreutils 9.1 (sha256sum, cksum): reading and writing their lines.
//
//   untagged   HEX  NAME     HEX *NAME (binary marker)     HEX NAME (BSD "reversed", md5 -r)
//   tagged     SHA256 (NAME) = HEX                         SHA256(NAME)= HEX (openssl dgst)
// A line that starts with '\' has an escaped NAME: "\\" is a backslash, "\n" a newline, "\r" a carriage
// return. Tags name the algorithm (tag_name); untagged lines use the algorithm given with -a.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shakedown/algorithm.h"
#include "shakedown/hex.h"

namespace shakedown::cli {

// The BSD tag printed for an algorithm: coreutils' names (SHA224, SHA256, SHA384, SHA512), else the
// name `openssl dgst` prints (SHA2-512/224, SHA2-512/256, SHA3-256, SHAKE-128, ...).
std::string_view tag_name(Algorithm alg);

// Output escaping as in coreutils 9.1: a sum line is escaped when its name contains '\', a newline or a
// carriage return; a check result line ("NAME: OK") only when the name contains a newline.
bool sum_line_needs_escape(std::string_view name);
bool result_line_needs_escape(std::string_view name);
// '\' -> "\\", newline -> "\n", carriage return -> "\r".
std::string escape_name(std::string_view name);

using ::shakedown::append_hex;  // shakedown/hex.h: lower-case hex digits of the bytes

// The shortest SHAKE digest check accepts, in bytes: the instance's security strength (FIPS 202 §A.1: 128 bits
// for SHAKE128, 256 for SHAKE256). A list is an integrity check, and a d-bit digest resists a second preimage
// for at most 2^d tries: a 1-byte line is matched by a forged file within a few hundred. 0 for fixed digests.
std::size_t min_checked_xof_length(Algorithm alg);

struct SumsLine {
  Algorithm algorithm;
  std::string hex;         // as listed (either case), already checked: hex digits of the algorithm's length
  std::string file;        // unescaped
  bool defaulted = false;  // untagged and no -a: the algorithm is only the default, not the list's word
};

// Why a line that is not a checksum line probably is one for another algorithm, for a note to the user.
struct LineProblem {
  enum class Kind { none, wrong_length, other_algorithm, short_xof } kind = Kind::none;
  std::size_t hex_digits = 0;  // wrong_length, short_xof: the listed digest's length
  Algorithm expected{};        // wrong_length, short_xof: the algorithm that was expected
  Algorithm tagged{};          // other_algorithm: the algorithm the tag names
};

struct ParsedLine {
  std::optional<SumsLine> line;  // nullopt: improperly formatted
  LineProblem problem;
};

// Reads the lines of one run (all the lists given to one command), as coreutils does.
class SumsParser {
 public:
  // fixed: the -a algorithm (tags must name it); nullopt: each tag names its own algorithm and untagged
  // lines use `untagged`. xof_length: the -l length that SHAKE digests must have (else any whole bytes).
  SumsParser(std::optional<Algorithm> fixed, Algorithm untagged, std::optional<std::uint64_t> xof_length);

  // One line without its line end ("\n" or "\r\n"); not empty, not a comment.
  ParsedLine parse(std::string_view line);

  // The tag of the algorithm untagged lines are read with (for "improperly formatted SHA256 checksum line").
  std::string_view untagged_tag() const { return tag_name(fixed_.value_or(untagged_)); }

 private:
  ParsedLine parse_tagged(std::string_view rest, Algorithm alg, bool escaped) const;
  ParsedLine parse_untagged(std::string_view line, std::size_t start, bool escaped);
  bool valid_digest(std::string_view hex, Algorithm alg) const;
  LineProblem diagnose(std::string_view hex, Algorithm alg) const;

  std::optional<Algorithm> fixed_;
  Algorithm untagged_;
  std::optional<std::uint64_t> xof_length_;
  // coreutils' BSD-reversed mode ("HEX NAME", one separator): the first untagged line with a valid digest
  // decides, for the rest of the run, whether names may begin right after one space (-1: undecided).
  int reversed_ = -1;
};

}  // namespace shakedown::cli

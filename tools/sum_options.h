// The options of `shakedown sum` and `shakedown check` (which is `sum --check`), parsed and validated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "shakedown/shakedown.h"

namespace shakedown::cli {

inline constexpr Algorithm kDefaultAlgorithm = Algorithm::sha256;  // as sha256sum
// The longest SHAKE output `-l` accepts: 1 TiB, written as 2 TiB of hex, hours of output. Anything longer
// is a typo, and is refused before any input is read.
inline constexpr std::uint64_t kMaxShakeLength = std::uint64_t{1} << 40;

// --quiet, --status and --warn exclude each other; the last one given wins (as in coreutils).
enum class Verbosity { normal, quiet, status, warn };

struct SumOptions {
  bool check = false;
  std::optional<Algorithm> algorithm;  // -a; nullopt: sha256, and in check mode tags choose
  std::string backend;                 // -B; empty: the selected backend
  std::optional<std::uint64_t> length;  // -l, SHAKE output bytes
  bool tag = false;
  bool zero = false;
  bool binary = false;
  bool strict = false;
  bool ignore_missing = false;
  Verbosity verbosity = Verbosity::normal;
  bool help = false;
  bool version = false;
  std::vector<std::string> operands;
};

// Throws UsageError (command_line.h). check_command: `shakedown check`, where --check is implied.
SumOptions parse_sum_options(Args args, bool check_command);

// A context for alg: on the -B backend if one was given, else on the selected backend. Throws UsageError when
// that backend does not implement alg's family or cannot run here (parse_sum_options checks the algorithm
// it knows of up front; in check mode a tag can name another family).
Hasher make_hasher(const SumOptions& options, Algorithm alg);

}  // namespace shakedown::cli

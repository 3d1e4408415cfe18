// Parsing and validation of the sum/check options; the combinations coreutils refuses are refused alike.
#include "sum_options.h"

#include <array>

#include "command_line.h"
#include "sums_format.h"
#include "terminal_text.h"

namespace shakedown::cli {
namespace {

enum Id {
  kAlgorithm,
  kBackend,
  kLength,
  kCheck,
  kTag,
  kZero,
  kBinary,
  kText,
  kIgnoreMissing,
  kQuiet,
  kStatus,
  kStrict,
  kWarn,
  kHelp,
  kVersion,
};

constexpr std::array<OptionSpec, 15> kSpecs = {{
    {kAlgorithm, 'a', "algorithm", true},
    {kBackend, 'B', "backend", true},
    {kLength, 'l', "length", true},
    {kCheck, 'c', "check", false},
    {kTag, 0, "tag", false},
    {kZero, 'z', "zero", false},
    {kBinary, 'b', "binary", false},
    {kText, 't', "text", false},
    {kIgnoreMissing, 0, "ignore-missing", false},
    {kQuiet, 0, "quiet", false},
    {kStatus, 0, "status", false},
    {kStrict, 0, "strict", false},
    {kWarn, 'w', "warn", false},
    {kHelp, 0, "help", false, true},
    {kVersion, 0, "version", false, true},
}};

std::string algorithm_names() {
  std::string names;
  for (Algorithm a : kAllAlgorithms) names += (names.empty() ? "" : ", ") + std::string(name(a));
  return names;
}

Algorithm parse_algorithm_option(const std::string& text) {
  if (auto alg = parse_algorithm(text)) return *alg;
  throw UsageError("unknown algorithm " + quoted(text, Quotes::always) + " (valid: " + algorithm_names() + ")");
}

// The backend's status in alg's family; nullptr when that family has no backend of this name.
const BackendStatus* find_backend(const std::vector<BackendStatus>& list, const std::string& backend) {
  for (const BackendStatus& s : list)
    if (s.name == backend) return &s;
  return nullptr;
}

std::string backend_names(Family f) {
  std::string names;
  for (const BackendStatus& s : backends(f)) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

void require_backend_for(const std::string& backend, Algorithm alg) {
  const Family f = family_of(alg);
  const std::vector<BackendStatus> list = backends(f);
  const BackendStatus* s = find_backend(list, backend);
  if (s == nullptr)
    throw UsageError("backend " + quoted(backend, Quotes::always) + " does not implement " + std::string(name(alg)) +
                     " (" + std::string(name(f)) + " backends: " + backend_names(f) + ")");
  if (!s->available)
    throw UsageError("backend " + quoted(backend, Quotes::always) + " cannot run here: " + printable(s->reason));
}

void require_known_backend(const std::string& backend) {
  std::string all;
  for (Family f : kAllFamilies) {
    const std::vector<BackendStatus> list = backends(f);
    if (find_backend(list, backend)) return;
    all += (all.empty() ? "" : "; ") + std::string(name(f)) + ": " + backend_names(f);
  }
  throw UsageError("unknown backend " + quoted(backend, Quotes::always) + " (compiled: " + all + ")");
}

// The combinations coreutils refuses, with its wording.
void validate(const SumOptions& o, bool text_given) {
  if (o.tag && text_given && !o.binary) throw UsageError("--tag does not support --text mode");
  if (o.check) {
    if (o.zero) throw UsageError("the --zero option is not supported when verifying checksums");
    if (o.tag) throw UsageError("the --tag option is meaningless when verifying checksums");
    if (o.binary || text_given)
      throw UsageError("the --binary and --text options are meaningless when verifying checksums");
  } else {
    const char* only_when_checking = o.ignore_missing                   ? "--ignore-missing"
                                     : o.verbosity == Verbosity::status ? "--status"
                                     : o.verbosity == Verbosity::warn   ? "--warn"
                                     : o.verbosity == Verbosity::quiet  ? "--quiet"
                                     : o.strict                         ? "--strict"
                                                                        : nullptr;
    if (only_when_checking)
      throw UsageError("the " + std::string(only_when_checking) +
                       " option is meaningful only when verifying checksums");
  }
  const Algorithm alg = o.algorithm.value_or(kDefaultAlgorithm);
  // Checking without -a, each line's tag picks its algorithm: -l is the length its SHAKE lines must have.
  const bool tags_choose = o.check && !o.algorithm;
  if (o.length && !is_xof(alg) && !tags_choose)
    throw UsageError("--length applies to shake128 and shake256 only; " + std::string(name(alg)) +
                     " has a fixed size (choose the algorithm with -a)");
  // A length no line could be checked at (sums_format.h): refused before any list is read.
  const std::size_t min_checked = min_checked_xof_length(tags_choose ? Algorithm::shake128 : alg);
  if (o.check && o.length && *o.length < min_checked)
    throw UsageError("--length " + std::to_string(*o.length) + " is below the " + std::to_string(min_checked) +
                     " bytes check accepts for " + (tags_choose ? std::string("SHAKE") : std::string(name(alg))) +
                     " digests (their security strength): such a digest is no integrity check");
  if (!o.backend.empty()) {
    if (!o.check || o.algorithm)
      require_backend_for(o.backend, alg);
    else
      require_known_backend(o.backend);
  }
}

}  // namespace

SumOptions parse_sum_options(Args args, bool check_command) {
  const CommandLine cl = parse_command_line(args, kSpecs);
  SumOptions o;
  o.check = check_command;
  o.operands = cl.operands;
  bool text_given = false;
  std::optional<std::string> algorithm_text, backend_text, length_text;
  for (const ParsedOption& opt : cl.options) {
    switch (opt.id) {
      case kAlgorithm: algorithm_text = opt.value; break;
      case kBackend: backend_text = opt.value; break;
      case kLength: length_text = opt.value; break;
      case kCheck: o.check = true; break;
      case kTag:
        o.tag = true;
        o.binary = true;
        text_given = false;
        break;  // coreutils: --tag implies -b
      case kZero: o.zero = true; break;
      case kBinary:
        o.binary = true;
        text_given = false;
        break;
      case kText:
        o.binary = false;
        text_given = true;
        break;
      case kIgnoreMissing: o.ignore_missing = true; break;
      case kQuiet: o.verbosity = Verbosity::quiet; break;
      case kStatus: o.verbosity = Verbosity::status; break;
      case kWarn: o.verbosity = Verbosity::warn; break;
      case kStrict: o.strict = true; break;
      case kHelp: o.help = true; break;
      case kVersion: o.version = true; break;
    }
  }
  if (o.help || o.version) return o;  // asked for help: the rest of the line need not make sense
  if (algorithm_text) o.algorithm = parse_algorithm_option(*algorithm_text);
  if (backend_text && backend_text->empty()) throw UsageError("the backend name is empty");
  if (backend_text) o.backend = *backend_text;
  if (length_text) o.length = parse_count(*length_text, kMaxShakeLength, "length");
  validate(o, text_given);
  return o;
}

Hasher make_hasher(const SumOptions& options, Algorithm alg) {
  if (options.backend.empty()) return Hasher(alg);
  require_backend_for(options.backend, alg);
  return Hasher(alg, options.backend);
}

}  // namespace shakedown::cli

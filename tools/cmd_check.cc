// `shakedown check` (= `sum --check`): verifies checksum lists with the messages and exit status of
// `sha256sum -c` from coreutils 9.1, plus one note per list when a line looks meant for another algorithm.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include <unistd.h>

#include "check_lists.h"
#include "command_line.h"
#include "diagnostics.h"
#include "hash_input.h"
#include "sums_format.h"
#include "terminal_text.h"

namespace shakedown::cli {

const char* const kCheckHelp =
    "Usage: shakedown check [OPTION]... [LIST]...\n"
    "Check the digests listed in each LIST (standard input when none or '-'), as sha256sum -c does;\n"
    "the same as 'shakedown sum -c'. Lines: 'DIGEST  FILE', 'DIGEST *FILE', 'TAG (FILE) = DIGEST'\n"
    "(TAG: SHA256, SHA512, SHA3-256, SHAKE-128, ...; see man shakedown), '\\'-escaped names, CRLF ends,\n"
    "either case of hex, '#' comments.\n"
    "\n"
    "  -a, --algorithm=NAME  check every line with NAME (tags must name it); without -a, a tag chooses\n"
    "                        its line's algorithm and untagged lines are sha256\n"
    "  -B, --backend=NAME    hash on this backend (see 'shakedown backends')\n"
    "  -l, --length=BYTES    the SHAKE digest length lines must have (default: any whole number of\n"
    "                        bytes from 16 for shake128 and 32 for shake256; shorter is refused)\n"
    "      --ignore-missing  don't fail or report status for missing files\n"
    "      --quiet           don't print OK for each successfully verified file\n"
    "      --status          don't output anything, the exit status shows success\n"
    "      --strict          exit non-zero for improperly formatted checksum lines\n"
    "  -w, --warn            warn about improperly formatted checksum lines\n"
    "      --help            display this help and exit\n"
    "      --version         output version information and exit\n"
    "\n"
    "Exit status: 0 when every list had a properly formatted line, every listed file was read and matched\n"
    "(--ignore-missing: at least one); 1 otherwise (--strict: also for an improperly formatted line);\n"
    "2 a bad command line.\n"
    "\n"
    "Full documentation: man shakedown\n";

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f != stdin) std::fclose(f);
  }
};
// getline's buffer, freed however the loop ends (make_hasher may throw on a line's algorithm).
struct LineBuffer {
  char* data = nullptr;
  std::size_t capacity = 0;
  LineBuffer() = default;
  LineBuffer(const LineBuffer&) = delete;
  LineBuffer& operator=(const LineBuffer&) = delete;
  ~LineBuffer() { std::free(data); }
};

struct Tally {
  std::uintmax_t misformatted = 0, mismatched = 0, unreadable = 0, unchecked = 0;
  bool properly_formatted = false, matched = false;
};

bool same_hex(std::string_view listed, const std::string& computed) {
  if (listed.size() != computed.size()) return false;
  for (std::size_t i = 0; i < listed.size(); ++i) {
    char c = listed[i];
    if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    if (c != computed[i]) return false;
  }
  return true;
}

bool has_control_byte(std::string_view text) {
  for (const char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return true;
  return false;
}

// "NAME: OK" on stdout, escaped as coreutils 9.1 escapes result lines. On a terminal, a name with control bytes
// (from a list someone else wrote: an escape sequence can rewrite the screen, hide a FAILED) is shell-quoted as
// messages are (and as ls shows such names on a terminal); piped or redirected output stays coreutils' bytes.
void print_result(const std::string& file, const char* result) {
  static const bool terminal = isatty(STDOUT_FILENO) == 1;
  const bool escape = result_line_needs_escape(file);
  const std::string name = terminal && has_control_byte(file) ? quoted(file, Quotes::always, SIZE_MAX)
                           : escape                           ? "\\" + escape_name(file)
                                                              : file;
  std::fwrite(name.data(), 1, name.size(), stdout);
  std::printf(": %s\n", result);
}

std::string algorithms_of_length(std::size_t hex_digits) {
  std::string names;
  for (Algorithm a : kAllAlgorithms)
    if (!is_xof(a) && 2 * digest_size(a) == hex_digits) names += (names.empty() ? "" : " or ") + std::string(name(a));
  return names;
}

// Why a line was improper, when it looks meant for another algorithm.
std::string note_text(const LineProblem& p) {
  if (p.kind == LineProblem::Kind::other_algorithm)
    return "the line is tagged " + std::string(tag_name(p.tagged)) +
           " but -a selects another algorithm (without -a, each tag chooses its line's algorithm)";
  if (p.kind == LineProblem::Kind::short_xof) {
    const std::size_t min = min_checked_xof_length(p.expected);
    return "the " + std::string(tag_name(p.expected)) + " digest has " + std::to_string(p.hex_digits / 2) +
           (p.hex_digits == 2 ? " byte" : " bytes") + "; check accepts " + std::to_string(min) +
           " bytes or more (the algorithm's " + std::to_string(8 * min) +
           "-bit security strength): a shorter digest is no integrity check";
  }
  const std::string digits = std::to_string(p.hex_digits) + " hex digits";
  const std::string others = algorithms_of_length(p.hex_digits);
  return "the digest has " + digits + (others.empty() ? "" : ", the length of a " + others + " digest") + ", not of " +
         std::string(name(p.expected)) + " (" + std::to_string(2 * digest_size(p.expected)) +
         "); choose the algorithm with -a";
}

class ListChecker {
 public:
  ListChecker(const SumOptions& o, SumsParser& parser, const std::string& list)
      : o_(o),
        parser_(parser),
        from_stdin_(list == "-"),
        list_(list),
        shown_(quoted(from_stdin_ ? "standard input" : list)) {}

  bool run() {
    std::unique_ptr<std::FILE, FileCloser> in(from_stdin_ ? stdin : std::fopen(list_.c_str(), "r"));
    if (!in) {
      report(shown_ + ": " + std::strerror(errno));
      return false;
    }
    LineBuffer buffer;
    for (std::uintmax_t number = 1;; ++number) {
      const ssize_t n = getline(&buffer.data, &buffer.capacity, in.get());
      if (n <= 0) break;
      line(std::string_view(buffer.data, static_cast<std::size_t>(n)), number);
    }
    const int read_error = std::ferror(in.get()) ? errno : 0;
    if (from_stdin_) std::clearerr(stdin);
    if (read_error != 0) {
      // coreutils 9.1 says only "read error"; the reason (EISDIR for a directory, EIO) is what helps.
      report(shown_ + ": read error: " + std::strerror(read_error));
      return false;
    }
    summarize();
    return t_.properly_formatted && t_.matched && t_.mismatched == 0 && t_.unreadable == 0 && t_.unchecked == 0 &&
           (!o_.strict || t_.misformatted == 0);
  }

 private:
  void line(std::string_view text, std::uintmax_t number) {
    if (text.front() == '#') return;
    if (text.back() == '\n') text.remove_suffix(1);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.empty()) return;
    ParsedLine parsed = parser_.parse(text);
    if (parsed.line && from_stdin_ && parsed.line->file == "-") parsed.line.reset();  // stdin is the list
    if (!parsed.line) {
      improper(parsed.problem, number);
      return;
    }
    t_.properly_formatted = true;
    verify(*parsed.line, number);
  }

  void improper(const LineProblem& problem, std::uintmax_t number) {
    ++t_.misformatted;
    const std::string where = shown_ + ": " + std::to_string(number) + ": ";
    if (o_.verbosity == Verbosity::warn)
      report(where + "improperly formatted " + std::string(parser_.untagged_tag()) + " checksum line");
    if (problem.kind != LineProblem::Kind::none && o_.verbosity != Verbosity::status && !noted_) {
      report(where + "note: " + note_text(problem));
      noted_ = true;
    }
  }

  void verify(const SumsLine& l, std::uintmax_t number) {
    // With -B and no -a, each line's tag picks its algorithm, so a line whose algorithm the backend does not
    // implement (or cannot run here) shows only now. Lines before it may have been checked already, so it is not a
    // bad command line (status 2 says nothing was hashed, docs/cli.md) but a line that fails to be checked.
    std::optional<Hasher> made;
    try {
      made.emplace(make_hasher(o_, l.algorithm));
    } catch (const UsageError& e) {
      ++t_.unchecked;
      report(shown_ + ": " + std::to_string(number) + ": " + e.what() + "; line not checked");
      return;
    }
    Hasher& hasher = *made;
    if (const int err = hash_input(l.file, hasher)) {
      if (err == ENOENT && o_.ignore_missing) return;
      ++t_.unreadable;
      report(quoted(l.file) + ": " + std::strerror(err));
      if (o_.verbosity != Verbosity::status) print_result(l.file, "FAILED open or read");
      return;
    }
    const bool match = same_hex(l.hex, digest_hex(hasher, l.algorithm, l.hex.size() / 2));
    if (match)
      t_.matched = true;
    else
      ++t_.mismatched;
    if (o_.verbosity == Verbosity::status) return;
    if (!match && l.defaulted && !noted_) note_other_algorithm(l, number);
    if (!match)
      print_result(l.file, "FAILED");
    else if (o_.verbosity != Verbosity::quiet)
      print_result(l.file, "OK");
  }

  static std::string digest_hex(Hasher& hasher, Algorithm alg, std::size_t bytes) {
    std::vector<std::uint8_t> digest(bytes);
    if (is_xof(alg))
      hasher.squeeze(digest);
    else
      hasher.final(digest);
    std::string hex;
    append_hex(hex, digest);
    return hex;
  }

  // An untagged line read as sha256 (no -a) did not match, and its digest has the length of other algorithms' too
  // (64 hex digits: sha512-256 and sha3-256; 56: sha512-224, sha3-224; 128: sha3-512): a list made by sha3sum,
  // `openssl dgst -r` or shasum -a 512256 looks the same. The file is hashed with each such algorithm, and when one
  // matches the note names it: "FAILED" alone sends the user looking for corruption. When none matches, the file
  // did change, and there is nothing to add. Once per list, as every note, so at most one file is read again.
  void note_other_algorithm(const SumsLine& l, std::uintmax_t number) {
    for (Algorithm a : kAllAlgorithms) {
      if (a == l.algorithm || is_xof(a) || 2 * digest_size(a) != l.hex.size()) continue;
      try {
        Hasher other = make_hasher(o_, a);
        if (hash_input(l.file, other) != 0 || !same_hex(l.hex, digest_hex(other, a, digest_size(a)))) continue;
      } catch (const UsageError&) {  // the -B backend does not implement that family
        continue;
      }
      noted_ = true;
      report(shown_ + ": " + std::to_string(number) + ": note: the digest is " + quoted(l.file) + "'s " +
             std::string(name(a)) + " digest: untagged lines are checked as " + std::string(name(l.algorithm)) +
             " without -a; check this list with -a " + std::string(name(a)));
      return;
    }
  }

  void summarize() {
    if (!t_.properly_formatted) {
      report(shown_ + ": no properly formatted checksum lines found");
      return;
    }
    if (o_.verbosity == Verbosity::status) return;
    auto warn = [](std::uintmax_t n, const char* one, const char* many) {
      if (n != 0) report("WARNING: " + std::to_string(n) + " " + (n == 1 ? one : many));
    };
    warn(t_.misformatted, "line is improperly formatted", "lines are improperly formatted");
    warn(t_.unreadable, "listed file could not be read", "listed files could not be read");
    warn(t_.mismatched, "computed checksum did NOT match", "computed checksums did NOT match");
    warn(t_.unchecked, "line was not checked on the chosen backend", "lines were not checked on the chosen backend");
    if (o_.ignore_missing && !t_.matched) report(shown_ + ": no file was verified");
  }

  const SumOptions& o_;
  SumsParser& parser_;
  const bool from_stdin_;
  const std::string list_;
  const std::string shown_;  // quoted for messages
  Tally t_;
  bool noted_ = false;
};

}  // namespace

int check_lists(const SumOptions& o) {
  SumsParser parser(o.algorithm, kDefaultAlgorithm, o.length);
  const std::vector<std::string> lists = o.operands.empty() ? std::vector<std::string>{"-"} : o.operands;
  bool all_good = true;
  for (const std::string& list : lists) all_good = ListChecker(o, parser, list).run() && all_good;
  return all_good ? kOk : kFailure;
}

}  // namespace shakedown::cli

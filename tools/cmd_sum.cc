// `shakedown sum`: digests of files in the sha256sum format (untagged or --tag); --check goes to check_lists.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check_lists.h"
#include "diagnostics.h"
#include "hash_input.h"
#include "sums_format.h"
#include "terminal_text.h"

namespace shakedown::cli {
namespace {

constexpr const char* kSumHelp =
    "Usage: shakedown sum [OPTION]... [FILE]...\n"
    "  or:  shakedown sum -c [OPTION]... [LIST]...\n"
    "Print the digest of each FILE (standard input when none or '-') as sha256sum does, or with -c check\n"
    "the digests listed in each LIST.\n"
    "\n"
    "  -a, --algorithm=NAME  sha224, sha256 (default), sha384, sha512, sha512-224, sha512-256,\n"
    "                        sha3-224, sha3-256, sha3-384, sha3-512, shake128, shake256\n"
    "  -B, --backend=NAME    hash on this backend (see 'shakedown backends'), not the selected one\n"
    "  -l, --length=BYTES    SHAKE output length in bytes, 1 to 1099511627776\n"
    "                        (default: 32 for shake128, 64 for shake256)\n"
    "  -b, --binary          mark lines with '*' (binary mode)\n"
    "  -t, --text            mark lines with ' ' (text mode, the default; same bytes on POSIX systems)\n"
    "      --tag             print BSD-style lines: SHA256 (FILE) = DIGEST\n"
    "  -z, --zero            end each line with NUL, not newline, and do not escape file names\n"
    "  -c, --check           read digests from the LISTs and check them (as 'shakedown check')\n"
    "\n"
    "Only when checking:\n"
    "      --ignore-missing  don't fail or report status for missing files\n"
    "      --quiet           don't print OK for each successfully verified file\n"
    "      --status          don't output anything, the exit status shows success\n"
    "      --strict          exit non-zero for improperly formatted checksum lines\n"
    "  -w, --warn            warn about improperly formatted checksum lines\n"
    "\n"
    "      --help            display this help and exit\n"
    "      --version         output version information and exit\n"
    "\n"
    "A name with a backslash, newline or carriage return is escaped (\\\\, \\n, \\r) and its line starts with\n"
    "'\\', as coreutils does. Exit status: 0 success, 1 a file could not be read or written (or, with -c, a\n"
    "digest did not match or no line could be verified), 2 a bad command line.\n"
    "\n"
    "Full documentation: man shakedown\n";

constexpr std::size_t kSqueezeChunk = std::size_t{1} << 15;

void write_text(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// The digest in hex. SHAKE output is squeezed chunk by chunk, so -l 1T holds 32 KiB at a time; a write
// error stops the squeezing.
void write_digest(Hasher& hasher, Algorithm alg, std::uint64_t length) {
  std::string hex;
  if (!is_xof(alg)) {
    std::array<std::uint8_t, kMaxDigestSize> digest{};
    hasher.final(digest.data(), digest_size(alg));
    append_hex(hex, std::span<const std::uint8_t>(digest.data(), digest_size(alg)));
    write_text(hex);
    return;
  }
  std::vector<std::uint8_t> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(length, kSqueezeChunk)));
  for (std::uint64_t left = length; left > 0 && !std::ferror(stdout);) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    hasher.squeeze(chunk.data(), n);
    hex.clear();
    append_hex(hex, std::span<const std::uint8_t>(chunk.data(), n));
    write_text(hex);
    left -= n;
  }
}

// "HEX  NAME", "HEX *NAME" or "TAG (NAME) = HEX", escaped as coreutils 9.1 does unless lines end in NUL.
void write_sum_line(const SumOptions& o, Algorithm alg, std::uint64_t length, const std::string& file, Hasher& hasher) {
  const bool escape = !o.zero && sum_line_needs_escape(file);
  const std::string name = escape ? escape_name(file) : file;
  if (escape) write_text("\\");
  if (o.tag) {
    write_text(tag_name(alg));
    write_text(" (");
    write_text(name);
    write_text(") = ");
  }
  write_digest(hasher, alg, length);
  if (!o.tag) {
    write_text(o.binary ? " *" : "  ");
    write_text(name);
  }
  std::fputc(o.zero ? '\0' : '\n', stdout);
}

int sum_files(const SumOptions& o) {
  const Algorithm alg = o.algorithm.value_or(kDefaultAlgorithm);
  const std::uint64_t length = is_xof(alg) ? o.length.value_or(digest_size(alg)) : digest_size(alg);
  const std::vector<std::string> files = o.operands.empty() ? std::vector<std::string>{"-"} : o.operands;
  int status = kOk;
  for (const std::string& file : files) {
    Hasher hasher = make_hasher(o, alg);
    if (const int err = hash_input(file, hasher)) {
      report(quoted(file) + ": " + std::strerror(err));
      status = kFailure;
      continue;
    }
    write_sum_line(o, alg, length, file, hasher);
    if (std::ferror(stdout)) break;  // reported once, by close_stdout()
  }
  return status;
}

int run(Args args, bool check_command) {
  const SumOptions o = parse_sum_options(args, check_command);
  if (o.help) {
    std::fputs(check_command ? kCheckHelp : kSumHelp, stdout);
    return kOk;
  }
  if (o.version) {
    print_version();
    return kOk;
  }
  return o.check ? check_lists(o) : sum_files(o);
}

}  // namespace

int sum(Args args) { return run(args, false); }
int check(Args args) { return run(args, true); }

}  // namespace shakedown::cli

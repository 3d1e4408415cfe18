// `shakedown sum` and `shakedown check`: digests of files in the coreutils "DIGEST  NAME" format.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "shakedown/shakedown.h"

namespace shakedown::cli {
namespace {

struct HashOptions {
  Algorithm alg = Algorithm::sha256;
  std::string backend;       // empty: the selected one
  std::optional<std::size_t> length;  // SHAKE output bytes
  std::vector<std::string> operands;
};

HashOptions parse(Args args) {
  HashOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw std::invalid_argument("option " + std::string(args[i]) + " needs a value");
      return std::string(args[++i]);
    };
    if (args[i] == "-a" || args[i] == "--algorithm") {
      o.alg = algorithm_from_name(value());
    } else if (args[i] == "-b" || args[i] == "--backend") {
      o.backend = value();
    } else if (args[i] == "-l" || args[i] == "--length") {
      o.length = std::stoul(value());
    } else {
      o.operands.emplace_back(args[i]);
    }
  }
  if (o.length && !is_xof(o.alg))
    throw std::invalid_argument("--length applies to SHAKE only; " + std::string(name(o.alg)) + " has a fixed size");
  return o;
}

std::string hex(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (auto b : bytes) s += {kDigits[b >> 4], kDigits[b & 15]};
  return s;
}

// Streams a file (or stdin for "-") through a Hasher; nullopt with a message on a read error.
std::optional<std::string> digest_file(const HashOptions& o, const std::string& path) {
  Hasher h = o.backend.empty() ? Hasher(o.alg) : Hasher(o.alg, o.backend);
  const bool use_stdin = path == "-";
  std::FILE* f = use_stdin ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "shakedown: %s: %s\n", path.c_str(), std::strerror(errno));
    return std::nullopt;
  }
  std::vector<std::uint8_t> buf(1 << 16);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) h.update(buf.data(), n);
  const bool failed = std::ferror(f);
  if (!use_stdin) std::fclose(f);
  if (failed) {
    std::fprintf(stderr, "shakedown: %s: read error\n", path.c_str());
    return std::nullopt;
  }
  std::vector<std::uint8_t> out(o.length.value_or(digest_size(o.alg)));
  h.final(out);
  return hex(out);
}

}  // namespace

int sum(Args args) {
  HashOptions o = parse(args);
  if (o.operands.empty()) o.operands.emplace_back("-");
  int status = kOk;
  for (const auto& path : o.operands) {
    if (auto d = digest_file(o, path))
      std::printf("%s  %s\n", d->c_str(), path.c_str());
    else
      status = kUsage;
  }
  return status;
}

int check(Args args) {
  HashOptions o = parse(args);
  if (o.operands.empty()) throw std::invalid_argument("check needs a list file (the output of `shakedown sum`)");
  int status = kOk;
  for (const auto& list : o.operands) {
    std::ifstream in(list);
    if (!in) {
      std::fprintf(stderr, "shakedown: %s: cannot open: %s\n", list.c_str(), std::strerror(errno));
      status = kUsage;
      continue;
    }
    std::string line;
    for (int lineno = 1; std::getline(in, line); ++lineno) {
      const std::size_t sep = line.find("  ");
      if (sep == std::string::npos) {
        std::fprintf(stderr, "shakedown: %s:%d: not a 'DIGEST  FILE' line\n", list.c_str(), lineno);
        status = kUsage;
        continue;
      }
      const std::string want = line.substr(0, sep), file = line.substr(sep + 2);
      HashOptions per_file = o;
      if (is_xof(o.alg) && !o.length) per_file.length = want.size() / 2;  // SHAKE: the listed length
      auto got = digest_file(per_file, file);
      if (!got) {
        status = kUsage;
      } else if (*got == want) {
        std::printf("%s: OK\n", file.c_str());
      } else {
        std::printf("%s: FAILED\n", file.c_str());
        if (status == kOk) status = kMismatch;
      }
    }
  }
  return status;
}

}  // namespace shakedown::cli

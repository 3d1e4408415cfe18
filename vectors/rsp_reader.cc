// Tokenizer for NIST CAVP .rsp files: `[header]` parameters, `name = value` records, errors as file:line.
#include "rsp_reader.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>

#include "support.h"

namespace shakedown::vectors {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string location(const std::string& path, std::size_t line) {
  return line ? path + ":" + std::to_string(line) : path;
}

}  // namespace

void fail_at(const std::string& path, std::size_t line, const std::string& message) {
  throw VectorFileError(location(path, line) + ": " + message);
}

std::string read_file(const std::string& path) {
  // stdio, not `stream << in.rdbuf()`: that marks a failed read on the destination only, so a directory (which
  // opens, then fails with EISDIR) or an I/O error part-way read as an empty or shorter file.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!in)
    fail_at(path, 0, "cannot open the vector file: " + std::string(std::strerror(errno)) +
                         " (expected it under the vectors data directory; set SHAKEDOWN_VECTORS_DIR to override)");
  std::string text;
  char chunk[1 << 16];
  std::size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, in.get())) > 0) text.append(chunk, n);
  if (std::ferror(in.get())) fail_at(path, 0, "read error: " + std::string(std::strerror(errno)));
  return text;
}

std::uint64_t parse_number(std::string_view text, const std::string& where, std::string_view what) {
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw VectorFileError(where + ": " + std::string(what) + ": expected a decimal number, got '" +
                          std::string(text) + "'");
  return value;
}

Bytes parse_hex(std::string_view text, const std::string& where, std::string_view what) {
  try {
    return test::from_hex(text);
  } catch (const std::invalid_argument& e) {
    throw VectorFileError(where + ": " + std::string(what) + ": expected an even number of hex digits: " +
                          e.what());
  }
}

const RspField* RspRecord::find(std::string_view name) const {
  for (const auto& f : fields_)
    if (f.name == name) return &f;
  return nullptr;
}

const RspField& RspRecord::field(std::string_view name) const {
  if (const RspField* f = find(name)) return *f;
  // Point at the line after the record's last field: that is where the missing line belongs.
  std::size_t at = fields_.empty() ? line_ : fields_.back().line + 1;
  fail_at(*path_, at,
          "record starting at line " + std::to_string(line_) + ": expected `" + std::string(name) + " = ...`");
}

std::uint64_t RspRecord::number(std::string_view name) const {
  const RspField& f = field(name);
  return parse_number(f.value, location(*path_, f.line), name);
}

Bytes RspRecord::hex(std::string_view name) const {
  const RspField& f = field(name);
  return parse_hex(f.value, location(*path_, f.line), name);
}

std::uint64_t RspRecord::param_number(std::string_view name) const {
  auto it = params_.find(std::string(name));
  if (it == params_.end())
    fail_at(*path_, line_, "expected a header `[" + std::string(name) + " = ...]` before this record");
  return parse_number(it->second, where(), "[" + std::string(name) + "]");
}

std::string RspRecord::where(std::string_view name) const {
  const RspField* f = find(name);
  return location(*path_, f ? f->line : line_);
}

std::string RspRecord::where() const { return location(*path_, line_); }

RspFile read_rsp(const std::string& path) {
  RspFile file{path, {}, {}};
  const std::string text = read_file(path);
  auto shared_path = std::make_shared<const std::string>(path);
  bool in_record = false;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view line = trim(std::string_view(text).substr(pos, eol - pos));
    pos = eol + 1;
    ++line_no;

    if (line.empty() || line.front() == '#') {
      in_record = false;
      continue;
    }
    if (line.front() == '[') {
      if (line.back() != ']') fail_at(path, line_no, "expected a header line ending in ']'");
      std::string_view inside = line.substr(1, line.size() - 2);
      std::size_t eq = inside.find('=');
      std::string name(trim(inside.substr(0, eq)));
      file.last_params[name] = eq == std::string_view::npos ? "" : std::string(trim(inside.substr(eq + 1)));
      in_record = false;
      continue;
    }
    std::size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      fail_at(path, line_no, "expected `name = value`, a `[header]`, a `#` comment or a blank line, got '" +
                                 std::string(line) + "'");
    RspField field{std::string(trim(line.substr(0, eq))), std::string(trim(line.substr(eq + 1))), line_no};
    if (field.name.empty()) fail_at(path, line_no, "expected a field name before '='");
    if (field.value.empty()) fail_at(path, line_no, "expected a value after `" + field.name + " =`");
    if (!in_record) {
      file.records.emplace_back(shared_path, file.last_params, line_no);
      in_record = true;
    }
    RspRecord& record = file.records.back();
    if (record.has(field.name))
      fail_at(path, line_no, "record starting at line " + std::to_string(record.line()) + " repeats `" +
                                 field.name + "` (expected a blank line between records)");
    record.add(std::move(field));
  }
  return file;
}

}  // namespace shakedown::vectors

// Tokenizer for NIST CAVP .rsp files: `[header]` parameters, `name = value` records, errors as file:line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shakedown::vectors {

using Bytes = std::vector<std::uint8_t>;

// Every problem with a vector file: the message starts with "path:line: " (or "path: " when no
// line applies) and says what was expected, so a test failure points straight at the data.
class VectorFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws VectorFileError "path:line: message" (line 0: "path: message").
[[noreturn]] void fail_at(const std::string& path, std::size_t line, const std::string& message);

// Whole file contents; VectorFileError when it cannot be opened or read.
std::string read_file(const std::string& path);

struct RspField {
  std::string name;
  std::string value;
  std::size_t line;
};

// One record: consecutive `name = value` lines (CAVP separates records with blank lines), with the
// `[name = value]` header parameters in force where it starts.
class RspRecord {
 public:
  RspRecord(std::shared_ptr<const std::string> path, std::map<std::string, std::string> params, std::size_t line)
      : path_(std::move(path)), params_(std::move(params)), line_(line) {}

  const std::string& path() const { return *path_; }
  std::size_t line() const { return line_; }
  const std::vector<RspField>& fields() const { return fields_; }
  const std::map<std::string, std::string>& params() const { return params_; }
  void add(RspField field) { fields_.push_back(std::move(field)); }

  bool has(std::string_view name) const { return find(name) != nullptr; }
  // The field, or VectorFileError "path:line: record at line L: expected `name = ...`".
  const RspField& field(std::string_view name) const;
  // Decimal value of a field (VectorFileError on anything but digits).
  std::uint64_t number(std::string_view name) const;
  // Hex value of a field (VectorFileError on odd length or a non-hex character).
  Bytes hex(std::string_view name) const;
  // A header parameter in force for this record ("L", "Outputlen", ...), as a number.
  std::uint64_t param_number(std::string_view name) const;

  // "path:line" of a field or of the record itself, for failure messages.
  std::string where(std::string_view name) const;
  std::string where() const;

 private:
  const RspField* find(std::string_view name) const;

  std::shared_ptr<const std::string> path_;
  std::map<std::string, std::string> params_;
  std::size_t line_;
  std::vector<RspField> fields_;
};

struct RspFile {
  std::string path;
  std::map<std::string, std::string> last_params;  // header parameters in force at the end of the file
  std::vector<RspRecord> records;
};

// Reads and tokenizes a .rsp file (CRLF or LF). Lines: `#` comment, blank (ends a record),
// `[name = value]` or `[text]` header (ends a record), `name = value` field. Anything else, a
// repeated field name within one record, or an empty value is a VectorFileError naming the line.
RspFile read_rsp(const std::string& path);

// Parses a decimal number for the message "path:line: what: expected a decimal number, got 'x'".
std::uint64_t parse_number(std::string_view text, const std::string& where, std::string_view what);
// Parses hex for the message "path:line: what: <odd-length / non-hex> ...".
Bytes parse_hex(std::string_view text, const std::string& where, std::string_view what);

}  // namespace shakedown::vectors

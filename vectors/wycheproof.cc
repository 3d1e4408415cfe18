// Parser for Wycheproof MAC test files (schema mac_test_schema_v1.json), HMAC only.
#include "wycheproof.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace shakedown::vectors {

namespace {

using nlohmann::json;

// The member `key` of `object`, of the wanted JSON type; VectorFileError naming its JSON path.
const json& member(const json& object, const char* key, json::value_t type, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) throw VectorFileError(where + ": expected member \"" + key + "\"");
  // Numbers may come back as unsigned or signed integers; both satisfy an integer requirement.
  bool ok = it->type() == type ||
            (type == json::value_t::number_unsigned && it->type() == json::value_t::number_integer &&
             it->get<std::int64_t>() >= 0);
  if (!ok) throw VectorFileError(where + ": expected \"" + key + "\" of JSON type " + json(type).type_name() +
                                 ", got " + it->type_name());
  return *it;
}

Bytes hex_member(const json& object, const char* key, const std::string& where) {
  return parse_hex(member(object, key, json::value_t::string, where).get<std::string>(), where, key);
}

std::size_t size_member(const json& object, const char* key, const std::string& where) {
  return member(object, key, json::value_t::number_unsigned, where).get<std::size_t>();
}

json parse_json(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based; count the lines before it so the failure reads path:line like the .rsp ones.
    std::size_t before = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
    auto newlines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(before), '\n');
    std::size_t line = 1 + static_cast<std::size_t>(newlines);
    fail_at(path, line, std::string("invalid JSON (expected a Wycheproof MAC test file): ") + e.what());
  }
}

}  // namespace

WycheproofMacFile parse_wycheproof_mac_file(const std::string& path) {
  const json root = parse_json(path);
  if (!root.is_object()) fail_at(path, 0, "expected a JSON object at the top level");
  WycheproofMacFile file;
  file.algorithm = member(root, "algorithm", json::value_t::string, path).get<std::string>();
  const std::size_t declared = size_member(root, "numberOfTests", path);
  const json& groups = member(root, "testGroups", json::value_t::array, path);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string group_where = path + ": testGroups[" + std::to_string(g) + "]";
    const json& group = groups[g];
    if (!group.is_object()) throw VectorFileError(group_where + ": expected an object");
    const std::size_t tag_bits = size_member(group, "tagSize", group_where);
    if (tag_bits == 0 || tag_bits % 8 != 0)
      throw VectorFileError(group_where + ": expected tagSize to be a positive multiple of 8 bits");
    const json& tests = member(group, "tests", json::value_t::array, group_where);
    for (std::size_t t = 0; t < tests.size(); ++t) {
      std::string where = group_where + ".tests[" + std::to_string(t) + "]";
      const json& test = tests[t];
      if (!test.is_object()) throw VectorFileError(where + ": expected an object");
      where += " (tcId " + std::to_string(size_member(test, "tcId", where)) + ")";
      const std::string result = member(test, "result", json::value_t::string, where).get<std::string>();
      if (result != "valid" && result != "invalid")
        throw VectorFileError(where + ": expected \"result\" to be \"valid\" or \"invalid\", got \"" + result + "\"");
      WycheproofMacTest parsed{where, hex_member(test, "key", where), hex_member(test, "msg", where),
                               hex_member(test, "tag", where), tag_bits / 8, result == "valid"};
      file.tests.push_back(std::move(parsed));
    }
  }
  if (file.tests.size() != declared)
    fail_at(path, 0, "expected numberOfTests = " + std::to_string(declared) + " tests, found " +
                         std::to_string(file.tests.size()));
  return file;
}

}  // namespace shakedown::vectors

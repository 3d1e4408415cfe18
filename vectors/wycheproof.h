// Parser for Wycheproof MAC test files (schema mac_test_schema_v1.json), HMAC only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rsp_reader.h"

namespace shakedown::vectors {

struct WycheproofMacTest {
  std::string where;      // "path: testGroups[g].tests[t] (tcId N)"
  Bytes key;
  Bytes msg;
  Bytes tag;              // the group's tagSize/8 bytes for valid tests; invalid tests may differ
  std::size_t tag_bytes;  // the group's tagSize / 8: the truncation every tag is compared at
  bool valid;             // "valid": tag == leftmost tag_bytes of HMAC(key, msg); "invalid": it must not verify
};

struct WycheproofMacFile {
  std::string algorithm;  // "HMACSHA256", "HMACSHA512/224", "HMACSHA3-256"
  std::vector<WycheproofMacTest> tests;
};

// VectorFileError on unreadable files, invalid JSON ("path:line: invalid JSON: ..."), missing or
// mistyped members (named by their JSON path), bad hex, a `result` other than valid/invalid, or a
// test count that differs from `numberOfTests` (a truncated file).
WycheproofMacFile parse_wycheproof_mac_file(const std::string& path);

}  // namespace shakedown::vectors

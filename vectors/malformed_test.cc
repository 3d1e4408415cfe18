// Malformed, truncated and missing vector files (copies corrupted at test time): a failure naming
// file:line and the expectation, never a crash or an escaping exception; wrong data must fail.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "cavp.h"
#include "consolidated.h"
#include "rsp_reader.h"
#include "runners.h"
#include "vector_files.h"
#include "wycheproof.h"

namespace shakedown::vectors {
namespace {

namespace fs = std::filesystem;

const test::AlgBackend kSha256Generic{Algorithm::sha256, "generic"};
const test::AlgBackend kShake256Generic{Algorithm::shake256, "generic"};

// What a runner reported: the count it returned and the failure messages it raised.
struct Captured {
  std::size_t count = 0;
  std::vector<std::string> failures;
  bool any_failure_contains(const std::string& text) const {
    for (const auto& f : failures)
      if (f.find(text) != std::string::npos) return true;
    return false;
  }
};

Captured capture(const std::function<std::size_t()>& run) {
  ::testing::TestPartResultArray results;
  Captured c;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
    c.count = run();
  }
  for (int i = 0; i < results.size(); ++i) c.failures.emplace_back(results.GetTestPartResult(i).message());
  return c;
}

class MalformedFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("shakedown-vectors-" + std::to_string(::getpid()) + "-" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  // A real vector file's text.
  static std::string original(std::string_view relative) { return read_file(data_path(relative)); }

  // Writes `text` as dir/name and returns the path.
  std::string write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // 1-based line of the first occurrence of `needle`.
  static std::size_t line_of(const std::string& text, const std::string& needle) {
    std::size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  }

  // `text` with the first `from` replaced by `to`.
  static std::string replaced(std::string text, const std::string& from, const std::string& to) {
    std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
  }

  // Expects `parse` to throw VectorFileError whose message contains every fragment.
  static void expect_error(const std::function<void()>& parse, const std::vector<std::string>& fragments) {
    try {
      parse();
      ADD_FAILURE() << "expected a VectorFileError";
    } catch (const VectorFileError& e) {
      for (const auto& f : fragments) EXPECT_NE(std::string(e.what()).find(f), std::string::npos)
                                          << "message '" << e.what() << "' lacks '" << f << "'";
    }
  }

  fs::path dir_;
};

constexpr std::string_view kShortMsg = "nist-cavp-sha2/SHA256ShortMsg.rsp";

TEST_F(MalformedFile, MissingDigestLineNamesTheLine) {
  std::string text = original(kShortMsg);
  const std::string md = "MD = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\r\n";
  std::size_t line = line_of(text, md);
  std::string path = write("SHA256ShortMsg.rsp", replaced(text, md, ""));
  expect_error([&] { parse_msg_file(path, "MD", 32); },
               {path + ":" + std::to_string(line) + ":", "expected `MD = ...`"});
  // Through the runner: one failure with the same text and the backend, no vector counted.
  Captured c = capture([&] { return run_msg_file(path, kSha256Generic, 0); });
  EXPECT_EQ(c.count, 0u);
  ASSERT_EQ(c.failures.size(), 1u);
  EXPECT_TRUE(c.any_failure_contains(path + ":" + std::to_string(line) + ":")) << c.failures[0];
  EXPECT_TRUE(c.any_failure_contains("sha256 on generic")) << c.failures[0];
}

// A directory opens as a file and fails only on reading: said as such, not parsed as an empty file.
TEST_F(MalformedFile, DirectoryInPlaceOfAFileSaysSo) {
  const std::string path = (dir_ / "SHA256ShortMsg.rsp").string();
  fs::create_directory(path);
  expect_error([&] { parse_msg_file(path, "MD", 32); }, {path + ": read error: " + std::strerror(EISDIR)});
  expect_error([&] { read_file((dir_ / "absent.rsp").string()); },
               {"cannot open the vector file: " + std::string(std::strerror(ENOENT))});
}

TEST_F(MalformedFile, OddLengthHexNamesTheLine) {
  std::string text = original(kShortMsg);
  std::size_t line = line_of(text, "Msg = d3\r");
  std::string path = write("odd.rsp", replaced(text, "Msg = d3\r", "Msg = d3a\r"));
  expect_error([&] { parse_msg_file(path, "MD", 32); },
               {path + ":" + std::to_string(line) + ":", "Msg", "odd-length"});
}

TEST_F(MalformedFile, NonHexCharacterNamesTheLine) {
  std::string text = original(kShortMsg);
  std::size_t line = line_of(text, "Msg = 11af\r");
  std::string path = write("nonhex.rsp", replaced(text, "Msg = 11af\r", "Msg = 11ag\r"));
  expect_error([&] { parse_msg_file(path, "MD", 32); }, {path + ":" + std::to_string(line) + ":", "non-hex"});
}

TEST_F(MalformedFile, TruncatedMidRecordNamesTheMissingField) {
  std::string text = original(kShortMsg);
  const std::string msg = "Msg = 74ba2521\r\n";
  std::size_t cut = text.find(msg) + msg.size();
  std::string path = write("cut-after-msg.rsp", text.substr(0, cut));
  expect_error([&] { parse_msg_file(path, "MD", 32); },
               {path + ":" + std::to_string(line_of(text, msg) + 1) + ":", "expected `MD = ...`"});
}

TEST_F(MalformedFile, TruncatedMidValueNamesTheShortDigest) {
  std::string text = original(kShortMsg);
  const std::string md = "MD = 28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1";
  std::size_t line = line_of(text, md);
  // Cut after 10 hex digits of the digest: 5 bytes where 32 are expected.
  std::string path = write("cut-mid-md.rsp", text.substr(0, text.find(md) + 5 + 10));
  expect_error([&] { parse_msg_file(path, "MD", 32); },
               {path + ":" + std::to_string(line) + ":", "expected `MD` of 32 bytes, got 5"});
}

TEST_F(MalformedFile, GarbageLineNamesTheLine) {
  std::string text = original(kShortMsg);
  std::size_t line = line_of(text, "Len = 8\r");
  std::string path = write("garbage.rsp", replaced(text, "Len = 8\r", "Len 8\r"));
  expect_error([&] { parse_msg_file(path, "MD", 32); },
               {path + ":" + std::to_string(line) + ":", "expected `name = value`"});
}

TEST_F(MalformedFile, MissingFileIsAFailureNotACrash) {
  std::string path = (dir_ / "does-not-exist.rsp").string();
  expect_error([&] { parse_msg_file(path, "MD", 32); }, {path, "cannot open"});
  Captured c = capture([&] { return run_monte_file(path, kSha256Generic, 100); });
  EXPECT_EQ(c.count, 0u);
  EXPECT_TRUE(c.any_failure_contains("cannot open"));
}

TEST_F(MalformedFile, TruncatedMonteFileNamesTheMissingCheckpoints) {
  std::string text = original("nist-cavp-sha2/SHA256Monte.rsp");
  std::size_t cut = text.find("COUNT = 50\r");
  std::string path = write("SHA256Monte.rsp", text.substr(0, cut));
  expect_error([&] { parse_monte_file(path, 32); }, {path + ":", "expected 100 checkpoints", "ends after 50"});
}

TEST_F(MalformedFile, ShakeMonteWithoutLengthHeaderNamesTheHeader) {
  std::string text = original("nist-cavp-shake/SHAKE256Monte.rsp");
  std::string path = write("SHAKE256Monte.rsp", replaced(text, "[Minimum Output Length (bits) = 16]", ""));
  expect_error([&] { parse_monte_file(path, 0); }, {path + ":", "[Minimum Output Length (bits) = ...]"});
}

TEST_F(MalformedFile, HmacKeyShorterThanKlenNamesTheLine) {
  std::string text = original(kNistHmacFile);
  std::size_t line = line_of(text, "Key = 82f3b69a1bff4de15c33\r");
  std::string path = write("HMAC.rsp", replaced(text, "Klen = 10\r", "Klen = 11\r"));
  expect_error([&] { parse_hmac_file(path); },
               {path + ":" + std::to_string(line) + ":", "expected `Key` of 11 bytes, got 10"});
}

TEST_F(MalformedFile, InvalidJsonNamesTheLine) {
  std::string text = original("wycheproof/hmac_sha256_test.json");
  std::string path = write("hmac_sha256_test.json", text.substr(0, text.size() / 2));
  expect_error([&] { parse_wycheproof_mac_file(path); }, {path + ":", "invalid JSON"});
  Captured c = capture([&] { return run_wycheproof_file(path, kSha256Generic); });
  EXPECT_EQ(c.count, 0u);
  EXPECT_TRUE(c.any_failure_contains("invalid JSON"));
}

TEST_F(MalformedFile, JsonTestWithoutTagNamesTheTest) {
  auto json = nlohmann::json::parse(original("wycheproof/hmac_sha256_test.json"));
  json["testGroups"][0]["tests"][1].erase("tag");
  std::string path = write("no-tag.json", json.dump(2));
  expect_error([&] { parse_wycheproof_mac_file(path); },
               {path + ": testGroups[0].tests[1] (tcId 2)", "expected member \"tag\""});
}

TEST_F(MalformedFile, JsonMissingTestNamesTheCount) {
  auto json = nlohmann::json::parse(original("wycheproof/hmac_sha256_test.json"));
  json["testGroups"][0]["tests"].erase(0);
  std::string path = write("one-less.json", json.dump(2));
  expect_error([&] { parse_wycheproof_mac_file(path); }, {path + ":", "numberOfTests = 174", "found 173"});
}

TEST_F(MalformedFile, ConsolidatedUnknownAlgorithmNamesTheLine) {
  std::string path = write("consolidated.txt", "# comment\nsha256 00\nmd5 00\n");
  expect_error([&] { read_consolidated_file(path); }, {path + ":2:", "expected 32 bytes"});
  path = write("consolidated2.txt", "md5 00\n");
  expect_error([&] { read_consolidated_file(path); }, {path + ":1:", "expected an algorithm name"});
}

// ---- The suites can fail: wrong expected values are reported with file:line ----

TEST_F(MalformedFile, WrongDigestIsReportedWithFileLine) {
  std::string text = original(kShortMsg);
  const std::string md = "MD = 28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1";
  std::size_t line = line_of(text, "Len = 8\r");
  std::string wrong = md;
  wrong[5] = '3';  // first digest digit 2 -> 3
  std::string path = write("wrong-md.rsp", replaced(text, md, wrong));
  Captured c = capture([&] { return run_msg_file(path, kSha256Generic, SIZE_MAX); });
  EXPECT_EQ(c.count, 65u);  // every vector ran; one of them (three paths) mismatched
  EXPECT_EQ(c.failures.size(), 3u);
  EXPECT_TRUE(c.any_failure_contains(path + ":" + std::to_string(line) + ": sha256 on generic")) << c.failures[0];
}

// A header asking for outputs of 2^33 bits would have the procedure allocate a gigabyte 100 000 times: refused with
// the file and the bound.
TEST_F(MalformedFile, ShakeMonteMaximumOutputBeyondTheBoundIsRefused) {
  const std::string text = original("nist-cavp-shake/SHAKE256Monte.rsp");
  const std::string path = write("huge.rsp", replaced(text, "[Maximum Output Length (bits) = 2000]",
                                                      "[Maximum Output Length (bits) = 8589934592]"));
  expect_error([&] { parse_monte_file(path, 0); }, {path + ":", "<= 65536, got 2 and 1073741824"});
}

TEST_F(MalformedFile, WrongMonteCheckpointIsReported) {
  std::string text = original("nist-cavp-shake/SHAKE256Monte.rsp");
  std::size_t at = text.find("Output = ", text.find("COUNT = 1\r")) + 9;
  text[at] = text[at] == '0' ? '1' : '0';
  std::string path = write("SHAKE256Monte.rsp", text);
  Captured c = capture([&] { return run_monte_file(path, kShake256Generic, 3); });
  EXPECT_EQ(c.count, 1u);  // checkpoint 0 matched, 1 did not, the run stopped there
  EXPECT_TRUE(c.any_failure_contains("Monte Carlo checkpoint"));
}

TEST_F(MalformedFile, FlippedWycheproofVerdictIsReported) {
  auto json = nlohmann::json::parse(original("wycheproof/hmac_sha256_test.json"));
  auto& test = json["testGroups"][0]["tests"][0];
  ASSERT_EQ(test["result"], "valid");
  test["result"] = "invalid";
  std::string path = write("hmac_sha256_test.json", json.dump(2));
  Captured c = capture([&] { return run_wycheproof_file(path, kSha256Generic); });
  EXPECT_EQ(c.count, 174u);
  ASSERT_EQ(c.failures.size(), 1u);
  EXPECT_TRUE(c.any_failure_contains("(tcId 1)")) << c.failures[0];
  EXPECT_TRUE(c.any_failure_contains("accepted an invalid tag")) << c.failures[0];
}

TEST_F(MalformedFile, ZeroVectorsRunIsAFailure) {
  Captured c = capture([&] {
    report_count("ZeroRunCheck", kSha256Generic, 0, "nothing.rsp");
    return std::size_t{0};
  });
  ASSERT_EQ(c.failures.size(), 1u);
  EXPECT_TRUE(c.any_failure_contains("no ZeroRunCheck vector ran")) << c.failures[0];
}

}  // namespace
}  // namespace shakedown::vectors

// The test-support library's own contract: the expected-selection check, record lines, parameter names, hex.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "support.h"

namespace shakedown::test {
namespace {

// Sets an environment variable for one test and restores what was there (the matrix sets the same ones).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(ExpectedSelection, MatchesMismatchesAndBackendsNotBuilt) {
  const std::string selected(selected_backend(Family::sha256));
  std::string notes;
  {
    ScopedEnv env("SHAKEDOWN_EXPECT_SELECTED", "sha256=" + selected);
    EXPECT_EQ(check_expected_selection(notes), "");
    EXPECT_NE(notes.find("selection as expected: sha256=" + selected), std::string::npos) << notes;
  }
  // A compiled backend that is not the selected one: generic, unless generic is what this machine selects.
  const std::string other = selected == "generic" ? std::string(backends(Family::sha256).front().name) : "generic";
  if (other != selected) {
    ScopedEnv env("SHAKEDOWN_EXPECT_SELECTED", "sha512=" + std::string(selected_backend(Family::sha512)) +
                                                   ",sha256=" + other);
    EXPECT_EQ(check_expected_selection(notes), "sha256 selected '" + selected + "', expected '" + other + "'");
  }
  {
    ScopedEnv env("SHAKEDOWN_EXPECT_SELECTED", "sha256=nowhere/never");
    notes.clear();
    EXPECT_EQ(check_expected_selection(notes), "");
    EXPECT_NE(notes.find("not asserted: sha256=nowhere/never is not compiled"), std::string::npos) << notes;
  }
  {
    ScopedEnv env("SHAKEDOWN_EXPECT_SELECTED", "md5=generic");
    EXPECT_ANY_THROW(check_expected_selection(notes));
  }
}

TEST(Records, OneLineOfJsonWithEveryFieldEscaped) {
  char buf[256];
  const std::size_t n = format_record(buf, sizeof buf, "failure", "sha256", "x86_64/shani", "a\"b\\c\n", 3, "env");
  ASSERT_GT(n, 0u);
  EXPECT_EQ(std::string(buf, n), std::string("{\"suite\":\"failure\",\"family\":\"sha256\",\"backend\":\"x86_64/shani\","
                                             "\"check\":\"a\\\"b\\\\c\\u000a\",\"count\":3,\"env\":\"env\",\"arch\":\"") +
                                     record_arch() + "\"}\n");
  EXPECT_EQ(format_record(buf, 40, "failure", "sha256", "x86_64/shani", "check", 3, "env"), 0u);  // no room
}

TEST(Params, OneNameFormatForAlgorithmsAndFamilies) {
  EXPECT_EQ(param_name(AlgBackend{Algorithm::sha512_256, "x86_64/avx2"}), "sha512_256__x86_64_avx2");
  EXPECT_EQ(param_name(FamilyBackend{Family::keccak, "x86_64/bmi2"}), "keccak__x86_64_bmi2");
  EXPECT_EQ(param_name(AlgBackend{Algorithm::sha3_224, "generic"}), "sha3_224__generic");
}

TEST(Bytes, HexBothWaysAndTruncation) {
  const std::vector<std::uint8_t> b = {0x00, 0x1f, 0xa0, 0xff};
  EXPECT_EQ(to_hex(b), "001fa0ff");
  EXPECT_EQ(to_hex(b, 2), "001f... (4 bytes)");
  EXPECT_EQ(from_hex("001FA0ff"), b);
  EXPECT_THROW(from_hex("abc"), std::invalid_argument);
  EXPECT_THROW(from_hex("zz"), std::invalid_argument);
}

}  // namespace
}  // namespace shakedown::test

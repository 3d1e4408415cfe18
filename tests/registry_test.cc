// Registry: table invariants, selection, SHAKEDOWN_BACKENDS parsing and errors, test feature overrides.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "shakedown/testing.h"
#include "support.h"

namespace shakedown {
namespace {

// Restores selection from the real environment after each test that re-selects, including the
// SHAKEDOWN_TEST_ASSUME override the test main applied (riscv64 Zknh under QEMU exists only through it).
class RegistryEnv : public ::testing::Test {
 protected:
  void TearDown() override {
    testing::clear_assumed_features();
    testing::assume_features_from_environment();
    testing::reselect(std::nullopt);
  }
};

std::string error_message(Family f) {
  try {
    (void)selected_backend(f);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::bad_environment);
    return e.what();
  }
  return "";
}

// The min_busy of a compiled row, read from the table without binding it (binding may run a self-test).
std::uint32_t min_busy_of(Family f, std::string_view name) {
  return visit_family(f, [&]<class T>(T) -> std::uint32_t {
    for (const auto& b : compiled_backends<T::kFamily>())
      if (b.info.name == name) return b.multi.min_busy;
    ADD_FAILURE() << name << " is not a compiled row";
    return 0;
  });
}

// Whether a row's lanes are ahead on the CPU as selection sees it (MultiLane::ahead_on; null: everywhere).
bool lanes_ahead_here(Family f, std::string_view name) {
  return visit_family(f, [&]<class T>(T) {
    for (const auto& b : compiled_backends<T::kFamily>())
      if (b.info.name == name) return b.multi.ahead_on == nullptr || b.multi.ahead_on(cpu_features());
    ADD_FAILURE() << name << " is not a compiled row";
    return false;
  });
}

// "<arch>/<name>" with this build's arch folder (ci/arches.txt, from CMake) and a name of [a-z0-9_]+: the form
// every non-generic backend name takes.
bool is_arch_backend_name(std::string_view name) {
  const auto slash = name.find('/');
  if (slash == std::string_view::npos || slash + 1 == name.size()) return false;
  if (name.substr(0, slash) != std::string_view(SHAKEDOWN_ARCH_FOLDER)) return false;
  return std::ranges::all_of(name.substr(slash + 1),
                             [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

template <class Table>
void check_table(const Table& table) {
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.back().info.name, "generic") << "generic must be last";
  std::set<std::string_view> names;
  for (const auto& b : table) {
    EXPECT_TRUE(names.insert(b.info.name).second) << "duplicate " << b.info.name;
    EXPECT_TRUE(b.info.name == "generic" || is_arch_backend_name(b.info.name)) << b.info.name;
    EXPECT_FALSE(b.info.needs.empty()) << b.info.name;
    EXPECT_NE(b.info.available, nullptr) << b.info.name;
  }
}

TEST(Registry, TablesAreWellFormed) {
  for (Family f : kAllFamilies) visit_family(f, []<class T>(T) { check_table(compiled_backends<T::kFamily>()); });
  for (const auto& k : shakedown::compiled_backends<Family::keccak>()) EXPECT_NE(k.permute, nullptr) << k.info.name;
  // A multi-lane entry is all there or all absent, with a lane count the framing has slots for (lanes.h).
  for (Family f : kAllFamilies)
    visit_family(f, []<class T>(T) {
      for (const auto& b : compiled_backends<T::kFamily>()) {
        const auto& m = b.multi;
        if (m.lanes == 0) {
          EXPECT_TRUE(m.fn == nullptr && m.min_busy == 0 && m.ahead_on == nullptr) << b.info.name;
        } else {
          EXPECT_NE(m.fn, nullptr) << b.info.name;
          EXPECT_TRUE(m.lanes >= 2 && m.lanes <= T::kMaxLanes) << b.info.name << " lanes " << m.lanes;
          EXPECT_TRUE(m.min_busy >= 1 && m.min_busy <= m.lanes) << b.info.name << " min_busy " << m.min_busy;
        }
      }
    });
}

TEST(Registry, ExactlyOneSelectedAndReasonsForTheRest) {
  for (Family f : kAllFamilies) {
    auto list = backends(f);
    int selected = 0;
    for (const auto& s : list) {
      EXPECT_EQ(s.family, f);
      if (s.selected) {
        ++selected;
        EXPECT_TRUE(s.available) << s.name;
        EXPECT_EQ(s.name, selected_backend(f));
      } else {
        EXPECT_FALSE(s.reason.empty()) << s.name << " is neither selected nor explained";
      }
      if (!s.available) {
        EXPECT_TRUE(s.reason.starts_with("needs ") || s.reason.find("self-test") != std::string::npos) << s.reason;
      }
    }
    EXPECT_EQ(selected, 1) << name(f);
    // hash_many() may use the available rows with lanes that some message count reaches, unless SHAKEDOWN_BACKENDS
    // excludes them (the matrix's fallback rows run this suite so): it takes the first whose min_busy the count
    // reaches, so a row is used only with a min_busy below every earlier one's. The first is its first choice.
    std::string first_multi;
    std::uint32_t reached_from = UINT32_MAX;
    for (const auto& s : list) {
      const std::uint32_t min_busy = s.lanes != 0 ? min_busy_of(f, s.name) : 0;
      const bool excluded = s.reason == "excluded by SHAKEDOWN_BACKENDS";
      const bool reachable =
          s.available && !excluded && s.lanes != 0 && lanes_ahead_here(f, s.name) && min_busy < reached_from;
      if (reachable && first_multi.empty()) first_multi = s.name;
      if (reachable) reached_from = min_busy;
      EXPECT_EQ(s.selected_many, reachable) << s.name << " (min_busy " << min_busy << ")";
    }
    EXPECT_EQ(selected_many_backend(f), first_multi.empty() ? selected_backend(f) : first_multi) << name(f);
    // available_backends agrees with the status table.
    std::vector<std::string> avail;
    for (const auto& s : list)
      if (s.available) avail.push_back(s.name);
    EXPECT_EQ(avail, available_backends(f));
  }
}

TEST(Registry, LookupByNameErrors) {
  try {
    (void)shakedown::backend<Family::sha256>("x86_64/nosuch");
    ADD_FAILURE() << "unknown backend accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::unknown_backend);
    EXPECT_NE(std::string(e.what()).find("generic"), std::string::npos) << "lists compiled names: " << e.what();
  }
  EXPECT_THROW(Hasher(Algorithm::sha3_256, "nosuch"), Error);
  EXPECT_EQ(Hasher(Algorithm::sha384, "generic").backend_name(), "generic");
  // A compiled backend this CPU cannot run is rejected with its reason.
  for (const auto& s : backends(Family::sha256)) {
    if (s.available) continue;
    try {
      (void)shakedown::backend<Family::sha256>(s.name);
      ADD_FAILURE() << s.name << " bound although unavailable";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), Errc::backend_unavailable);
      EXPECT_NE(std::string(e.what()).find(s.reason), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW((void)shakedown::backend<Family::sha256>(s.name, /*require_available=*/false));
  }
}

TEST_F(RegistryEnv, PinAndExclude) {
  testing::reselect(" SHA256 = generic , keccak=generic ");
  EXPECT_EQ(selected_backend(Family::sha256), "generic");
  EXPECT_EQ(selected_backend(Family::keccak), "generic");
  // A pin is the only code that runs: hash_many() too.
  EXPECT_EQ(selected_many_backend(Family::sha256), "generic");
  EXPECT_EQ(selected_many_backend(Family::keccak), "generic");
  EXPECT_EQ(Hasher(Algorithm::sha224).backend_name(), "generic");
  for (const auto& s : backends(Family::sha256))
    if (s.name != "generic" && s.available) {
      EXPECT_NE(s.reason.find("pins generic"), std::string::npos) << s.reason;
    }

  // Excluding every non-generic backend leaves generic selected.
  std::string env;
  for (const auto& n : available_backends(Family::sha512))
    if (n != "generic") env += (env.empty() ? "" : ",") + std::string("sha512=-") + n;
  testing::reselect(env);
  EXPECT_EQ(selected_backend(Family::sha512), "generic");
  EXPECT_EQ(selected_many_backend(Family::sha512), "generic");

  // Excluding hash_many()'s default hands it to the next row with lanes, leaving single messages alone.
  for (Family f : kAllFamilies) {
    testing::reselect(std::string(""));
    const std::string single(selected_backend(f)), many(selected_many_backend(f));
    if (many == single) continue;
    testing::reselect(std::string(name(f)) + "=-" + many);
    EXPECT_EQ(selected_backend(f), single);
    EXPECT_NE(selected_many_backend(f), many);
  }
  testing::reselect(std::string(""));
  EXPECT_NO_THROW(check_environment());
}

TEST_F(RegistryEnv, MalformedValuesAreClearErrorsNeverFallbacks) {
  struct Case {
    const char* env;
    const char* must_mention;
  };
  const Case cases[] = {
      {"sha256", "has no '='"},
      {"sha999=generic", "unknown family 'sha999'"},
      {"sha256=nosuch", "unknown sha256 backend 'nosuch'"},
      {"sha256=-nosuch", "unknown sha256 backend 'nosuch'"},
      {"sha256=", "names no backend"},
      {"sha256=-", "names no backend"},
      {"sha256=generic,,keccak=generic", "empty item"},
      {",", "empty item"},
      {"sha256=generic,", "empty item"},
      {"keccak=generic,keccak=-generic", "both pinned and excluded"},
      {"keccak=-generic", nullptr},  // replaced below by excluding every compiled keccak backend
      {"sha256=generic;sha512=generic", "unknown sha256 backend"},
  };
  std::string exclude_all;
  for (const auto& k : shakedown::compiled_backends<Family::keccak>())
    exclude_all += (exclude_all.empty() ? "" : ",") + std::string("keccak=-") + std::string(k.info.name);
  for (auto c : cases) {
    std::string env = c.env;
    if (c.must_mention == nullptr) {
      env = exclude_all;
      c.must_mention = "leaves no usable keccak backend";
    }
    testing::reselect(env);
    std::string msg = error_message(Family::sha256);
    if (msg.empty()) msg = error_message(Family::keccak);
    EXPECT_NE(msg.find(c.must_mention), std::string::npos) << "env '" << env << "' gave: " << msg;
    EXPECT_NE(msg.find("SHAKEDOWN_BACKENDS"), std::string::npos) << msg;
    // Every default-bound entry point refuses to run; explicit binding still works.
    EXPECT_THROW(check_environment(), Error) << env;
    EXPECT_THROW(Hasher{Algorithm::sha256}, Error) << env;
    EXPECT_THROW((void)hash(Algorithm::sha3_256, std::span<const std::uint8_t>{}), Error) << env;
    EXPECT_THROW((void)backends(Family::sha512), Error) << env;
    EXPECT_NO_THROW(Hasher(Algorithm::sha256, "generic")) << env;
  }
}

// The value is echoed cut (80 bytes and its length), so the reason stays in a short message: the C API keeps 511
// bytes of it, and a value of 24 valid items and a bad one used to leave only the echo there.
TEST_F(RegistryEnv, LongValueKeepsTheReasonInABoundedMessage) {
  std::string env;
  for (int i = 0; i < 24; ++i) env += "keccak=-generic,";
  env += "sha256=bogus";
  testing::reselect(env);
  std::string msg = error_message(Family::sha256);
  EXPECT_NE(msg.find("unknown sha256 backend 'bogus'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("... (" + std::to_string(env.size()) + " bytes)"), std::string::npos) << msg;
  EXPECT_LT(msg.size(), 300u) << msg;
  // A long name is cut on a character boundary: 'x' then 100 two-byte characters, cut inside the 40th.
  std::string name = "x";
  for (int i = 0; i < 100; ++i) name += "\xc3\xa9";  // U+00E9
  testing::reselect("sha256=" + name);
  msg = error_message(Family::sha256);
  EXPECT_NE(msg.find("backend 'x" + name.substr(1, 78) + "... (201 bytes)'"), std::string::npos) << msg;
}

TEST_F(RegistryEnv, PinningAnUnavailableBackendIsAnError) {
  bool tried = false;
  for (Family f : kAllFamilies)
    for (const auto& s : backends(f)) {
      if (s.available) continue;
      tried = true;
      testing::reselect(std::string(name(f)) + "=" + s.name);
      std::string msg = error_message(f);
      EXPECT_NE(msg.find("unavailable"), std::string::npos) << msg;
      testing::reselect(std::nullopt);
    }
  if (!tried) GTEST_SKIP() << "every compiled backend is available on this CPU";
}

TEST_F(RegistryEnv, PinOnlyBackendsAreNeverAutoSelected) {
  for (Family f : kAllFamilies)
    visit_family(f, [&]<class T>(T) {
      for (const auto& b : compiled_backends<T::kFamily>())
        if (b.info.flags & kBackendPinOnly)
          for (const auto& s : backends(f))
            if (s.name == b.info.name) {
              EXPECT_FALSE(s.selected) << s.name;
            }
    });
}

// A many-only row (kBackendManyOnly) takes single messages only when pinned; it exists for its lanes.
TEST_F(RegistryEnv, ManyOnlyBackendsServeSingleMessagesOnlyWhenPinned) {
  for (Family f : kAllFamilies)
    visit_family(f, [&]<class T>(T) {
      for (const auto& b : compiled_backends<T::kFamily>()) {
        if (!(b.info.flags & kBackendManyOnly)) continue;
        EXPECT_NE(b.multi.lanes, 0u) << b.info.name << " is many-only without lanes";
        testing::reselect(std::string(""));
        for (const auto& s : backends(f)) {
          if (s.name == b.info.name) {
            EXPECT_FALSE(s.selected) << s.name;
          }
        }
        if (!b.info.available(cpu_features())) continue;
        testing::reselect(std::string(name(f)) + "=" + std::string(b.info.name));
        EXPECT_EQ(selected_backend(f), b.info.name);
        EXPECT_EQ(selected_many_backend(f), b.info.name);
      }
    });
}

#if defined(__x86_64__)
// The sixteen AVX-512 SHA-256 lanes take hash_many() except where SHA256RNDS2 issues every cycle (AMD family 19h
// on; x86_features.h), where the two SHA-NI streams are faster at every count. A pure predicate of the CPU facts,
// then the selection it drives on whatever host runs this.
TEST_F(RegistryEnv, Sha256LaneOrderFollowsTheCore) {
  const Sha256Backend* x16 = nullptr;
  for (const auto& b : compiled_backends<Family::sha256>())
    if (b.info.name == "x86_64/avx512") x16 = &b;
  if (x16 == nullptr) GTEST_SKIP() << "x86_64/avx512 is left out of this build";
  ASSERT_NE(x16->multi.ahead_on, nullptr);
  const auto core = [](std::string vendor, unsigned family, bool sha_ni) {
    CpuFeatures f;
    f.vendor = std::move(vendor);
    f.family = family;
    f.set(CpuFeature::x86_sha_ni, sha_ni);
    return f;
  };
  EXPECT_FALSE(x16->multi.ahead_on(core("AuthenticAMD", 25, true))) << "Zen 4: SHA-NI x2 is faster";
  EXPECT_FALSE(x16->multi.ahead_on(core("AuthenticAMD", 26, true))) << "Zen 5";
  EXPECT_TRUE(x16->multi.ahead_on(core("AuthenticAMD", 25, false))) << "no SHA-NI to prefer";
  EXPECT_TRUE(x16->multi.ahead_on(core("AuthenticAMD", 23, true))) << "not measured before family 19h";
  EXPECT_TRUE(x16->multi.ahead_on(core("GenuineIntel", 6, true)));
  EXPECT_TRUE(x16->multi.ahead_on(core(" AuthenticAMD", 25, true))) << "the vendor string is compared verbatim";

  bool both = true;
  for (const char* row : {"x86_64/avx512", "x86_64/shani"})
    for (const auto& s : backends(Family::sha256))
      if (s.name == row && !s.available) both = false;
  if (!both) GTEST_SKIP() << "this CPU lacks AVX-512BW or SHA-NI: the selection half needs both";
  testing::assume_features("vendor=AuthenticAMD,family=25");
  EXPECT_EQ(selected_many_backend(Family::sha256), "x86_64/shani");
  EXPECT_EQ(selected_backend(Family::sha256), "x86_64/shani");
  for (const auto& s : backends(Family::sha256))
    if (s.name == "x86_64/avx512") {
      EXPECT_FALSE(s.selected_many);
      EXPECT_NE(s.reason.find("not the fastest on this core"), std::string::npos) << s.reason;
    }
  // Named, the lanes still run; pinned, they take hash_many() whatever the core.
  EXPECT_EQ(Hasher(Algorithm::sha256, "x86_64/avx512").backend_name(), "x86_64/avx512");
  testing::reselect(std::string("sha256=x86_64/avx512"));
  EXPECT_EQ(selected_many_backend(Family::sha256), "x86_64/avx512");
  testing::reselect(std::nullopt);
  testing::clear_assumed_features();
  testing::assume_features("vendor=GenuineIntel,family=6");
  EXPECT_EQ(selected_many_backend(Family::sha256), "x86_64/avx512");
  EXPECT_EQ(selected_backend(Family::sha256), "x86_64/shani");
}
#endif

TEST_F(RegistryEnv, FeatureOverrideAddsFeaturesAndRejectsBadText) {
  // A feature of another architecture: no backend compiled here reads it, so forcing it is harmless.
#if defined(__aarch64__)
  const CpuFeature foreign = CpuFeature::rv_zvkb;
#else
  const CpuFeature foreign = CpuFeature::arm_sha3;
#endif
  ASSERT_FALSE(cpu_features().has(foreign));
  testing::assume_features(std::string(feature_name(foreign)) + ",vlen=256");
  EXPECT_TRUE(cpu_features().has(foreign));
  EXPECT_EQ(cpu_features().vector_bytes, 32u);
  testing::clear_assumed_features();
  EXPECT_FALSE(cpu_features().has(foreign));

  for (const char* bad : {"nosuch", "avx2,,bmi2", "vlen=100", "vlen=abc", "family=x", "family=0", "vendor=", ""}) {
    try {
      testing::assume_features(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_TRUE(e.code() == Errc::unknown_feature || e.code() == Errc::bad_environment) << bad;
      EXPECT_NE(std::string(e.what()).find("feature override"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(cpu_features().has(foreign)) << "a rejected override applied something";
}

TEST(Registry, FeatureNamesRoundTrip) {
  for (std::size_t i = 0; i < kCpuFeatureCount; ++i) {
    auto f = static_cast<CpuFeature>(i);
    EXPECT_EQ(parse_feature(feature_name(f)), f);
  }
  EXPECT_EQ(parse_feature("SHA_NI"), std::nullopt) << "feature names are exact";
}

}  // namespace
}  // namespace shakedown

namespace shakedown {
namespace {

// SHAKEDOWN_BACKENDS pinning each available backend in turn: default-bound contexts and one-shot
// calls then run on it, and agree with OpenSSL.
class Pinned : public ::testing::TestWithParam<test::FamilyBackend> {
 protected:
  void TearDown() override { testing::reselect(std::nullopt); }
};

TEST_P(Pinned, DefaultPathRunsOnThePinnedBackend) {
  const auto& p = GetParam();
  testing::reselect(std::string(name(p.family)) + "=" + p.backend);
  ASSERT_EQ(selected_backend(p.family), p.backend);
  for (Algorithm a : kAllAlgorithms) {
    if (family_of(a) != p.family) continue;
    for (std::size_t len : {0u, 3u, 200u, 1500u}) {
      auto m = test::pattern(len, 21);
      Hasher h(a);
      EXPECT_EQ(h.backend_name(), p.backend);
      h.update(m);
      auto want = test::openssl_digest(a, m);
      EXPECT_EQ(h.final(), want) << name(a) << " len " << len << " pinned " << p.backend;
      EXPECT_EQ(hash(a, m), want) << name(a) << " one-shot len " << len << " pinned " << p.backend;
    }
    ASSERT_EQ(selected_many_backend(p.family), p.backend);
    const std::vector<std::uint8_t> m0 = test::pattern(0, 1), m1 = test::pattern(300, 2), m2 = test::pattern(5000, 3);
    const std::vector<std::span<const std::uint8_t>> msgs = {m0, m1, m2, m1, m0};
    const auto many = hash_many(a, msgs);
    for (std::size_t i = 0; i < msgs.size(); ++i)
      EXPECT_EQ(many[i], test::openssl_digest(a, msgs[i])) << name(a) << " hash_many() message " << i;
    test::record("pinned", a, p.backend, "default-path");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, Pinned, ::testing::ValuesIn(test::all_family_backends()),
                         [](const auto& p) { return test::param_name(p.param); });

}  // namespace
}  // namespace shakedown

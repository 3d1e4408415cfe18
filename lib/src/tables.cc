// The backend tables: each family's arch rows copied once, in order, into one contiguous array.
#include "internal/tables.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "internal/arch.h"
#ifdef SHAKEDOWN_TEST_BREAK
#include "internal/test_break.h"
#endif

namespace shakedown::internal {

template <Family F>
std::span<const BackendOf<F>> table() noexcept {
  struct Table {
    std::array<BackendOf<F>, kMaxRowsPerFamily> rows{};
    std::size_t size = 0;
  };
  static const Table built = [] {
    Table t;
    for (const BackendOf<F>* row : arch_rows<F>()) {
      if (t.size == kMaxRowsPerFamily) {
        std::fprintf(stderr, "shakedown: more than %zu %s backends: raise kMaxRowsPerFamily\n", kMaxRowsPerFamily,
                     std::string(name(F)).c_str());
        std::abort();
      }
      t.rows[t.size++] = *row;
      // The framing keeps one lane slot per lane on its stack (lanes.h): kMaxLanes is its size.
      const auto& m = row->multi;
      const bool none = m.lanes == 0 && m.min_busy == 0 && m.fn == nullptr && m.ahead_on == nullptr;
      const bool valid = m.lanes >= 2 && m.lanes <= FamilyTraits<F>::kMaxLanes && m.min_busy >= 1 &&
                         m.min_busy <= m.lanes && m.fn != nullptr;
      if (!none && !valid) {
        std::fprintf(stderr,
                     "shakedown: %s backend %s: multi-lane entry needs 2 <= lanes <= %zu, "
                     "1 <= min_busy <= lanes and a function\n",
                     std::string(name(F)).c_str(), std::string(row->info.name).c_str(), FamilyTraits<F>::kMaxLanes);
        std::abort();
      }
    }
    if (t.size == 0 || t.rows[t.size - 1].info.name != "generic") {
      std::fprintf(stderr, "shakedown: the %s list of arch/*/backends.cc must end with the generic row\n",
                   std::string(name(F)).c_str());
      std::abort();
    }
#ifdef SHAKEDOWN_TEST_BREAK
    test_break::patch<F>(std::span(t.rows.data(), t.size));
#endif
    return t;
  }();
  return {built.rows.data(), built.size};
}

template std::span<const BackendOf<Family::sha256>> table<Family::sha256>() noexcept;
template std::span<const BackendOf<Family::sha512>> table<Family::sha512>() noexcept;
template std::span<const BackendOf<Family::keccak>> table<Family::keccak>() noexcept;

}  // namespace shakedown::internal

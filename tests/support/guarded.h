// Memory bordered by inaccessible pages, so that any over-read or over-write faults at once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::test {

// `size` usable bytes (0 allowed) bordered by PROT_NONE pages on both sides. `at_end` (default) puts the
// usable bytes flush against the trailing guard page, otherwise flush after the leading one.
class GuardedBuffer {
 public:
  explicit GuardedBuffer(std::size_t size, bool at_end = true);
  ~GuardedBuffer();
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  std::uint8_t* data() const { return data_; }
  std::uint8_t* end() const { return data_ + size_; }  // with at_end: the first byte of the guard page
  std::size_t size() const { return size_; }

 private:
  void* map_;
  std::size_t map_len_;
  std::uint8_t* data_;
  std::size_t size_;
};

// A page that can be neither read nor written, for zero-length calls that must not touch memory.
std::uint8_t* inaccessible_page();

}  // namespace shakedown::test

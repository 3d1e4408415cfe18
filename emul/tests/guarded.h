// Test memory with an inaccessible page right after it, so any over-read or over-write faults at once.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::emul::test {

class GuardedBuffer {
 public:
  // size bytes whose last byte is immediately followed by a PROT_NONE page. size may be 0.
  explicit GuardedBuffer(std::size_t size);
  ~GuardedBuffer();
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;

  std::uint8_t* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::uint8_t* end() const { return data_ + size_; }  // the first byte of the guard page

 private:
  void* map_;
  std::size_t map_size_;
  std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace shakedown::emul::test

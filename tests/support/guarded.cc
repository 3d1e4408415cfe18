// Guard-page buffers (mmap + mprotect).
#include "guarded.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

namespace shakedown::test {

namespace {
std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}
}  // namespace

GuardedBuffer::GuardedBuffer(std::size_t size, bool at_end) : size_(size) {
  const std::size_t page = page_size();
  const std::size_t usable = std::max<std::size_t>(1, (size + page - 1) / page) * page;
  map_len_ = usable + 2 * page;
  map_ = mmap(nullptr, map_len_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map_ == MAP_FAILED) throw std::runtime_error("GuardedBuffer: mmap failed");
  auto* base = static_cast<std::uint8_t*>(map_);
  if (mprotect(base + page, usable, PROT_READ | PROT_WRITE) != 0) {
    munmap(map_, map_len_);
    throw std::runtime_error("GuardedBuffer: mprotect failed");
  }
  data_ = at_end ? base + page + usable - size : base + page;
}

GuardedBuffer::~GuardedBuffer() { munmap(map_, map_len_); }

std::uint8_t* inaccessible_page() {
  static std::uint8_t* page = [] {
    void* p = mmap(nullptr, page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("inaccessible_page: mmap failed");
    return static_cast<std::uint8_t*>(p);
  }();
  return page;
}

}  // namespace shakedown::test

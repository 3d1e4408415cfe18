// Guard-page buffers for the emulator tests (mmap + mprotect).
#include "guarded.h"

#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>

namespace shakedown::emul::test {

GuardedBuffer::GuardedBuffer(std::size_t size) : size_(size) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t usable = (size + page - 1) / page * page;
  map_size_ = usable + page;
  map_ = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map_ == MAP_FAILED) throw std::runtime_error("mmap failed");
  std::uint8_t* guard = static_cast<std::uint8_t*>(map_) + usable;
  if (mprotect(guard, page, PROT_NONE) != 0) throw std::runtime_error("mprotect failed");
  data_ = guard - size;
}

GuardedBuffer::~GuardedBuffer() { munmap(map_, map_size_); }

}  // namespace shakedown::emul::test

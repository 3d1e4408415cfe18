// Reading inputs with open/read, so that every failure keeps its errno (EISDIR, EIO, EACCES, ...).
#include "hash_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <memory>
#include <new>

#include "progress.h"

namespace shakedown::cli {
namespace {

// The page size, for the buffer's alignment (4 KiB on x86-64; 16 or 64 KiB on some arm64 and ppc64 kernels).
std::size_t page_size() {
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<std::size_t>(page) : 4096;
}

}  // namespace

std::span<std::uint8_t> read_buffer() {
  // One buffer for the process (inputs are read one after another), allocated on first use and kept.
  static const std::span<std::uint8_t> buffer = [] {
    const std::size_t page = page_size();
    const std::size_t bytes = (kReadBufferBytes + page - 1) / page * page;
    void* p = std::aligned_alloc(page, bytes);
    if (!p) throw std::bad_alloc();
    return std::span<std::uint8_t>(static_cast<std::uint8_t*>(p), bytes);
  }();
  return buffer;
}

namespace {

// The size to show progress against: only a regular file's is known in advance.
std::int64_t known_size(int fd) {
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return st.st_size;
  return -1;
}

int read_all(int fd, const std::string& path, Hasher& hasher) {
  const std::span<std::uint8_t> block = read_buffer();
  Progress progress(path == "-" ? "standard input" : path, known_size(fd));
  for (;;) {
    const ssize_t n = read(fd, block.data(), block.size());
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    hasher.update(block.data(), static_cast<std::size_t>(n));
    progress.add(static_cast<std::size_t>(n));
  }
}

}  // namespace

int hash_input(const std::string& path, Hasher& hasher) {
  if (path == "-") return read_all(STDIN_FILENO, path, hasher);
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  int err = 0;
  try {
    err = read_all(fd, path, hasher);
  } catch (...) {  // the hasher refused the input (a message over the algorithm's length limit)
    close(fd);
    throw;
  }
  if (close(fd) != 0 && err == 0) err = errno;
  return err;
}

}  // namespace shakedown::cli

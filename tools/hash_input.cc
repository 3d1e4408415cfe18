// Reading inputs with open/read, so that every failure keeps its errno (EISDIR, EIO, EACCES, ...).
#include "hash_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "progress.h"

namespace shakedown::cli {
namespace {

constexpr std::size_t kBlockBytes = std::size_t{1} << 17;

// The size to show progress against: only a regular file's is known in advance.
std::int64_t known_size(int fd) {
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return st.st_size;
  return -1;
}

int read_all(int fd, const std::string& path, Hasher& hasher) {
  const auto block = std::make_unique<std::uint8_t[]>(kBlockBytes);
  Progress progress(path == "-" ? "standard input" : path, known_size(fd));
  for (;;) {
    const ssize_t n = read(fd, block.get(), kBlockBytes);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    hasher.update(block.get(), static_cast<std::size_t>(n));
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

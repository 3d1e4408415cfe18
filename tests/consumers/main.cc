// A program outside the project: SHA-256("abc") through the installed or embedded library, as hex on stdout.
#include <shakedown/shakedown.h>

#include <cstdint>
#include <cstdio>
#include <span>

int main() {
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  for (std::uint8_t byte : shakedown::hash(shakedown::Algorithm::sha256, std::span<const std::uint8_t>(abc)))
    std::printf("%02x", byte);
  std::printf("\n");
  return 0;
}

// A program outside the project: SHA-256("abc") through the installed or embedded library, as hex on stdout.
#include <shakedown/shakedown.h>

#include <cstdint>
#include <cstdio>
#include <span>

int main() {
  const std::uint8_t abc[] = {'a', 'b', 'c'};
  const auto digest = shakedown::hash(shakedown::Algorithm::sha256, std::span<const std::uint8_t>(abc));
  std::puts(shakedown::to_hex(digest).c_str());
  return 0;
}

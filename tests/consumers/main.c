/* A C program outside the project: SHA-256("abc") through the installed library's C API, as hex on stdout. */
#include <shakedown/c.h>

#include <stdio.h>

int main(void) {
  unsigned char digest[32];
  size_t i;
  if (shakedown_hash(SHAKEDOWN_SHA256, "abc", 3, digest, sizeof digest) != SHAKEDOWN_OK) {
    fprintf(stderr, "shakedown_hash: %s\n", shakedown_last_error());
    return 1;
  }
  for (i = 0; i < sizeof digest; ++i) printf("%02x", digest[i]);
  printf("\n");
  return 0;
}

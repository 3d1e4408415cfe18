/* Compiled as strict C89 (-std=c89 -pedantic-errors): shakedown/c.h must be valid there too. */
#include <shakedown/c.h>

size_t shakedown_c89_context_sizes(void);
size_t shakedown_c89_context_sizes(void) {
  shakedown_hash_ctx hash;
  shakedown_xof_ctx xof;
  shakedown_hmac_ctx hmac;
  shakedown_backend_info info;
  return sizeof hash + sizeof xof + sizeof hmac + sizeof info;
}

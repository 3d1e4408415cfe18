/* The Linux kernel's PadLock SHA-256 code as the harness calls it (linux_padlock.c, docs/third-party.md). */
#ifndef SHAKEDOWN_LINUX_PADLOCK_H
#define SHAKEDOWN_LINUX_PADLOCK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* drivers/crypto/padlock-sha.c's "sha256-padlock-nano" (XSHA256 multi-block updates, final mode for the tail),
 * its "sha256-padlock" for the C7 (one final-mode XSHA256 over the whole message: a one-shot digest, split is
 * ignored), and lib/crypto/x86/sha256.h's sha256_blocks_phe (multi-block only; SHA-224 too). */
enum shakedown_linux_path { SHAKEDOWN_LINUX_NANO, SHAKEDOWN_LINUX_C7, SHAKEDOWN_LINUX_LIB };

/* SHA-256 (or SHA-224, LIB only) of msg in updates of split bytes (0: one update) into out; 0 on success. */
int shakedown_linux_sha256(enum shakedown_linux_path path, int sha224, const uint8_t* msg, size_t len, size_t split,
                           uint8_t* out);
/* The addresses around the code compiled from the kernel's files. */
uintptr_t shakedown_linux_code_begin_address(void);
uintptr_t shakedown_linux_code_end_address(void);

#ifdef __cplusplus
}
#endif

#endif

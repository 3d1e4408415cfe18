/* The export macro of the library: under hidden default visibility (docs/abi.md) only what carries SHAKEDOWN_API
   is exported from the shared library. Written by hand rather than generated: it must be valid C89 for the C API
   (shakedown/c.h) and the same for static and shared builds on ELF, where default visibility is all it takes. */
#ifndef SHAKEDOWN_EXPORT_H
#define SHAKEDOWN_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SHAKEDOWN_API __attribute__((visibility("default")))
#else
#define SHAKEDOWN_API
#endif

#endif /* SHAKEDOWN_EXPORT_H */

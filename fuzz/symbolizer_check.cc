// Prints a sanitizer stack trace: the fuzz builds' reports must name functions, files and lines (symbolized), which
// needs the sanitizer runtime to find an llvm-symbolizer (Debian: package llvm-19).
#include <sanitizer/common_interface_defs.h>

int main() {
  __sanitizer_print_stack_trace();
  return 0;
}

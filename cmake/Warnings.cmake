# Project-wide warning set; SHAKEDOWN_WERROR turns it into errors (CI presets do).
set(_shakedown_warnings -Wall -Wextra -Wshadow -Wcast-align -Wformat=2 -Wimplicit-fallthrough)
if(SHAKEDOWN_WERROR)
  list(APPEND _shakedown_warnings -Werror)
endif()
add_library(shakedown_warnings INTERFACE)
target_compile_options(shakedown_warnings INTERFACE ${_shakedown_warnings} $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor>)
# The C++ set as a plain list, for compiler commands CMake does not generate (the rv64gcv contract objects of
# tests/asm_contract/riscv64.cmake), where $<COMPILE_LANGUAGE> has no meaning.
set(SHAKEDOWN_CXX_WARNINGS ${_shakedown_warnings} -Wnon-virtual-dtor)

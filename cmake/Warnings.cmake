# Project-wide warning set; SHAKEDOWN_WERROR turns it into errors (CI presets do).
add_library(shakedown_warnings INTERFACE)
target_compile_options(shakedown_warnings INTERFACE
  -Wall -Wextra -Wshadow $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor> -Wcast-align -Wformat=2 -Wimplicit-fallthrough
  $<$<BOOL:${SHAKEDOWN_WERROR}>:-Werror>)

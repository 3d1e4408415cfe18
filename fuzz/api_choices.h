// fuzz_api's choice nibble (ApiOp::choice, 0..15) decoded into what each operation does with it: one named
// function per operation kind, so that the executor (run_api.cc) never reads the raw number. The mapping is the
// corpus's format: changing it changes what every checked-in input means.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shakedown::fuzz::api_choice {

// create: which backend the new Hasher is bound to.
enum class Backend { selected, named, unknown_name, unavailable_name, empty_name };
constexpr Backend create_backend(std::uint8_t c) {
  return c == 15   ? Backend::unavailable_name
         : c == 14 ? Backend::unknown_name
         : c >= 8  ? Backend::named
                   : Backend::selected;
}

// hmac_create: the selected backend, an explicitly empty name (an error, as for Hasher), or a named one.
constexpr Backend hmac_backend(std::uint8_t c) {
  return c >= 8 ? Backend::named : c == 7 ? Backend::empty_name : Backend::selected;
}

// final: the output length given, against the right one.
enum class Output { right, zero, one_more, one_less, null };
constexpr Output final_output(std::uint8_t c) {
  switch (c % 8) {
    case 4: return Output::zero;
    case 5: return Output::one_more;
    case 6: return Output::one_less;
    case 7: return Output::null;
    default: return Output::right;
  }
}

// squeeze: a null output pointer (for a non-zero length, Errc::null_pointer).
constexpr bool squeeze_to_null(std::uint8_t c) { return c == 15; }

// clone, hmac_clone: a move (which wipes and finalizes the source) instead of a copy.
constexpr bool clone_moves(std::uint8_t c) { return c >= 8; }

// rebind: to an unknown name instead of an available backend.
constexpr bool rebind_to_unknown(std::uint8_t c) { return c == 15; }

// hmac_final: the tag length asked for, of a digest of `full` bytes: 1..full, 0, or full + 1.
constexpr std::size_t hmac_tag_length(std::uint8_t c, std::size_t full) {
  return c < 12 ? 1 + (c * 7u) % full : c == 12 ? 0 : c == 13 ? full + 1 : full;
}

// hmac_verify: the tag presented. verify(tag) takes only the full tag; truncated tags go through
// verify_truncated with a length the verifier states (RFC 2104 section 5).
enum class Tag {
  right,                // the full tag to verify()
  truncated,            // a prefix to verify(): false
  flipped,              // one bit wrong: false
  empty,                // false
  one_byte_too_long,    // false
  truncated_stated,     // verify_truncated(prefix, its length): true
  shorter_than_stated,  // verify_truncated(prefix, a longer stated length): false
  stated_below_minimum  // verify_truncated with a length under the minimum: Errc::bad_output_length
};
constexpr Tag verify_tag(std::uint8_t c) {
  switch (c % 8) {
    case 1: return Tag::truncated;
    case 2: return Tag::flipped;
    case 3: return Tag::empty;
    case 4: return Tag::one_byte_too_long;
    case 5: return Tag::truncated_stated;
    case 6: return Tag::shorter_than_stated;
    case 7: return Tag::stated_below_minimum;
    default: return Tag::right;
  }
}

// oneshot: a fixed digest's own size (choices 0..7), or the operation's length (which a fixed digest refuses).
constexpr bool oneshot_right_length(std::uint8_t c) { return c < 8; }

}  // namespace shakedown::fuzz::api_choice

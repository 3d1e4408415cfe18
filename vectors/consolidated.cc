// The consolidated "hash of hashes" (consolidated_spec.h) computed through one backend, and its file.
#include "consolidated.h"

#include <algorithm>
#include <sstream>

#include "consolidated_spec.h"
#include "shakedown/hash.h"

namespace shakedown::vectors {

std::map<Algorithm, Bytes> read_consolidated_file(const std::string& path) {
  std::istringstream text(read_file(path));
  std::map<Algorithm, Bytes> out;
  std::string line;
  for (std::size_t line_no = 1; std::getline(text, line); ++line_no) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string alg_name, value, extra;
    fields >> alg_name >> value >> extra;
    if (value.empty() || !extra.empty()) fail_at(path, line_no, "expected `<algorithm> <hex>`, got '" + line + "'");
    auto alg = parse_algorithm(alg_name);
    if (!alg) fail_at(path, line_no, "expected an algorithm name, got '" + alg_name + "'");
    const std::string where = path + ":" + std::to_string(line_no);
    Bytes digest = parse_hex(value, where, alg_name);
    std::size_t want = is_xof(*alg) ? consolidated::kShakeConsolidatedBytes : digest_size(*alg);
    if (digest.size() != want)
      fail_at(path, line_no, "expected " + std::to_string(want) + " bytes for " + alg_name + ", got " +
                                 std::to_string(digest.size()));
    if (!out.emplace(*alg, std::move(digest)).second) fail_at(path, line_no, "repeats " + alg_name);
  }
  return out;
}

Bytes consolidated_outputs(const test::AlgBackend& p, HashPath path, std::size_t count) {
  Bytes all;
  Bytes msg;
  const std::size_t block = block_size(p.alg);
  for (std::size_t len = 0; len < count; ++len) {
    msg.resize(len);
    for (std::size_t i = 0; i < len; ++i) msg[i] = consolidated::message_byte(len, i);
    Bytes out(is_xof(p.alg) ? consolidated::shake_output_bytes(len) : digest_size(p.alg));
    if (path == HashPath::one_shot) {
      hash(p.alg, p.backend, msg, out);
    } else {
      // Three pieces whose boundaries move with len: a short head, a block-sized middle, the rest.
      Hasher ctx(p.alg, p.backend);
      std::size_t head = std::min(len, len % 7 + 1);
      std::size_t middle = std::min(len - head, block);
      ctx.update(msg.data(), head);
      ctx.update(msg.data() + head, middle);
      ctx.update(msg.data() + head + middle, len - head - middle);
      ctx.final(out);
    }
    all.insert(all.end(), out.begin(), out.end());
  }
  return all;
}

Bytes consolidate(const test::AlgBackend& p, const Bytes& outputs) {
  Bytes out(is_xof(p.alg) ? consolidated::kShakeConsolidatedBytes : digest_size(p.alg));
  Hasher ctx(p.alg, p.backend);
  ctx.update(outputs);
  ctx.final(out);
  return out;
}

}  // namespace shakedown::vectors

// libFuzzer target: the agent protocol as a peer would send it. The input is a byte stream
// fed to LineFramer in pieces; every complete line goes through both parsers. Properties
// checked besides "no crash, no sanitizer report":
//   - the framer never holds more than the line limit, and never returns a line with '\n';
//   - a line that parses re-encodes to a line that parses again to the same encoding
//     (encode . parse is idempotent), and an error always has a non-empty message.
#include "rlab/protocol/codec.hpp"
#include "rlab/protocol/framing.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <string_view>

namespace {

using namespace rlab::protocol;

[[noreturn]] void violated(const char* what, std::string_view line) {
  std::fprintf(stderr, "property violated: %s\nline: %.*s\n", what,
               static_cast<int>(line.size() > 400 ? 400 : line.size()), line.data());
  std::abort();
}

template <class Parse>
void check_line(std::string_view line, Parse parse) {
  auto first = parse(line);
  if (auto* err = std::get_if<ProtocolError>(&first)) {
    if (err->message.empty()) violated("error without a message", line);
    return;
  }
  std::string encoded;
  try {
    encoded = encode(std::get<0>(first));
  } catch (const std::length_error&) {
    return;  // documented: a message too large for one line is refused by encode
  }
  if (encoded.empty() || encoded.back() != '\n') violated("encoding is not one line", line);
  const std::string_view again_line(encoded.data(), encoded.size() - 1);
  auto again = parse(again_line);
  if (std::holds_alternative<ProtocolError>(again))
    violated("re-encoded message does not parse", again_line);
  if (encode(std::get<0>(again)) != encoded) violated("encode(parse(x)) is not stable", line);
}

}  // namespace

/// libFuzzer entry point: `data` is an arbitrary byte stream from a protocol peer.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A small limit so that the oversized-line path is reached by small inputs too.
  constexpr std::size_t kLimit = 512;
  LineFramer framer(kLimit);
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  // Split the stream at positions taken from the data itself, as a transport would.
  std::size_t step = size ? (data[0] % 61) + 1 : 1;
  while (!rest.empty()) {
    const std::string_view piece = rest.substr(0, step);
    rest.remove_prefix(piece.size());
    for (const Frame& f : framer.feed(piece)) {
      const auto* line = std::get_if<std::string>(&f);
      if (!line) continue;
      if (line->find('\n') != std::string::npos) violated("line contains a newline", *line);
      if (line->size() >= kLimit) violated("line longer than the limit", *line);
      check_line(*line, parse_host_message);
      check_line(*line, parse_agent_message);
    }
    if (framer.pending() >= kLimit) violated("framer holds more than the limit", {});
    step = step * 7 % 97 + 1;
  }
  return 0;
}

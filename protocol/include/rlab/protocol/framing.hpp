#pragma once
// Line framing for the agent protocol: JSON Lines over a byte stream, at most 1 MiB a line.
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rlab::protocol {

/// The longest accepted line in bytes, including its terminating '\n' (1 MiB).
inline constexpr std::size_t kMaxLineBytes = 1024 * 1024;

/// A line that exceeded the limit. Reported once, as soon as the limit is crossed; the
/// framer then discards bytes up to and including the next '\n' and resumes normally.
struct Oversized {
  std::size_t limit = kMaxLineBytes;  ///< the limit that was exceeded, bytes
};

/// One framing result: a complete line (without '\n'; a trailing '\r' is removed too) or
/// an oversized-line event.
using Frame = std::variant<std::string, Oversized>;

/// Splits a byte stream into lines. Feed it whatever the transport delivered (partial lines,
/// several lines, bytes of an oversized line); it returns the frames completed by those bytes,
/// in stream order. Memory use is bounded by the line limit. Not thread safe.
class LineFramer {
 public:
  /// `max_line_bytes`: the limit including '\n' (must be >= 2).
  explicit LineFramer(std::size_t max_line_bytes = kMaxLineBytes);

  /// Consumes `bytes` and returns the frames they complete (possibly none).
  std::vector<Frame> feed(std::string_view bytes);

  /// Bytes of an incomplete line held back (0 while discarding an oversized line).
  std::size_t pending() const { return buffer_.size(); }

  /// Forgets any partial line (e.g. when the peer reconnects).
  void reset();

 private:
  std::size_t max_line_bytes_;
  std::string buffer_;
  bool discarding_ = false;
};

}  // namespace rlab::protocol

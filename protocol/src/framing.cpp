#include "rlab/protocol/framing.hpp"

#include <stdexcept>

namespace rlab::protocol {

LineFramer::LineFramer(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {
  if (max_line_bytes < 2) throw std::invalid_argument("LineFramer: max_line_bytes must be >= 2");
}

void LineFramer::reset() {
  buffer_.clear();
  discarding_ = false;
}

std::vector<Frame> LineFramer::feed(std::string_view bytes) {
  std::vector<Frame> out;
  while (!bytes.empty()) {
    const auto nl = bytes.find('\n');
    const std::string_view chunk = bytes.substr(0, nl);  // npos: everything
    if (discarding_) {
      if (nl == std::string_view::npos) return out;
      discarding_ = false;
    } else if (buffer_.size() + chunk.size() + 1 > max_line_bytes_) {
      // The line, counting its newline (seen or still to come), does not fit.
      buffer_.clear();
      out.emplace_back(Oversized{max_line_bytes_});
      discarding_ = nl == std::string_view::npos;
      if (discarding_) return out;
    } else if (nl == std::string_view::npos) {
      buffer_.append(chunk);
      return out;
    } else {
      buffer_.append(chunk);
      if (!buffer_.empty() && buffer_.back() == '\r') buffer_.pop_back();
      out.emplace_back(std::move(buffer_));
      buffer_.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace rlab::protocol

#include "util/csv.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace rlab::util {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::string csv_number(std::optional<double> v) {
  if (!v || !std::isfinite(*v)) return "";
  return fmt::format("{}", *v);
}

void CsvWriter::row(const std::vector<std::string>& fields) {
  if (columns_ == 0) columns_ = fields.size();
  if (fields.size() != columns_)
    throw std::invalid_argument(fmt::format("CSV record of {} fields under a header of {}", fields.size(), columns_));
  for (std::size_t i = 0; i < fields.size(); ++i) out_ << (i ? "," : "") << csv_field(fields[i]);
  out_ << "\r\n";
}

}  // namespace rlab::util

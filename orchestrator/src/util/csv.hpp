#pragma once
// CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field that
// holds a comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled.
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::util {

/// One field as it goes on a CSV line: `text` unchanged, or quoted ("a,b" -> "\"a,b\"",
/// `say "hi"` -> `"say ""hi"""`) when it holds ',', '"', '\r' or '\n'.
std::string csv_field(std::string_view text);

/// A number as a CSV field: the shortest text that reads back as the same double; "" for
/// nullopt or a value that is not finite (an absent figure is an empty field).
std::string csv_number(std::optional<double> v);

/// Writes records to a stream, each through csv_field, ended by CRLF.
class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  /// Writes one record. Throws std::invalid_argument when its field count differs from the
  /// first record's (the header): every row of a table has the header's columns.
  void row(const std::vector<std::string>& fields);

 private:
  std::ostream& out_;
  std::size_t columns_ = 0;  ///< the first record's field count; 0 before it
};

}  // namespace rlab::util

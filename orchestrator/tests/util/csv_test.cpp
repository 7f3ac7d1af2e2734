// The one CSV rule of `rlab results --csv` and `rlab compare --csv` (RFC 4180).
#include "util/csv.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <sstream>

namespace {

using rlab::util::csv_field;

/// Reads RFC 4180 records back (quoted fields, doubled quotes, CRLF line ends).
std::vector<std::vector<std::string>> parse(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '"' && i + 1 < text.size() && text[i + 1] == '"') rows.back().back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (!quoted && c == ',') rows.back().emplace_back();
    else if (!quoted && c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') rows.emplace_back(1), ++i;
    else rows.back().back() += c;
  }
  rows.pop_back();  // after the last CRLF
  return rows;
}

TEST(CsvField, QuotesOnlyFieldsWithSeparatorsQuotesOrLineBreaks) {
  EXPECT_EQ(csv_field("6.12/xfs-defaults/2vcpu/shell1"), "6.12/xfs-defaults/2vcpu/shell1");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("xfs(agcount=4,crc=1)"), "\"xfs(agcount=4,crc=1)\"");
  EXPECT_EQ(csv_field(R"(say "hi")"), R"("say ""hi""")");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(csv_field("'single' and ;semicolon"), "'single' and ;semicolon");
}

TEST(CsvWriter, RecordsReadBackFieldForFieldAndEndInCrlf) {
  const std::vector<std::vector<std::string>> rows = {
      {"label", "base_median_lpm", "verdict"},
      {"xfs(defaults).2vcpu.shell1", "270.5", "different"},
      {"a,b", "\"quoted\", twice \"\"", "line\r\nbreak"},
      {"", "", ""}};
  std::ostringstream out;
  rlab::util::CsvWriter w(out);
  for (const auto& r : rows) w.row(r);
  EXPECT_EQ(out.str().substr(0, out.str().find('\n') + 1), "label,base_median_lpm,verdict\r\n");
  EXPECT_EQ(parse(out.str()), rows) << out.str();
}

TEST(CsvWriter, RefusesARecordWithAnotherFieldCountThanTheHeader) {
  std::ostringstream out;
  rlab::util::CsvWriter w(out);
  w.row({"a", "b"});
  EXPECT_THROW(w.row({"1"}), std::invalid_argument);
}

TEST(CsvNumber, AbsentOrNonFiniteIsEmptyAndValuesReadBackExactly) {
  using rlab::util::csv_number;
  EXPECT_EQ(csv_number(std::nullopt), "");
  EXPECT_EQ(csv_number(std::numeric_limits<double>::quiet_NaN()), "");
  const double v = -0.11111111111111112;
  EXPECT_EQ(std::stod(csv_number(v)), v);
  EXPECT_EQ(csv_number(270.0), "270");
}

}  // namespace

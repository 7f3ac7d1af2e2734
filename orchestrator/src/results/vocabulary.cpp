#include "results/vocabulary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace rlab::results {
namespace {

/// Display width of UTF-8 text (code points; the tables use no wide characters).
std::size_t width_of(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

/// The name slot of an other side's group: over its %change and value, 27 wide or the name's.
constexpr std::size_t kNameSlot = 11 + 16;

}  // namespace

std::string row_label(const std::string& fs, const std::string& mkfs_label, unsigned vcpus,
                      const std::string& workload) {
  return fmt::format("{}({}).{}vcpu.{}", fs, mkfs_label, vcpus, workload);
}

std::string value_col(std::optional<double> v, std::optional<double> rel) {
  if (!v) return fmt::format("{:>10}      ", "-");
  std::string s = fmt::format("{:>10.2f}", *v);
  if (rel && std::isfinite(*rel)) return s + fmt::format(" ±{:>3.0f}%", *rel * 100.0);
  return s + "      ";
}

std::string change_col(std::optional<double> change) {
  if (!change) return fmt::format("{:>11}", "");
  return fmt::format("{:>+10.1f}%", *change * 100.0);
}

std::string p_col(std::optional<double> p) {
  if (!p) return std::string(9, ' ');
  return *p < 0.0001 ? fmt::format("{:>9.1e}", *p) : fmt::format("{:>9.4f}", *p);
}

std::string group_col(std::optional<double> change, std::optional<double> value, std::optional<double> rel,
                      std::optional<double> p, std::string_view verdict) {
  return " " + change_col(change) + value_col(value, rel) + " " + p_col(p) + "  " + fmt::format("{:<9}", verdict);
}

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t n = width_of(s);
  return n >= width ? s : std::string(width - n, ' ') + s;
}

std::vector<std::size_t> write_heads(const std::vector<std::string>& names, std::ostream& out) {
  std::vector<std::size_t> width;
  std::string line, rule, head;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& n = names[i];
    if (i == 0) {
      width.push_back(std::max(kBaseWidth, width_of(n)));
      line += pad_left(n, width[0]);
      rule += std::string(width[0], '-');
      head += pad_left("  median %stddev", width[0]);
      continue;
    }
    const std::size_t slot = std::max(kNameSlot, width_of(n));
    width.push_back(kGroupWidth - kNameSlot + slot);
    line += " " + pad_left(n, slot) + std::string(kGroupWidth - 1 - kNameSlot, ' ');
    rule += " " + std::string(slot, '-') + " " + std::string(9, '-') + "  " + std::string(9, '-');
    head += pad_left(fmt::format("{:>12}{:>16}{:>10}  {:<9}", "%change", "median %stddev", "p", "verdict"), width[i]);
  }
  out << trim_right(line) << "\n" << rule << "\n" << trim_right(head) << "\n";
  return width;
}

}  // namespace rlab::results

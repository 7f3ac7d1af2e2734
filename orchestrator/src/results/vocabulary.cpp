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
  // Each name ends where its side's values end (the base's column, an other side's median ±
  // %stddev); a longer name reaches left into the blanks before it, and only where it would
  // touch the name before it is it moved right.
  auto place = [&](const std::string& n, std::size_t end) {
    const std::size_t w = width_of(n);
    std::size_t start = end >= w ? end - w : 0;
    const std::size_t used = width_of(line);
    if (used > 0 && start < used + 1) start = used + 1;
    line += std::string(start - used, ' ') + n;
  };
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i == 0) {
      width.push_back(kBaseWidth);
      place(names[0], kBaseWidth);
      rule += std::string(kBaseWidth, '-');
      head += pad_left("  median %stddev", kBaseWidth);
      continue;
    }
    width.push_back(kGroupWidth);
    place(names[i], kBaseWidth + (i - 1) * kGroupWidth + 1 + kNameSlot);
    rule += " " + std::string(kNameSlot, '-') + " " + std::string(9, '-') + "  " + std::string(9, '-');
    head += fmt::format("{:>12}{:>16}{:>10}  {:<9}", "%change", "median %stddev", "p", "verdict");
  }
  out << line << "\n" << rule << "\n" << trim_right(head) << "\n";
  return width;
}

}  // namespace rlab::results

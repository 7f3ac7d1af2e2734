#include "matrix/yaml_check.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>

namespace rlab::matrix::detail {
namespace {

const char* type_name(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "nothing (null)";
    default: return "an undefined node";
  }
}

/// An untagged plain scalar, or one tagged as a YAML number (`!!int 4`, `!!float 2.5`): not a
/// quoted or `!`-tagged string.
bool plain(const YAML::Node& n) {
  return n.IsScalar() && (n.Tag() == "?" || n.Tag() == "tag:yaml.org,2002:int" ||
                          n.Tag() == "tag:yaml.org,2002:float");
}

}  // namespace

Checker::Checker(std::filesystem::path file, std::string_view text) : file_(std::move(file)) {
  int line = 1;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n') continue;
    std::string_view l = text.substr(start, i - start);
    if (l.find_first_not_of(" \t\r") != std::string_view::npos) {
      last_line_ = line;
      last_line_end_ = static_cast<int>(l.find_last_not_of(" \t\r")) + 2;
    }
    ++line;
    start = i + 1;
  }
}

void Checker::fail(const YAML::Mark& m, const std::string& message) const {
  if (last_line_ > 0 && m.line + 1 > last_line_)  // past the end: the value left empty there
    throw MatrixError(file_, last_line_, last_line_end_, message);
  throw MatrixError(file_, m.line + 1, m.column + 1, message);
}

void Checker::fail(const YAML::Node& n, const std::string& message) const {
  fail(n.Mark(), message);
}

void Checker::check_map(const YAML::Node& n, const std::string& what,
                        std::initializer_list<const char*> allowed) const {
  if (!n.IsMap()) fail(n, what + ": expected a mapping, found " + type_name(n));
  std::set<std::string> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    const YAML::Node k = it->first;
    if (!k.IsScalar()) fail(k, what + ": keys must be plain names");
    const std::string key = k.Scalar();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      fail(k, what + ": unknown key '" + key + "' (allowed: " + list + ")");
    }
    if (!seen.insert(key).second) fail(k, what + ": duplicate key '" + key + "'");
  }
}

void Checker::check_list(const YAML::Node& n, const std::string& what) const {
  if (!n.IsSequence()) fail(n, what + ": expected a list, found " + type_name(n));
  if (n.size() == 0) fail(n, what + ": must not be empty");
}

YAML::Mark Checker::key_mark(const YAML::Node& parent, const char* key) const {
  for (auto it = parent.begin(); it != parent.end(); ++it)
    if (it->first.IsScalar() && it->first.Scalar() == key) return it->first.Mark();
  return parent.Mark();
}

YAML::Node Checker::required(const YAML::Node& parent, const std::string& what,
                             const char* key) const {
  YAML::Node n = parent[key];
  if (!n) fail(parent, what + ": missing key '" + key + "'");
  if (n.IsNull()) fail(key_mark(parent, key), what + "." + key + ": needs a value");
  return n;
}

std::string Checker::string(const YAML::Node& n, const std::string& what) const {
  if (!n.IsScalar()) fail(n, what + ": expected a string, found " + type_name(n));
  // A NUL would cut the string short wherever it becomes a path or an argument.
  if (n.Scalar().find('\0') != std::string::npos) fail(n, what + ": contains a NUL byte");
  return n.Scalar();
}

std::int64_t Checker::integer(const YAML::Node& n, const std::string& what, std::int64_t lo,
                              std::int64_t hi) const {
  if (!plain(n)) {
    fail(n, what + ": expected an integer, found " +
                (n.IsScalar() ? "the string \"" + n.Scalar() + "\"" : type_name(n)));
  }
  const std::string& s = n.Scalar();
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size())
    fail(n, what + ": " + s + " is out of range [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
  if (ec != std::errc() || p != s.data() + s.size())
    fail(n, what + ": expected an integer, found '" + s + "'");
  if (v < lo || v > hi)
    fail(n, what + ": " + s + " is out of range [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
  return v;
}

bool Checker::boolean(const YAML::Node& n, const std::string& what) const {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  if (n.Tag() == "!" || (s != "true" && s != "false")) fail(n, what + ": expected true or false");
  return s == "true";
}

double Checker::number(const YAML::Node& n, const std::string& what, double lo,
                       double hi) const {
  if (!plain(n)) {
    fail(n, what + ": expected a number, found " +
                (n.IsScalar() ? "the string \"" + n.Scalar() + "\"" : type_name(n)));
  }
  const std::string& s = n.Scalar();
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    fail(n, what + ": expected a number, found '" + s + "'");
  if (!(v > lo && v <= hi))
    fail(n, what + ": " + s + " is out of range (" + std::to_string(static_cast<long long>(lo)) +
                ", " + std::to_string(static_cast<long long>(hi)) + "]");
  return v;
}

std::vector<std::string> Checker::strings(const YAML::Node& n, const std::string& what) const {
  if (!n.IsSequence()) fail(n, what + ": expected a list, found " + type_name(n));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n.size(); ++i)
    out.push_back(string(n[i], what + "[" + std::to_string(i) + "]"));
  return out;
}

}  // namespace rlab::matrix::detail

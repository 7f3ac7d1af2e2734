#pragma once
// Typed, located access to yaml-cpp nodes: every failure is a MatrixError at the node's
// file:line:col. Internal to matrix/.
#include "matrix/matrix.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace rlab::matrix::detail {

/// Locates errors in one file.
class Checker {
 public:
  /// `text`: the document, so that positions past its end (an empty value at the end of the
  /// file, which yaml-cpp places after the last line) are reported on its last line.
  explicit Checker(std::filesystem::path file, std::string_view text = {});
  const std::filesystem::path& file() const { return file_; }

  /// Throws MatrixError at `n`'s position.
  [[noreturn]] void fail(const YAML::Node& n, const std::string& message) const;
  /// Throws MatrixError at a mark.
  [[noreturn]] void fail(const YAML::Mark& m, const std::string& message) const;

  /// Requires `n` to be a mapping whose keys are plain scalars from `allowed`, each at most
  /// once. `what` names the section in messages (e.g. "guest").
  void check_map(const YAML::Node& n, const std::string& what,
                 std::initializer_list<const char*> allowed) const;
  /// Requires `n` to be a non-empty sequence.
  void check_list(const YAML::Node& n, const std::string& what) const;
  /// `parent[key]`, which must be present and not null; else an error at `parent`.
  YAML::Node required(const YAML::Node& parent, const std::string& what, const char* key) const;

  std::string string(const YAML::Node& n, const std::string& what) const;
  /// A plain (unquoted) integer in [lo, hi].
  std::int64_t integer(const YAML::Node& n, const std::string& what, std::int64_t lo,
                       std::int64_t hi) const;
  /// A plain `true` or `false` (not quoted); else an error at `n` naming `what`.
  bool boolean(const YAML::Node& n, const std::string& what) const;
  /// A plain number in (lo, hi].
  double number(const YAML::Node& n, const std::string& what, double lo, double hi) const;
  /// A sequence of scalars (may be empty).
  std::vector<std::string> strings(const YAML::Node& n, const std::string& what) const;

  /// The position of the key `key` inside mapping `parent` (for errors about a key).
  YAML::Mark key_mark(const YAML::Node& parent, const char* key) const;

 private:
  std::filesystem::path file_;
  int last_line_ = 0;       ///< 1-based line of the last non-empty line; 0: unknown
  int last_line_end_ = 0;   ///< 1-based column just past its last character
};

}  // namespace rlab::matrix::detail

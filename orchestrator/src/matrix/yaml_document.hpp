#pragma once
// Reading a matrix file's text into one YAML document. Internal to matrix/.
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <string>

namespace rlab::matrix::detail {

/// Parses `text` as exactly one YAML document and returns its root (a null node for an empty
/// text). Throws MatrixError naming `file`:line:col on a syntax error, on nesting deeper than
/// yaml-cpp's depth guard, on a second document, and on input the parser cannot advance over
/// (yaml-cpp 0.7's LoadAll loops forever on a stray top-level ',': upstream issue
/// jbeder/yaml-cpp#1040, fixed after 0.8 by PR #1319, so LoadAll is not used here).
YAML::Node load_one_document(const std::string& text, const std::filesystem::path& file);

}  // namespace rlab::matrix::detail

#pragma once
// Small whole-file helpers for /proc, /sys and tracefs (no iostreams: they are read often).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rlab::agent {

/// The file's contents, or nullopt when it cannot be opened/read.
std::optional<std::string> read_file(const std::filesystem::path& path);

/// Writes `data` with one write(2) (what tracefs control files need). Returns false on error;
/// unless `quiet`, the error is also printed to stderr naming the path.
bool write_file(const std::filesystem::path& path, std::string_view data, bool append = false, bool quiet = false);

}  // namespace rlab::agent

#pragma once
// Per-cell scratch files: the sparse raw disk for the filesystem under test, the console tail.
#include <cstdint>
#include <filesystem>
#include <string>

namespace rlab::vm {

/// Creates (or truncates) `path` as a sparse raw disk of `size_bytes` (no blocks allocated).
/// Throws std::system_error naming the path on failure.
void create_sparse_disk(const std::filesystem::path& path, std::uint64_t size_bytes);

/// The last `lines` lines of the console log at `path` ("" when it does not exist), with
/// carriage returns dropped.
std::string console_tail(const std::filesystem::path& path, std::size_t lines = 40);

/// The reason of the first guest kernel panic in console text `console`: what follows
/// "Kernel panic - not syncing: " on its line (e.g. "sysrq triggered crash",
/// "Attempted to kill init! exitcode=0x0000008b"), "" when the text shows no panic.
std::string console_panic(const std::string& console);

}  // namespace rlab::vm

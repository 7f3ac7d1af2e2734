#pragma once
// Well-known locations.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rlab::util {

/// The artifact cache root: $RLAB_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/rlab.
/// Created on first use. Kernel builds, source trees and images live below it, keyed by
/// content (see build/artifact_cache.hpp).
std::filesystem::path cache_dir();

/// Where rlab keeps the state of things it started and must find again (the emulated KVM
/// host's pid, port and console): $RLAB_STATE_DIR, else ${XDG_STATE_HOME:-$HOME/.local/state}/rlab.
/// Created on first use.
std::filesystem::path state_dir();

/// The prefix an installed rlab lives under (`cmake --install build/host --prefix <p>`): <p>
/// when this executable is <p>/bin/<name> and <p>/share/rlab/matrix.yaml exists; nullopt for a
/// binary in a build tree (or when /proc/self/exe cannot be read).
std::optional<std::filesystem::path> installed_prefix();

/// Where rlab's data is (images/, matrix.yaml, matrices/): $RLAB_SOURCE_DIR when set, else
/// <prefix>/share/rlab of an installed rlab (installed_prefix), else the source tree this
/// binary was built from.
std::filesystem::path source_dir();

/// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string read_file(const std::filesystem::path& p);

/// Writes `data` to `p` atomically (temporary file in the same directory + rename): `p` is
/// either what it was or all of `data`. Throws std::runtime_error naming `p` and the cause
/// ("No space left on device") when the data cannot be written; the temporary is removed.
void write_file_atomic(const std::filesystem::path& p, std::string_view data);

}  // namespace rlab::util

#pragma once
// Well-known locations.
#include <filesystem>

namespace rlab::util {

/// The artifact cache root: $RLAB_CACHE_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/rlab.
/// Created on first use. Kernel builds, source trees and images live below it, keyed by
/// content (see build/artifact_cache.hpp).
std::filesystem::path cache_dir();

/// Where rlab keeps the state of things it started and must find again (the emulated KVM
/// host's pid, port and console): $RLAB_STATE_DIR, else ${XDG_STATE_HOME:-$HOME/.local/state}/rlab.
/// Created on first use.
std::filesystem::path state_dir();

/// The project's source tree (images/, matrix.yaml, docs/): $RLAB_SOURCE_DIR when set,
/// else the directory this binary was built from.
std::filesystem::path source_dir();

/// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string read_file(const std::filesystem::path& p);

/// Writes `data` to `p` atomically (temporary file in the same directory + rename): `p` is
/// either what it was or all of `data`. Throws std::runtime_error naming `p` and the cause
/// ("No space left on device") when the data cannot be written; the temporary is removed.
void write_file_atomic(const std::filesystem::path& p, std::string_view data);

}  // namespace rlab::util

#pragma once
// A kernel built elsewhere (matrix `source: {image: <arm64 Image>, config: <its .config>}`):
// the checks made before it is copied into the cache and booted. Nothing is built.
#include "build/kernel_config.hpp"
#include "build/kernel_spec.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace rlab::build {

/// Why `image` is not an uncompressed arm64 kernel Image, or "" when it is: the arm64 boot
/// header has the magic "ARM\x64" at byte 56. Names a missing or short file, a gzip-compressed
/// one (a distribution's vmlinuz: decompress it first) and an x86 bzImage.
std::string arm64_image_problem(const std::filesystem::path& image);

/// The kernel release in the Image's banner ("Linux version 6.12.57 (...)" -> "6.12.57"), ""
/// when the file holds no banner. Throws std::runtime_error when it cannot be read.
std::string image_release(const std::filesystem::path& image);

/// What a prebuilt kernel's .config says, against what rlab's guest needs.
struct PrebuiltConfigCheck {
  unsigned page_size_kib = 0;           ///< config_page_size_kib() of the .config; 0: none
  std::vector<ConfigMismatch> missing;  ///< missing_required() against required.config
};

/// Reads and checks `config` (a full .config). Throws std::runtime_error "path:line: ..." for a
/// line that is neither an option nor a comment, or naming a file that cannot be read.
PrebuiltConfigCheck check_prebuilt_config(const std::filesystem::path& config,
                                          const std::filesystem::path& images_dir);

/// Checks a kPrebuiltImage spec before anything is copied or booted: the Image's header, and
/// with a .config its page size (must equal spec.page_size_kib) and the options the guest needs
/// built in. Throws std::runtime_error "kernel <name>: ..." naming every problem (both page
/// sizes; each missing option with its value and required.config line).
void check_prebuilt(const KernelSpec& spec, const std::filesystem::path& images_dir);

}  // namespace rlab::build

#include "build/prebuilt_kernel.hpp"

#include "util/paths.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>

namespace rlab::build {
namespace fs = std::filesystem;

std::string arm64_image_problem(const fs::path& image) {
  std::ifstream in(image, std::ios::binary);
  if (!in) return image.string() + " cannot be read";
  char head[0x240] = {};
  in.read(head, sizeof head);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
    return image.string() + " is gzip-compressed (a vmlinuz?): give the uncompressed Image (zcat it into a file)";
  if (got >= 0x206 && std::string_view(head + 0x202, 4) == "HdrS")
    return image.string() + " is an x86 bzImage, not an arm64 Image";
  if (got < 64) return image.string() + " is too short to be an arm64 Image (" + std::to_string(got) + " bytes)";
  if (std::string_view(head + 56, 4) != std::string_view("ARM\x64", 4))
    return image.string() + " is not an arm64 kernel Image (no \"ARM\\x64\" magic at byte 56)";
  return "";
}

std::string image_release(const fs::path& image) {
  const std::string bytes = util::read_file(image);
  constexpr std::string_view kBanner = "Linux version ";
  for (auto at = bytes.find(kBanner); at != std::string::npos; at = bytes.find(kBanner, at + 1)) {
    const auto start = at + kBanner.size();
    auto end = start;
    while (end < bytes.size() && bytes[end] > ' ' && bytes[end] < 0x7f) ++end;
    // The banner proper: "Linux version 6.12.57 (builder@host) (gcc ...) #1 SMP ...", not a
    // format string ("Linux version %s").
    if (end > start && end < bytes.size() && bytes[end] == ' ' && bytes[start] != '%' &&
        std::isdigit(static_cast<unsigned char>(bytes[start])))
      return bytes.substr(start, end - start);
  }
  return "";
}

PrebuiltConfigCheck check_prebuilt_config(const fs::path& config, const fs::path& images_dir) {
  const auto parsed = parse_fragment(util::read_file(config), config);
  std::map<std::string, std::string> cfg;
  for (const auto& o : parsed) cfg[o.name] = o.value;
  PrebuiltConfigCheck c;
  c.page_size_kib = config_page_size_kib(cfg);
  c.missing = missing_required(cfg, required_options(images_dir));
  return c;
}

void check_prebuilt(const KernelSpec& spec, const fs::path& images_dir) {
  std::vector<std::string> problems;
  if (auto p = arm64_image_problem(spec.source.image); !p.empty()) problems.push_back(p);
  if (!spec.source.image_config.empty()) {
    const auto c = check_prebuilt_config(spec.source.image_config, images_dir);
    const std::string cfg = spec.source.image_config.string();
    if (c.page_size_kib == 0)
      problems.push_back(cfg + " selects no arm64 page size (CONFIG_ARM64_{4K,16K,64K}_PAGES): not an arm64 .config");
    else if (c.page_size_kib != spec.page_size_kib)
      problems.push_back(fmt::format("page_size is {}k but {} builds {}K pages (CONFIG_ARM64_{}K_PAGES=y)",
                                     spec.page_size_kib, cfg, c.page_size_kib, c.page_size_kib));
    if (!c.missing.empty())
      problems.push_back(fmt::format("{} lacks {} option(s) rlab's guest needs built in (no module is loaded): {}",
                                     cfg, c.missing.size(), describe_missing(c.missing)));
  }
  if (problems.empty()) return;
  std::string msg = "kernel " + spec.name + ": ";
  for (std::size_t i = 0; i < problems.size(); ++i) msg += (i ? "; " : "") + problems[i];
  throw std::runtime_error(msg);
}

}  // namespace rlab::build

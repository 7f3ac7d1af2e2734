// A kernel configured from a given full .config (matrix `config:`), built from Debian's
// linux-source-6.12: rlab merges required.config and the page size over it, and every option
// it changed is printed during the build and kept in the cache entry's config-changes.txt.
//
// The given .config is, by default, the default matrix's own final 6.12 .config with the
// choices a distribution makes where rlab's guest needs otherwise (Debian's arm64 config:
// XFS, ext4, the virtio disk and the RAM disk as modules, 4K pages, and here no BPF probe
// events): configuring from it gives back exactly rlab's .config, so the build is ccache's.
// RLAB_FULL_CONFIG=<a .config> (e.g. Debian's /boot/config-6.12.*-arm64 from the
// linux-image-*-arm64-unsigned package) builds from that instead, without DWARF debug info;
// a distribution's built-in code makes that build hours long on 2 cores.
#include "build/kernel_build.hpp"
#include "build/kernel_config.hpp"
#include "matrix/matrix.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

// `text` with each (from, to) whole line replaced; fails the test when a line is not there.
std::string replace_lines(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const auto at = text.find("\n" + from + "\n");
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at + 1, from.size(), to);
  }
  return text;
}

TEST(RealFullConfigKernel, EveryChangeIsPrintedAndStored) {
  const auto m = matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  const KernelSpec own = m.kernels.at("6.12");
  const KernelArtifact lab = ensure_kernel(own);
  ASSERT_FALSE(lab.config.empty());
  const fs::path dir = fs::temp_directory_path() / ("rlab-full-config-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  KernelSpec spec = own;
  spec.name = "6.12-full-config";
  const char* given_env = std::getenv("RLAB_FULL_CONFIG");
  const bool distro = given_env && *given_env;
  if (distro) {
    fs::copy_file(given_env, dir / "given.config");
    std::ofstream(dir / "no-debug-info.config") << "CONFIG_DEBUG_INFO_NONE=y\n";
    spec.fragments = {dir / "no-debug-info.config"};
  } else {
    std::ofstream(dir / "given.config") << replace_lines(
        util::read_file(lab.config), {{"CONFIG_XFS_FS=y", "CONFIG_XFS_FS=m"},
                                      {"CONFIG_EXT4_FS=y", "CONFIG_EXT4_FS=m"},
                                      {"CONFIG_VIRTIO_BLK=y", "CONFIG_VIRTIO_BLK=m"},
                                      {"CONFIG_BLK_DEV_RAM=y", "CONFIG_BLK_DEV_RAM=m"},
                                      {"CONFIG_BPF_EVENTS=y", "# CONFIG_BPF_EVENTS is not set"},
                                      {"CONFIG_ARM64_64K_PAGES=y", "# CONFIG_ARM64_64K_PAGES is not set"},
                                      {"# CONFIG_ARM64_4K_PAGES is not set", "CONFIG_ARM64_4K_PAGES=y"}});
  }
  spec.base_config = dir / "given.config";

  std::mutex mu;
  std::string printed;
  const Progress progress = [&](std::string_view phase, std::string_view detail) {
    std::lock_guard<std::mutex> l(mu);
    if (phase == "config") printed += std::string(detail) + "\n";
  };
  const KernelArtifact k = ensure_kernel(spec, progress);
  EXPECT_NE(k.key, lab.key) << "the .config is part of the key";
  ASSERT_FALSE(k.config_changes.empty());
  const std::string stored = util::read_file(k.config_changes);
  const auto manifest = nlohmann::json::parse(util::read_file(k.image.parent_path() / "manifest.json"));
  EXPECT_EQ(manifest["base_config"]["sha256"], util::sha256_hex(util::read_file(spec.base_config)));
  EXPECT_NE(k.origin.find("debian linux-source-6.12 "), std::string::npos) << k.origin;
  EXPECT_NE(k.origin.find(", from .config sha256:" + util::sha256_hex(util::read_file(spec.base_config))),
            std::string::npos) << k.origin;
  const auto final_config = parse_dot_config(util::read_file(k.config));
  EXPECT_EQ(final_config.at("CONFIG_ARM64_64K_PAGES"), "y");
  EXPECT_EQ(final_config.at("CONFIG_XFS_FS"), "y");
  EXPECT_TRUE(missing_required(final_config, required_options(images_dir())).empty());
  if (!k.cache_hit) {  // printed only when configured now
    for (std::size_t at = 0, nl; (nl = stored.find('\n', at)) != std::string::npos; at = nl + 1)
      EXPECT_NE(printed.find("  " + stored.substr(at, nl - at) + "\n"), std::string::npos) << stored.substr(at, nl - at);
  }
  if (distro) {
    EXPECT_GT(std::count(stored.begin(), stored.end(), '\n'), 0) << stored;
  } else {
    const std::string req = "required.config:", pages = "64k.config:";
    for (const char* opt : {"CONFIG_XFS_FS m -> y (", "CONFIG_EXT4_FS m -> y (", "CONFIG_VIRTIO_BLK m -> y (",
                            "CONFIG_BLK_DEV_RAM m -> y (", "CONFIG_BPF_EVENTS n -> y ("})
      EXPECT_NE(stored.find(opt + req), std::string::npos) << opt << "\n" << stored;
    EXPECT_NE(stored.find("CONFIG_ARM64_64K_PAGES n -> y (" + pages), std::string::npos) << stored;
    EXPECT_NE(stored.find("CONFIG_ARM64_4K_PAGES y -> n (" + pages), std::string::npos) << stored;
    EXPECT_EQ(std::count(stored.begin(), stored.end(), '\n'), 7) << "nothing else changed:\n" << stored;
    EXPECT_EQ(k.config_sha256, lab.config_sha256) << "the distribution's choices undone give rlab's own .config";
  }

  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(120);
  auto list = util::run(testing::rlab_argv({"images", "list"}), o);
  EXPECT_NE(list.output.find(fmt::format("6.12-full-config {} (debian {}, .config sha256:{} ({} changed), 64K pages)",
                                         k.release, k.source_commit,
                                         util::sha256_hex(util::read_file(spec.base_config)).substr(0, 12),
                                         std::count(stored.begin(), stored.end(), '\n'))),
            std::string::npos) << list.output;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rlab::build

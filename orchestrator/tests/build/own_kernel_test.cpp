// Bringing one's own kernel: the options the guest needs (required.config), a .config's page
// size and missing options, what configuring from a full .config changed, the checks of a
// prebuilt Image and its copy into the cache (nothing built).
#include "build/artifact_cache.hpp"
#include "build/kernel_build.hpp"
#include "build/kernel_config.hpp"
#include "build/prebuilt_kernel.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <set>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

// A temporary directory, removed at the end.
struct TempDir {
  fs::path dir = fs::temp_directory_path() / ("rlab-own-kernel-" + std::to_string(::getpid()) + "-" +
                                              ::testing::UnitTest::GetInstance()->current_test_info()->name());
  TempDir() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
    return dir / name;
  }
};

// The bytes of a minimal uncompressed arm64 Image: the boot header's magic at byte 56 and a
// banner further on.
std::string fake_image(const std::string& release) {
  std::string s(4096, '\0');
  s.replace(56, 4, std::string("ARM\x64", 4));
  const std::string decoy = "Linux version %s (%s)";
  s.replace(1000, decoy.size(), decoy);
  const std::string banner = "Linux version " + release + " (rlab@rlab) (gcc 14) #1 SMP";
  s.replace(2000, banner.size(), banner);
  return s;
}

// A .config with every required option built in, at `kib` pages, plus `extra` lines.
std::string good_config(unsigned kib, const std::string& extra = "") {
  std::string t = "# Linux/arm64 6.12.57 Kernel Configuration\n";
  for (const auto& o : required_options(images_dir())) t += o.name + "=" + o.value + "\n";
  for (unsigned k : {4u, 16u, 64u})
    t += k == kib ? "CONFIG_ARM64_" + std::to_string(k) + "K_PAGES=y\n"
                  : "# CONFIG_ARM64_" + std::to_string(k) + "K_PAGES is not set\n";
  return t + extra;
}

TEST(RequiredConfig, IsAllBuiltInAndNotRepeatedInBase) {
  const auto req = required_options(images_dir());
  ASSERT_GT(req.size(), 20u);
  std::set<std::string> names;
  for (const auto& o : req) {
    EXPECT_EQ(o.value, "y") << o.name << ": the guest loads no module, so required means built in";
    names.insert(o.name);
  }
  for (const char* must : {"CONFIG_VIRTIO_PCI", "CONFIG_VIRTIO_BLK", "CONFIG_VIRTIO_CONSOLE", "CONFIG_XFS_FS",
                           "CONFIG_EXT4_FS", "CONFIG_BPF_SYSCALL", "CONFIG_BPF_EVENTS", "CONFIG_HIST_TRIGGERS",
                           "CONFIG_DEVTMPFS", "CONFIG_BLK_DEV_INITRD", "CONFIG_PERF_EVENTS", "CONFIG_KALLSYMS"})
    EXPECT_TRUE(names.count(must)) << must;
  for (const auto& o : read_fragment(images_dir() / "kernel/base.config"))
    EXPECT_FALSE(names.count(o.name)) << o.name << " is in both required.config and base.config:" << o.line;
}

TEST(RequiredConfig, ComesFirstAndAFullConfigSkipsBase) {
  KernelSpec spec;
  spec.name = "k";
  spec.page_size_kib = 16;
  auto own = fragment_paths(spec, images_dir());
  ASSERT_EQ(own.size(), 3u);
  EXPECT_EQ(own[0].filename(), "required.config");
  EXPECT_EQ(own[1].filename(), "base.config");
  EXPECT_EQ(own[2].filename(), "16k.config");
  TempDir t;
  spec.base_config = t.write("full.config", good_config(4));
  spec.fragments = {t.write("extra.config", "CONFIG_LOCKDEP_SUPPORT=y\n")};
  auto full = fragment_paths(spec, images_dir());
  ASSERT_EQ(full.size(), 3u);
  EXPECT_EQ(full[0].filename(), "required.config");
  EXPECT_EQ(full[1].filename(), "16k.config");
  EXPECT_EQ(full[2].filename(), "extra.config");
}

TEST(ConfigPageSize, FromTheArm64PagesOption) {
  EXPECT_EQ(config_page_size_kib({{"CONFIG_ARM64_64K_PAGES", "y"}, {"CONFIG_ARM64_4K_PAGES", "n"}}), 64u);
  EXPECT_EQ(config_page_size_kib({{"CONFIG_ARM64_16K_PAGES", "y"}}), 16u);
  EXPECT_EQ(config_page_size_kib({{"CONFIG_ARM64_4K_PAGES", "y"}}), 4u);
  EXPECT_EQ(config_page_size_kib({{"CONFIG_X86_64", "y"}}), 0u) << "not an arm64 .config";
  EXPECT_EQ(config_page_size_kib({{"CONFIG_ARM64_4K_PAGES", "y"}, {"CONFIG_ARM64_64K_PAGES", "y"}}), 0u);
}

TEST(MissingRequired, NamesEachOptionModulesIncluded) {
  auto cfg = parse_dot_config(good_config(64));
  EXPECT_TRUE(missing_required(cfg, required_options(images_dir())).empty());
  cfg["CONFIG_XFS_FS"] = "m";
  cfg.erase("CONFIG_VIRTIO_BLK");
  cfg["CONFIG_BPF_SYSCALL"] = "n";
  const auto missing = missing_required(cfg, required_options(images_dir()));
  ASSERT_EQ(missing.size(), 3u);
  const std::string text = describe_missing(missing);
  EXPECT_NE(text.find("CONFIG_XFS_FS is =m, needs =y (required.config:"), std::string::npos) << text;
  EXPECT_NE(text.find("CONFIG_VIRTIO_BLK is not set, needs =y"), std::string::npos) << text;
  EXPECT_NE(text.find("CONFIG_BPF_SYSCALL is not set"), std::string::npos) << text;
}

TEST(ConfigChanges, EveryDifferenceWithWhoAskedForIt) {
  TempDir t;
  const auto frag = t.write("req.config", "# comment\nCONFIG_XFS_FS=y\nCONFIG_ARM64_64K_PAGES=y\n");
  const auto given = parse_dot_config(
      "CONFIG_XFS_FS=m\nCONFIG_ARM64_4K_PAGES=y\n# CONFIG_ARM64_64K_PAGES is not set\nCONFIG_DEBUG_INFO_BTF=y\n"
      "CONFIG_SAME=y\nCONFIG_NAME=\"debian\"\n");
  const auto final_config = parse_dot_config(
      "CONFIG_XFS_FS=y\nCONFIG_ARM64_64K_PAGES=y\nCONFIG_SAME=y\nCONFIG_NAME=\"debian\"\nCONFIG_NEW=y\n"
      "CONFIG_PGTABLE_LEVELS=3\n");
  const auto changes = config_changes(given, final_config, read_fragment(frag));
  std::vector<std::string> lines;
  for (const auto& c : changes) lines.push_back(format_change(c));
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "CONFIG_ARM64_4K_PAGES y -> n (olddefconfig)",
                       "CONFIG_ARM64_64K_PAGES n -> y (req.config:3)",
                       "CONFIG_DEBUG_INFO_BTF y -> n (olddefconfig)",
                       "CONFIG_NEW n -> y (olddefconfig)",
                       "CONFIG_PGTABLE_LEVELS n -> 3 (olddefconfig)",
                       "CONFIG_XFS_FS m -> y (req.config:2)",
                   }));
}

TEST(PrebuiltImage, HeaderChecks) {
  TempDir t;
  EXPECT_EQ(arm64_image_problem(t.write("Image", fake_image("6.12.57"))), "");
  EXPECT_NE(arm64_image_problem(t.write("vmlinuz", std::string("\x1f\x8b\x08\0", 4) + std::string(100, 'x')))
                .find("gzip-compressed"), std::string::npos);
  std::string bz(1024, '\0');
  bz.replace(0x202, 4, "HdrS");
  EXPECT_NE(arm64_image_problem(t.write("bzImage", bz)).find("x86 bzImage"), std::string::npos);
  EXPECT_NE(arm64_image_problem(t.write("short", "ARM")).find("too short"), std::string::npos);
  EXPECT_NE(arm64_image_problem(t.write("zeros", std::string(4096, '\0'))).find("not an arm64 kernel Image"),
            std::string::npos);
  EXPECT_NE(arm64_image_problem(t.dir / "absent").find("cannot be read"), std::string::npos);
}

TEST(PrebuiltImage, ReleaseFromTheBanner) {
  TempDir t;
  EXPECT_EQ(image_release(t.write("Image", fake_image("6.12.57-rlab+"))), "6.12.57-rlab+");
  EXPECT_EQ(image_release(t.write("none", std::string(4096, 'x'))), "");
}

TEST(PrebuiltImage, CheckNamesBothPageSizesAndEveryMissingOption) {
  TempDir t;
  KernelSpec spec;
  spec.name = "mine";
  spec.source.kind = KernelSource::Kind::kPrebuiltImage;
  spec.source.image = t.write("Image", fake_image("6.12.57"));
  spec.source.image_config = t.write("config", good_config(64));
  spec.page_size_kib = 64;
  EXPECT_NO_THROW(check_prebuilt(spec, images_dir()));
  spec.page_size_kib = 4;
  try {
    check_prebuilt(spec, images_dir());
    FAIL() << "4k accepted for a 64K .config";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel mine: page_size is 4k but " + spec.source.image_config.string() +
                                         " builds 64K pages (CONFIG_ARM64_64K_PAGES=y)"),
              std::string::npos) << e.what();
  }
  spec.page_size_kib = 64;
  spec.source.image_config = t.write("modular", good_config(64) + "CONFIG_XFS_FS=m\nCONFIG_VIRTIO_BLK=m\n");
  try {
    check_prebuilt(spec, images_dir());
    FAIL() << "a modular XFS accepted";
  } catch (const std::runtime_error& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("lacks 2 option(s) rlab's guest needs built in"), std::string::npos) << w;
    EXPECT_NE(w.find("CONFIG_XFS_FS is =m"), std::string::npos) << w;
    EXPECT_NE(w.find("CONFIG_VIRTIO_BLK is =m"), std::string::npos) << w;
  }
  spec.source.image_config.clear();  // without a .config the page size is trusted
  spec.page_size_kib = 4;
  EXPECT_NO_THROW(check_prebuilt(spec, images_dir()));
}

TEST(PrebuiltImage, KeyFromTheFilesHashes) {
  const std::string a(64, 'a'), b(64, 'b');
  EXPECT_EQ(prebuilt_kernel_key(a, b, 64), prebuilt_kernel_key(a, b, 64));
  EXPECT_NE(prebuilt_kernel_key(a, b, 64), prebuilt_kernel_key(a, "", 64));
  EXPECT_NE(prebuilt_kernel_key(a, b, 64), prebuilt_kernel_key(b, b, 64));
  EXPECT_NE(prebuilt_kernel_key(a, b, 64), prebuilt_kernel_key(a, b, 4));
  KernelKeyInputs in;
  in.source_commit = a;
  const std::string own = kernel_key(in);
  in.base_config = "CONFIG_XFS_FS=y\n";
  EXPECT_NE(kernel_key(in), own) << "a full .config is part of the key";
}

// ensure_kernel() copies a prebuilt Image into a private cache, keyed by its hashes; the second
// time it is a hit, and the manifest says where it came from.
TEST(PrebuiltImage, CopiedIntoTheCacheNotBuilt) {
  TempDir t;
  const auto cache = t.dir / "cache";
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);
  KernelSpec spec;
  spec.name = "mine";
  spec.source.kind = KernelSource::Kind::kPrebuiltImage;
  spec.source.image = t.write("Image", fake_image("6.12.57"));
  spec.source.image_config = t.write("config", good_config(16));
  spec.page_size_kib = 16;
  const auto a = ensure_kernel(spec);
  const auto b = ensure_kernel(spec);
  ::unsetenv("RLAB_CACHE_DIR");
  const std::string image_sha = util::sha256_hex(fake_image("6.12.57"));
  const std::string config_sha = util::sha256_hex(good_config(16));
  EXPECT_EQ(a.key, prebuilt_kernel_key(image_sha, config_sha, 16));
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.image, cache / "kernels" / a.key / "Image");
  EXPECT_EQ(util::read_file(a.image), fake_image("6.12.57"));
  EXPECT_EQ(a.config, cache / "kernels" / a.key / "config");
  EXPECT_EQ(a.release, "6.12.57");
  EXPECT_EQ(a.source_commit, "sha256:" + image_sha);
  EXPECT_EQ(a.config_sha256, config_sha);
  EXPECT_EQ(a.page_size_kib, 16u);
  EXPECT_EQ(a.origin, "prebuilt Image sha256:" + image_sha + " (" + spec.source.image.string() +
                          "), .config sha256:" + config_sha);
  EXPECT_FALSE(fs::exists(cache / "kbuild")) << "nothing is built";
  const auto m = nlohmann::json::parse(util::read_file(cache / "kernels" / a.key / "manifest.json"));
  EXPECT_EQ(m["prebuilt"]["image_sha256"], image_sha);
  EXPECT_EQ(m["source_identity"], "image:" + spec.source.image.string());

  spec.source.image_config.clear();  // without a .config: another entry, no config file
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);
  const auto c = ensure_kernel(spec);
  ::unsetenv("RLAB_CACHE_DIR");
  EXPECT_NE(c.key, a.key);
  EXPECT_TRUE(c.config.empty());
  EXPECT_EQ(c.config_sha256, "");
}

TEST(PrebuiltImage, RefusedBeforeAnythingIsCopied) {
  TempDir t;
  const auto cache = t.dir / "cache";
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);
  KernelSpec spec;
  spec.name = "mine";
  spec.source.kind = KernelSource::Kind::kPrebuiltImage;
  spec.source.image = t.write("Image", fake_image("6.12.57"));
  spec.source.image_config = t.write("config", good_config(64, "# CONFIG_BPF_EVENTS is not set\n"));
  std::string error;
  try {
    ensure_kernel(spec);
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  ::unsetenv("RLAB_CACHE_DIR");
  EXPECT_NE(error.find("CONFIG_BPF_EVENTS is not set, needs =y"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(cache / "kernels"));
}

TEST(KernelOrigin, SaysWhereEachKindCameFrom) {
  TempDir t;
  KernelSpec deb;
  deb.source.debian_version = "6.12";
  deb.source.debian_suite = "trixie";
  EXPECT_EQ(kernel_origin(deb, "6.12.117-1"), "debian linux-source-6.12 6.12.117-1 (trixie)");
  KernelSpec git;
  git.source.kind = KernelSource::Kind::kGitTree;
  git.source.git_tree = "/src/linux";
  git.base_config = t.write("full.config", "CONFIG_XFS_FS=m\n");
  EXPECT_EQ(kernel_origin(git, "abc123"), "git /src/linux abc123, from .config sha256:" +
                                              util::sha256_hex("CONFIG_XFS_FS=m\n") + " (" +
                                              git.base_config.string() + ")");
}

}  // namespace
}  // namespace rlab::build

// The shipped config fragments and the survival check (options dropped by olddefconfig).
#include "build/kernel_build.hpp"
#include "build/kernel_config.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace rlab::build {
namespace {

const std::filesystem::path kImages = std::filesystem::path(RLAB_SOURCE_DIR) / "images";

std::map<std::string, std::string> as_map(const std::vector<ConfigOption>& opts) {
  std::map<std::string, std::string> m;
  for (const auto& o : opts) m[o.name] = o.value;
  return m;
}

TEST(Fragments, RequiredAndBaseAskForTheLabsPlatformAndObservability) {
  // rlab's own kernels get both: required.config (what any guest kernel needs), then base.config.
  auto base = as_map(read_fragment(kImages / "kernel/required.config"));
  for (const auto& [name, value] : as_map(read_fragment(kImages / "kernel/base.config"))) base[name] = value;
  for (const char* name :
       {"CONFIG_PCI_HOST_GENERIC", "CONFIG_SERIAL_AMBA_PL011", "CONFIG_SERIAL_AMBA_PL011_CONSOLE",
        "CONFIG_VIRTIO_PCI", "CONFIG_VIRTIO_MMIO", "CONFIG_VIRTIO_BLK", "CONFIG_VIRTIO_CONSOLE",
        "CONFIG_HW_RANDOM_VIRTIO", "CONFIG_DEVTMPFS", "CONFIG_TMPFS", "CONFIG_XFS_FS",
        "CONFIG_EXT4_FS", "CONFIG_FTRACE", "CONFIG_EVENT_TRACING", "CONFIG_HIST_TRIGGERS",
        "CONFIG_SCHEDSTATS", "CONFIG_IKCONFIG", "CONFIG_IKCONFIG_PROC", "CONFIG_BLK_DEV_INITRD",
        "CONFIG_RD_ZSTD", "CONFIG_BINFMT_SCRIPT", "CONFIG_KALLSYMS", "CONFIG_PERF_EVENTS",
        "CONFIG_BPF_SYSCALL", "CONFIG_BPF_EVENTS", "CONFIG_BPF_JIT"})
    EXPECT_EQ(base[name], "y") << name;
  // The BPF JIT needs the module loader before 6.10; the image itself builds no module.
  EXPECT_EQ(base["CONFIG_MODULES"], "y");
}

TEST(Fragments, EachPageSizeFragmentSelectsExactlyItsPageSize) {
  for (unsigned kib : {4u, 16u, 64u}) {
    auto opts = as_map(read_fragment(kImages / "kernel" / (std::to_string(kib) + "k.config")));
    for (unsigned other : {4u, 16u, 64u}) {
      std::string name = "CONFIG_ARM64_" + std::to_string(other) + "K_PAGES";
      EXPECT_EQ(opts[name], other == kib ? "y" : "n") << kib << "k.config: " << name;
    }
  }
}

TEST(Fragments, PathsAreRequiredThenBaseThenPageSizeThenExtras) {
  KernelSpec spec;
  spec.name = "t";
  spec.page_size_kib = 16;
  spec.fragments = {kImages / "kernel/4k.config"};
  auto paths = fragment_paths(spec, kImages);
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(paths[0].filename(), "required.config");
  EXPECT_EQ(paths[1].filename(), "base.config");
  EXPECT_EQ(paths[2].filename(), "16k.config");
  EXPECT_EQ(paths[3], kImages / "kernel/4k.config");
}

TEST(Fragments, UnsupportedPageSizeAndMissingFragmentAreErrors) {
  KernelSpec spec;
  spec.name = "odd";
  spec.page_size_kib = 8;
  EXPECT_THROW(fragment_paths(spec, kImages), std::invalid_argument);
  spec.page_size_kib = 64;
  spec.fragments = {"/nonexistent/extra.config"};
  try {
    fragment_paths(spec, kImages);
    FAIL() << "missing fragment accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/extra.config"), std::string::npos) << e.what();
  }
}

TEST(Fragments, MalformedLineNamesFileAndLine) {
  try {
    parse_fragment("CONFIG_A=y\n\nXFS please\n", "frag.config");
    FAIL() << "accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("frag.config:3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_fragment("CONFIG_A=\n", "f"), std::runtime_error);
}

TEST(Fragments, ParsesValuesAndNotSet) {
  auto opts = parse_fragment("# comment\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x y\"\nCONFIG_D=42\n", "f");
  ASSERT_EQ(opts.size(), 4u);
  EXPECT_EQ(opts[1].name, "CONFIG_B");
  EXPECT_EQ(opts[1].value, "n");
  EXPECT_EQ(opts[1].line, 3);
  EXPECT_EQ(opts[2].value, "\"x y\"");
  EXPECT_EQ(opts[3].value, "42");
}

TEST(SurvivalCheck, DroppedOptionIsReportedWithItsFragment) {
  auto requested = parse_fragment("CONFIG_ARM64_64K_PAGES=y\nCONFIG_XFS_FS=y\n# CONFIG_MODULES is not set\n", "64k.config");
  auto final_cfg = parse_dot_config("CONFIG_ARM64_4K_PAGES=y\n# CONFIG_ARM64_64K_PAGES is not set\nCONFIG_XFS_FS=y\n");
  auto mismatches = check_config(requested, final_cfg);
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].requested.name, "CONFIG_ARM64_64K_PAGES");
  EXPECT_EQ(mismatches[0].actual, "n");
  try {
    throw_if_mismatched(mismatches);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("CONFIG_ARM64_64K_PAGES=y (64k.config:1) is not set"), std::string::npos) << what;
    EXPECT_EQ(e.mismatches.size(), 1u);
  }
}

TEST(SurvivalCheck, WrongValueAndLaterFragmentWins) {
  auto requested = parse_fragment("CONFIG_NR_CPUS=64\nCONFIG_HZ_100=y\n", "a");
  auto later = parse_fragment("CONFIG_NR_CPUS=256\n", "b");
  requested.insert(requested.end(), later.begin(), later.end());
  auto mismatches = check_config(requested, {{"CONFIG_NR_CPUS", "256"}, {"CONFIG_HZ_100", "y"}});
  EXPECT_TRUE(mismatches.empty());
  mismatches = check_config(requested, {{"CONFIG_NR_CPUS", "64"}, {"CONFIG_HZ_100", "y"}});
  ASSERT_EQ(mismatches.size(), 1u);
  EXPECT_EQ(mismatches[0].requested.fragment, "b");
  EXPECT_EQ(mismatches[0].actual, "64");
  EXPECT_NO_THROW(throw_if_mismatched({}));
}

}  // namespace
}  // namespace rlab::build

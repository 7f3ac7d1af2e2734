// Matrix entries of one's own kernel: `source: {image:, config:}` (a prebuilt Image) and an
// entry's full `config:`, and the errors (file:line:col) of each.
#include "build/kernel_build.hpp"
#include "build/kernel_config.hpp"
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace {
namespace fs = std::filesystem;
using rlab::build::KernelSource;

class OwnKernel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-own-matrix-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::string image(4096, '\0');
    image.replace(56, 4, std::string("ARM\x64", 4));
    write("Image", image);
    write("config64", config(64));
    write("config4", config(4));
    write("modular", config(64, "CONFIG_XFS_FS=m\nCONFIG_VIRTIO_BLK=m\n# CONFIG_BPF_EVENTS is not set\n"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string config(unsigned kib, const std::string& extra = "") {
    std::string t;
    for (const auto& o : rlab::build::required_options(rlab::build::images_dir())) t += o.name + "=y\n";
    t += "CONFIG_ARM64_" + std::to_string(kib) + "K_PAGES=y\n";
    return t + extra;
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  // A matrix whose `kernels:` holds `kernels` (indented entries) and whose axis is "mine".
  rlab::matrix::Matrix load(const std::string& kernels) const {
    const std::string text = "kernels:\n" + kernels +
                             "axes:\n  kernel: [mine]\n  vcpus: [1]\n  filesystem: [{fs: xfs}]\n"
                             "  workload: [{type: shell1}]\nseed: 1\n";
    write("matrix.yaml", text);
    return rlab::matrix::load_matrix(dir_ / "matrix.yaml");
  }
  // The MatrixError of loading `kernels`; fails the test when it loads.
  rlab::matrix::MatrixError error(const std::string& kernels) const {
    try {
      load(kernels);
    } catch (const rlab::matrix::MatrixError& e) {
      return e;
    }
    ADD_FAILURE() << "loaded:\n" << kernels;
    return rlab::matrix::MatrixError("", 0, 0, "");
  }
  fs::path dir_;
};

TEST_F(OwnKernel, PrebuiltImageTakesItsPageSizeFromItsConfig) {
  const auto m = load("  mine:\n    source: {image: Image, config: config4}\n");
  const auto& k = m.kernels.at("mine");
  EXPECT_EQ(k.source.kind, KernelSource::Kind::kPrebuiltImage);
  EXPECT_EQ(k.source.image, dir_ / "Image");
  EXPECT_EQ(k.source.image_config, dir_ / "config4");
  EXPECT_EQ(k.page_size_kib, 4u);
  EXPECT_EQ(rlab::matrix::expand_cells(m).at(0).page_size, 4096u);
}

TEST_F(OwnKernel, PrebuiltImageWithoutConfigTrustsPageSize) {
  const auto m = load("  mine:\n    source: {image: Image}\n    page_size: 16k\n");
  EXPECT_EQ(m.kernels.at("mine").page_size_kib, 16u);
  EXPECT_TRUE(m.kernels.at("mine").source.image_config.empty());
}

TEST_F(OwnKernel, PageSizeDisagreeingWithTheConfigNamesBoth) {
  const auto e = error("  mine:\n    source: {image: Image, config: config64}\n    page_size: 4k\n");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.col, 16);
  EXPECT_NE(e.message.find("kernels.mine.page_size: 4k, but " + (dir_ / "config64").string() +
                           " builds 64K pages (CONFIG_ARM64_64K_PAGES=y)"),
            std::string::npos) << e.what();
}

TEST_F(OwnKernel, MissingOptionsAreNamedAtTheConfig) {
  const auto e = error("  mine:\n    source: {image: Image, config: modular}\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.col, 36);
  EXPECT_NE(e.message.find("lacks 3 option(s) rlab's guest needs built in"), std::string::npos) << e.what();
  for (const char* o : {"CONFIG_XFS_FS is =m", "CONFIG_VIRTIO_BLK is =m", "CONFIG_BPF_EVENTS is not set"})
    EXPECT_NE(e.message.find(o), std::string::npos) << o << ": " << e.what();
}

TEST_F(OwnKernel, NotAnArm64Image) {
  write("vmlinuz", std::string("\x1f\x8b\x08\0", 4) + std::string(200, 'z'));
  const auto e = error("  mine:\n    source: {image: vmlinuz}\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.col, 21);
  EXPECT_NE(e.message.find("gzip-compressed"), std::string::npos) << e.what();
}

TEST_F(OwnKernel, PrebuiltImageTakesNothingToBuild) {
  EXPECT_NE(error("  mine:\n    source: {image: Image}\n    fragments: [config4]\n").message.find("takes no fragments"),
            std::string::npos);
  EXPECT_NE(error("  mine:\n    source: {image: Image}\n    config: config4\n").message.find("takes no 'config' to build from"),
            std::string::npos);
  // Inherited ones too: the error is at the entry's source.
  const auto e = error("  base:\n    source: {debian: \"6.12\", suite: trixie}\n    fragments: [config4]\n"
                       "  mine:\n    extends: base\n    source: {image: Image}\n");
  EXPECT_EQ(e.line, 7);
  EXPECT_NE(e.message.find("kernels.mine: a prebuilt Image"), std::string::npos) << e.what();
}

TEST_F(OwnKernel, SourceKindsAreExclusive) {
  const auto e = error("  mine:\n    source: {image: Image, debian: \"6.12\", suite: trixie}\n");
  EXPECT_NE(e.message.find("exactly one of 'debian'"), std::string::npos) << e.what();
  const auto c = error("  mine:\n    source: {debian: \"6.12\", suite: trixie, config: config4}\n");
  EXPECT_NE(c.message.find("'config' belongs to an 'image' source"), std::string::npos) << c.what();
}

TEST_F(OwnKernel, FullConfigOnADebianEntry) {
  const auto m = load("  mine:\n    source: {debian: \"6.12\", suite: trixie}\n    config: config4\n    page_size: 64k\n");
  const auto& k = m.kernels.at("mine");
  EXPECT_EQ(k.base_config, dir_ / "config4");
  EXPECT_EQ(k.page_size_kib, 64u) << "the page-size fragment is merged over the .config";
  const auto frags = rlab::build::fragment_paths(k, rlab::build::images_dir());
  EXPECT_EQ(frags.front().filename(), "required.config");
  EXPECT_EQ(frags.at(1).filename(), "64k.config");
}

TEST_F(OwnKernel, FullConfigIsInherited) {
  const auto m = load("  base:\n    source: {debian: \"6.12\", suite: trixie}\n    config: config4\n"
                      "  mine:\n    extends: base\n    fragments: [config64]\n");
  EXPECT_EQ(m.kernels.at("mine").base_config, dir_ / "config4");
}

TEST_F(OwnKernel, MalformedFullConfigNamesItsLine) {
  write("broken", "CONFIG_A=y\nthis is not a config line\n");
  const auto e = error("  mine:\n    source: {debian: \"6.12\", suite: trixie}\n    config: broken\n");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.col, 13);
  EXPECT_NE(e.message.find((dir_ / "broken").string() + ":2: not a config line"), std::string::npos) << e.what();
  const auto missing = error("  mine:\n    source: {debian: \"6.12\", suite: trixie}\n    config: nope\n");
  EXPECT_NE(missing.message.find("does not exist"), std::string::npos) << missing.what();
}

}  // namespace

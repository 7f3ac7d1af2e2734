// A kernel built elsewhere, handed in as `source: {image:, config:}`: the default matrix's
// 6.12 Image and .config (built by rlab, taken from the cache) copied out and given back as a
// prebuilt kernel, then `rlab run --dry-run` and `rlab run` of one cell through libvirt to a
// score. Also the refusal, before any boot, of a .config whose XFS is a module.
#include "build/kernel_build.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"
#include "sql.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace fs = std::filesystem;

namespace {

using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

// The default matrix's "6.12" kernel: built (or taken from the cache, as the lab_kernels
// fixture left it).
rlab::build::KernelArtifact lab_612() {
  const auto m = rlab::matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  return rlab::build::ensure_kernel(m.kernels.at("6.12"));
}

// small_matrix() whose one kernel is "mine": `source` as given.
std::string prebuilt_matrix(const std::string& source) {
  rlab::testing::SmallMatrix s;
  s.extra_kernels = "  mine:\n    source: " + source + "\n";
  s.kernel_axis = "[mine]";
  s.vcpus = 1;
  s.duration_s = 5;
  s.seed = 5;
  s.hosts = {{"qemu:///system", 1, ""}};
  return rlab::testing::small_matrix(s);
}

}  // namespace

TEST(RealPrebuiltKernel, RlabsOwnImageHandedInBootsToAScore) {
  ASSERT_TRUE(rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"}).ok());
  const auto built = lab_612();
  ASSERT_FALSE(built.config.empty());
  rlab::testing::RunDir f("prebuilt");
  fs::copy_file(built.image, f.dir / "Image");
  fs::copy_file(built.config, f.dir / "config");
  f.write(prebuilt_matrix("{image: Image, config: config}"));
  const std::string image_sha = rlab::util::sha256_hex(rlab::util::read_file(f.dir / "Image"));
  const auto agent = agent_binary();

  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(600);
  auto plan = rlab::util::run(rlab_argv({"run", "--dry-run", f.matrix.string()}), o);
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("prebuilt Image " + (f.dir / "Image").string() + " + .config"), std::string::npos)
      << plan.output;
  EXPECT_NE(plan.output.find("from prebuilt Image sha256:" + image_sha), std::string::npos) << plan.output;

  o.timeout = std::chrono::seconds(1800);
  o.echo = true;
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent.string()}), o);
  ASSERT_EQ(r.exit_code, 0) << rlab::util::tail(r.output, 60);
  EXPECT_EQ(r.output.find("make -j"), std::string::npos) << "nothing is built";

  auto st = rlab::store::Store::open(f.dir / "rlab.db");
  const auto run = st->latest_run();
  ASSERT_TRUE(run);
  const auto boots = st->boot_results(*run);
  ASSERT_EQ(boots.size(), 1u);
  EXPECT_EQ(boots[0].status, rlab::store::BootStatus::done) << boots[0].failure;
  ASSERT_TRUE(boots[0].score.has_value());
  EXPECT_GT(*boots[0].score, 0);
  EXPECT_EQ(boots[0].guest_page_size, 65536u) << "the page size the .config says";
  const auto rows = rlab::test::sql_rows(
      f.dir / "rlab.db", "SELECT k.origin, k.kernel_release, k.source_commit, k.config_sha256, b.guest_kernel_release "
                         "FROM boots b JOIN kernels k ON k.kernel_key = b.kernel_key");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], "prebuilt Image sha256:" + image_sha + " (" + (f.dir / "Image").string() +
                            "), .config sha256:" + built.config_sha256);
  EXPECT_EQ(rows[0][1], built.release) << "the banner's release is make kernelrelease's";
  EXPECT_EQ(rows[0][2], "sha256:" + image_sha);
  EXPECT_EQ(rows[0][3], built.config_sha256);
  EXPECT_EQ(rows[0][4], built.release) << "the guest runs the Image handed in";

  auto list = rlab::util::run(rlab_argv({"images", "list"}), o);
  ASSERT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("mine " + built.release + " (prebuilt Image sha256:" + image_sha.substr(0, 12) +
                             ", its .config, 64K pages)"),
            std::string::npos) << list.output;
}

TEST(RealPrebuiltKernel, ModularXfsIsRefusedBeforeAnyBoot) {
  const auto built = lab_612();
  rlab::testing::RunDir f("prebuilt-modular");
  fs::copy_file(built.image, f.dir / "Image");
  // The distribution's way: XFS and the virtio disk as modules, which the guest cannot load.
  std::string cfg = rlab::util::read_file(built.config);
  cfg = std::regex_replace(cfg, std::regex("\nCONFIG_XFS_FS=y\n"), "\nCONFIG_XFS_FS=m\n");
  cfg = std::regex_replace(cfg, std::regex("\nCONFIG_VIRTIO_BLK=y\n"), "\nCONFIG_VIRTIO_BLK=m\n");
  std::ofstream(f.dir / "config") << cfg;
  f.write(prebuilt_matrix("{image: Image, config: config}"));
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(600);
  auto r = rlab::util::run(rlab_argv({"run", f.matrix.string(), "--agent", agent_binary().string()}), o);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(f.matrix.string() + ":"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CONFIG_XFS_FS is =m, needs =y"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("CONFIG_VIRTIO_BLK is =m, needs =y"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(f.dir / "rlab.db")) << "refused before a store or a boot";
}

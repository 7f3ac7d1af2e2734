// The real thing: build (or take from the cache) the 64K-page 6.12 kernel and the initramfs,
// boot them as a libvirt domain with the lab's machine (TCG, max CPU without pointer
// authentication; vm/selftest.hpp) in /init's self-test mode, and check what the guest reports. On an empty cache this builds the kernel (~10 min on
// 2 cores); afterwards it is a cache hit.
#include "build/kernel_spec.hpp"
#include "image/guest_images.hpp"
#include "vm/selftest.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

namespace rlab::image {
namespace {

using rlab::testing::agent_binary;
namespace fs = std::filesystem;

build::KernelSpec kernel_612() {
  build::KernelSpec spec;
  spec.name = "6.12";
  spec.source.kind = build::KernelSource::Kind::kDebianPackage;
  spec.source.debian_version = "6.12";
  spec.source.debian_suite = "trixie";
  spec.page_size_kib = 64;
  return spec;
}

// The static aarch64 agent; built with the aarch64-agent preset when not there yet.
class RealGuest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto progress = [](std::string_view phase, std::string_view detail) {
      std::cerr << "  [" << phase << "] " << detail << "\n";
    };
    images_ = new GuestImages(ensure_guest_images(kernel_612(), agent_binary(), progress));
  }
  static void TearDownTestSuite() { delete images_; }
  static GuestImages* images_;
};
GuestImages* RealGuest::images_ = nullptr;

TEST_F(RealGuest, ImagesAreInTheCache) {
  EXPECT_TRUE(fs::is_regular_file(images_->kernel_image));
  EXPECT_TRUE(fs::is_regular_file(images_->initramfs));
  EXPECT_EQ(images_->page_size_kib, 64u);
  EXPECT_EQ(images_->kernel_release.rfind("6.12.", 0), 0u) << images_->kernel_release;
  EXPECT_EQ(images_->source_commit.rfind("6.12.", 0), 0u) << images_->source_commit;
  EXPECT_EQ(images_->config_sha256.size(), 64u);
  // arm64 Image header: "ARM\x64" magic at offset 56.
  auto image = util::read_file(images_->kernel_image);
  ASSERT_GT(image.size(), 64u);
  EXPECT_EQ(image.substr(56, 4), "ARM\x64");
  // An uncompressed newc cpio: the kernel copies it instead of decompressing it first.
  EXPECT_EQ(util::read_file(images_->initramfs).substr(0, 6), "070701");
}

TEST_F(RealGuest, RepeatRequestIsACacheHit) {
  auto start = std::chrono::steady_clock::now();
  auto again = ensure_guest_images(kernel_612(), agent_binary());
  auto secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(again.kernel_key, images_->kernel_key);
  EXPECT_EQ(again.image_key, images_->image_key);
  EXPECT_EQ(again.kernel_image, images_->kernel_image);
  EXPECT_LT(secs, 60.0) << "a cache hit should not build anything";
}

class RealBoot : public RealGuest, public ::testing::WithParamInterface<unsigned> {};

TEST_P(RealBoot, GuestReportsPageSizeCpusFilesystemsAndInodegcEvents) {
  const auto lv = util::run({(fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh").string()});
  ASSERT_TRUE(lv.ok()) << lv.output;
  vm::SelftestOptions o;
  o.vcpus = GetParam();
  vm::Connection conn("qemu:///system");
  auto r = vm::run_selftest(conn, images_->kernel_image, images_->initramfs, o);
  std::cerr << "  boot to /init: " << (r.init_uptime_s ? *r.init_uptime_s : -1) << " s (guest), "
            << r.wall_seconds << " s domain start to power-off, " << o.vcpus << " vCPUs\n";
  EXPECT_TRUE(conn.active_domains("rlab-selftest-").empty()) << "the guest powered off and is gone";
  EXPECT_EQ(r.page_size, 65536u);
  EXPECT_EQ(r.nproc, o.vcpus);
  EXPECT_EQ(r.kernel_release, images_->kernel_release);
  EXPECT_TRUE(r.filesystems.count("xfs"));
  EXPECT_TRUE(r.filesystems.count("ext4"));
  EXPECT_TRUE(r.filesystems.count("tracefs"));
  for (const char* ev : {"xfs_inodegc_queue", "xfs_inodegc_worker", "xfs_inodegc_throttle",
                         "xfs_inodegc_flush", "xfs_inodegc_push", "xfs_inodegc_shrinker_scan"})
    EXPECT_TRUE(r.tracepoints.count(std::string("xfs:") + ev)) << ev;
  EXPECT_TRUE(r.hist_triggers);
  EXPECT_TRUE(r.virtio_ports.count("org.rlab.agent.0")) << "no /dev/virtio-ports link";
  for (const char* tool : {"sh", "sort", "od", "grep", "tee", "wc", "rm", "mkfs.xfs", "mkfs.ext4", "mount"})
    EXPECT_TRUE(r.tools.count(tool)) << tool;
  ASSERT_TRUE(r.init_uptime_s);
  EXPECT_GT(*r.init_uptime_s, 0.0);
}

INSTANTIATE_TEST_SUITE_P(RealVcpus, RealBoot, ::testing::Values(1u, 2u),
                         [](const auto& info) { return std::to_string(info.param) + "vcpu"; });

}  // namespace
}  // namespace rlab::image

// A guest that never says hello: run_boot destroys it after the hello timeout and records the
// boot as failed (phase, message, console tail) — against the real libvirtd and store. The
// "kernel" is not one, so no kernel build is needed; successful boots are in real_run_test.
#include "run/boot.hpp"
#include "run/run_dir.hpp"
#include "matrix/matrix.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

TEST(RealBoot, GuestWithoutHelloIsDestroyedAndRecordedFailed) {
  ASSERT_TRUE(rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"}).ok());
  fs::path root = fs::path("/var/tmp") / ("rlab-nohello-" + std::to_string(getpid()));
  fs::create_directories(root);
  fs::permissions(root, fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);

  rlab::matrix::Cell cell;
  cell.id = "fake/xfs-defaults/1vcpu/shell1";
  cell.kernel.name = "fake";
  cell.filesystem.fs = rlab::matrix::Fs::kXfs;
  cell.filesystem.label = "defaults";
  cell.vcpus = 1;
  cell.workload.name = "shell1";
  cell.workload.kind = "shell1";
  cell.copies = 1;

  auto st = rlab::store::Store::open(root / "rlab.db");
  auto run = st->create_run({"fake.yaml", "fake", 1, "matrix", ""});
  st->add_cells(run, rlab::matrix::cell_rows({cell}), 1);
  auto boot = st->boots(run).at(0).id;

  rlab::vm::Connection conn("qemu:///system");
  rlab::run::RunDir dir(root / "rlab.db", run, conn.qemu_owner());
  std::ofstream(root / "Image") << std::string(4096, '\0');
  std::ofstream(root / "initramfs") << "070701";
  rlab::image::GuestImages img;
  img.kernel_image = root / "Image";
  img.initramfs = root / "initramfs";
  img.kernel_key = std::string(64, 'a');
  img.image_key = std::string(64, 'b');
  img = dir.stage(img);

  rlab::run::BootJob job;
  job.cell = &cell;
  job.boot = boot;
  job.domain_name = rlab::vm::domain_name(std::to_string(getpid()) + "-nohello", cell.id);
  job.images = &img;
  job.dir = dir.boot_dir(boot);
  rlab::run::GuestSettings g;
  g.memory_mib = 256;
  g.cpu_model = "max";
  g.timeouts.hello_s = 3;
  std::vector<std::string> phases;
  auto out = rlab::run::run_boot(job, g, conn, *st,
                                 [&](std::string_view p) { phases.emplace_back(p); });
  EXPECT_FALSE(out.ok);
  EXPECT_EQ(out.phase, rlab::store::FailurePhase::hello_timeout);
  EXPECT_GE(out.wall_s, 3.0);
  EXPECT_EQ(phases, (std::vector<std::string>{"disk", "boot", "hello"}));
  EXPECT_TRUE(conn.active_domains(job.domain_name).empty()) << "the silent guest was destroyed";
  EXPECT_FALSE(fs::exists(job.dir / "fs.raw")) << "the scratch disk is removed";
  auto results = st->boot_results(run);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].status, rlab::store::BootStatus::failed);
  EXPECT_NE(results[0].failure.find("hello-timeout"), std::string::npos) << results[0].failure;
  fs::remove_all(root);
}

// The one boot-job builder run and bisect share: pinning comes with it wherever the matrix pins.
#include "run/boot_job.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

using namespace rlab;

TEST(BootJob, PinsFromThePoolWhenGivenOneAndNotOtherwise) {
  const auto tmp = std::filesystem::temp_directory_path() / ("rlab-boot-job-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  run::RunDir dir(tmp / "rlab.db", 7, std::nullopt);
  matrix::Cell cell;
  cell.id = "6.12/xfs-defaults/2vcpu/shell1";
  cell.vcpus = 2;
  image::GuestImages staged;
  run::LabHost host;
  host.config.uri = "qemu+libssh://root@127.0.0.1:2222/system";
  host.config.agent_link = matrix::AgentLink::kLibvirt;
  matrix::Pinning pinning;
  pinning.vcpus = true;
  pinning.emulator = true;
  host::CpuPool pool({0, 1, 2, 3});

  const run::BootJob a = run::make_boot_job(cell, 1, 42, "7.abcdef", staged, dir, host, pinning, &pool);
  EXPECT_EQ(a.domain_name, "rlab-7.abcdef-6.12-xfs-defaults-2vcpu-shell1-r1");
  EXPECT_EQ(a.boot, 42);
  EXPECT_EQ(a.images, &staged);
  EXPECT_EQ(a.dir, dir.boot_dir(42));
  EXPECT_EQ(a.agent_link, matrix::AgentLink::kLibvirt);
  EXPECT_EQ(a.pinned_cpus, (std::vector<unsigned>{0, 1}));
  EXPECT_TRUE(a.pin_emulator);
  // A second guest at the same time gets other CPUs; released ones are handed out again.
  const run::BootJob b = run::make_boot_job(cell, 2, 43, "7.abcdef", staged, dir, host, pinning, &pool);
  EXPECT_EQ(b.pinned_cpus, (std::vector<unsigned>{2, 3}));
  pool.release(a.pinned_cpus);
  EXPECT_EQ(run::make_boot_job(cell, 3, 44, "7.abcdef", staged, dir, host, pinning, &pool).pinned_cpus,
            (std::vector<unsigned>{0, 1}));
  // Without a pool (the matrix does not pin): nothing pinned.
  const run::BootJob c = run::make_boot_job(cell, 1, 45, "7.abcdef", staged, dir, host, pinning, nullptr);
  EXPECT_TRUE(c.pinned_cpus.empty());
  EXPECT_FALSE(c.pin_emulator);
  std::filesystem::remove_all(tmp);
}

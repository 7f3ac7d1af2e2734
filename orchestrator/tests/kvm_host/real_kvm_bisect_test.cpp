// Bisection under KVM (a long test, RLAB_LONG_TESTS=1): `rlab kvm-host start`, then `rlab
// bisect` over a generated 6.12 series (four commits after the good end, one of them a 200 ms
// delay in inodegc queueing: the TCG tests' busy loop barely shows under KVM on the emulated
// host, whose shell1 time goes to guest exits) with a cell of `accel: kvm`, `cpu: host`, real time, pinned vCPUs,
// on the emulated host through its libvirt — as a lab with an arm64 server would run it. Every
// boot of the bisection must have run under KVM on a 64 KiB host, pinned; the first bad commit
// must be the busy loop; the host stops leaving nothing behind.
#include "kernel_bisect/git.hpp"
#include "kernel_series.hpp"
#include "kvm_host_matrix.hpp"
#include "store/store.hpp"
#include "util/paths.hpp"
#include "vm/domain_xml.hpp"
#include "vm/libvirt.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

namespace fs = std::filesystem;

namespace {

/// One cell: 6.12 64K, XFS, 1 vCPU, one 10 s pass, under KVM on the host named by
/// RLAB_KVM_HOST_URI, pinned, with the emulated host's hello timeout.
std::string kvm_matrix() { return rlab::testing::small_matrix(rlab::testing::kvm_host_matrix()); }

}  // namespace

TEST(RealKvmBisect, BisectsUnderKvmToTheInjectedInodegcDelay) {
  const auto t0 = std::chrono::steady_clock::now();
  auto minutes = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 60;
  };
  rlab::testing::agent_binary();
  rlab::testing::RunDir run("kvm-bisect");
  const fs::path state = run.dir / "state";
  rlab::testing::KernelSeries tree(run.dir);
  // The two-nights test's series shape (the same SHAs up to the culprit: cached kernels).
  std::vector<std::string> series{tree.comment("fs/xfs/xfs_super.c", "xfs: comment before night 1")};
  series.push_back(tree.comment("fs/xfs/xfs_inode.c", "xfs: comment 1 after night 1"));
  series.push_back(tree.delay_inodegc(200, "xfs: delay inodegc queueing"));
  series.push_back(tree.comment("fs/xfs/xfs_file.c", "xfs: comment 2 after night 1"));
  series.push_back(tree.comment("fs/xfs/xfs_log.c", "xfs: comment 3 after night 1"));
  const std::string& good = series.front();
  const std::string& culprit = series[2];
  run.write(kvm_matrix());
  const fs::path& matrix = run.matrix;

  rlab::util::ProcessOptions o;
  o.env = {{"RLAB_STATE_DIR", state.string()}};
  o.timeout = std::chrono::minutes(60);
  o.echo = true;
  auto started = rlab::util::run(rlab::testing::rlab_argv({"kvm-host", "start"}), o);
  ASSERT_TRUE(started.ok()) << started.output;
  const auto st = nlohmann::json::parse(rlab::util::read_file(state / "kvm-host" / "state.json"));
  const std::string uri = st.at("uri").get<std::string>();
  std::fprintf(stderr, "[kvm bisect] host ready after %.1f min\n", minutes());

  o.env["RLAB_KVM_HOST_URI"] = uri;
  o.timeout = std::chrono::hours(3);
  const double before = minutes();
  auto b = rlab::util::run(rlab::testing::rlab_argv({"bisect", "--tree", tree.repo().string(), "--good", good,
                                                     "--bad", "main", "--cell", "xfs", "--matrix",
                                                     matrix.string(), "--db", (run.dir / "rlab.db").string(),
                                                     // 4 commits, 2 steps at 0.12 / 2 = 0.06: 4 boots
                                                     // against 4 reach it when they separate
                                                     // (exact p 2/70 = 0.029).
                                                     "--alpha", "0.12", "--initial", "4", "--cap", "8"}),
                           o);
  std::fprintf(stderr, "[kvm bisect] rlab bisect took %.1f min\n", minutes() - before);
  EXPECT_EQ(b.exit_code, 0) << rlab::util::tail(b.output, 60);
  EXPECT_NE(b.output.find("first bad commit: " + culprit + " xfs: delay inodegc queueing"),
            std::string::npos)
      << rlab::util::tail(b.output, 60);

  // Every boot of the bisection ran under KVM, on a 64 KiB host, its vCPU pinned.
  {
    auto store = rlab::store::Store::open(run.dir / "rlab.db");
    std::size_t boots = 0;
    for (const auto& r : store->runs())
      for (const auto& p : store->boot_platforms(r.id)) {
        SCOPED_TRACE(p.cell_id + " repeat " + std::to_string(p.repeat));
        ++boots;
        EXPECT_EQ(p.platform.domain_type, "kvm");
        EXPECT_EQ(p.platform.guest_hypervisor, "kvm");
        EXPECT_EQ(p.platform.host_page_kib, 64u);
        EXPECT_EQ(nlohmann::json::parse(p.platform.vcpu_cpus).size(), 1u);
      }
    EXPECT_GE(boots, 8u) << "the ends at least";
    std::fprintf(stderr, "[kvm bisect] %zu boots under KVM\n", boots);
  }
  {
    rlab::vm::Connection conn(uri);
    EXPECT_TRUE(conn.active_domains(rlab::vm::kDomainPrefix).empty());
  }
  EXPECT_FALSE(rlab::kernel_bisect::GitTree(tree.repo()).bisecting());
  o.timeout = std::chrono::minutes(2);
  auto stopped = rlab::util::run(rlab::testing::rlab_argv({"kvm-host", "stop"}), o);
  EXPECT_TRUE(stopped.ok()) << stopped.output;
  EXPECT_FALSE(fs::exists(state / "kvm-host" / "state.json"));
  std::fprintf(stderr, "[kvm bisect] whole test %.1f min\n", minutes());
  // The exported trees are large; the built kernels stay cached.
  if (!::testing::Test::HasFailure())
    for (const auto& c : series) fs::remove_all(rlab::util::cache_dir() / "sources" / ("git-" + c));
}

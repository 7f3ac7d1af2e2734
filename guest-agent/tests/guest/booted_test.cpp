// The static agent inside a booted arm64 guest (qemu-system-aarch64, TCG): hello over the
// virtio-serial port, prepare the scratch disk found by its serial, a short shell1 run with
// inodegc tracepoints counted through hist triggers, shutdown powering the guest off.
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "guest/images.hpp"
#include "guest/qemu_guest.hpp"
#include "harness.hpp"
#include "rlab/protocol/score.hpp"

namespace rp = rlab::protocol;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

TEST(BootedGuest, HelloPrepareRunShutdown) {
  // The images come from rlab's cache (built there first when missing); when they cannot be
  // produced this fails, naming the command and its messages.
  GuestSpec spec;
  try {
    spec = guest_spec();
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  TempDir dir;
  QemuGuest guest(spec, dir.path);
  Client c = Client::connect_unix(guest.socket(), 60s);
  c.send(rp::HelloRequest{1, 1});
  // Boot under TCG takes a while; the request waits in the port until the agent reads it. The
  // agent also says an unprompted hello (no id) when it opens the port: wait for the reply.
  std::optional<rp::Hello> h;
  const auto boot_deadline = std::chrono::steady_clock::now() + 300s;
  while (!(h && h->id == 1u) && std::chrono::steady_clock::now() < boot_deadline)
    h = c.next_of<rp::Hello>(std::chrono::duration_cast<std::chrono::milliseconds>(
        boot_deadline - std::chrono::steady_clock::now()));
  ASSERT_TRUE(h && h->id == 1u) << "no hello reply; console: " << guest.console_log();
  EXPECT_TRUE(h->pid1);
  EXPECT_EQ(h->protocol, 1);
  EXPECT_GT(h->page_size, 0u);
  std::printf("guest: kernel %s, page size %llu, %u CPUs, counting %s, %zu tracepoints\n", h->kernel_release.c_str(),
              static_cast<unsigned long long>(h->page_size), h->nr_cpus, h->tracepoint_counting.c_str(),
              h->tracepoints.size());

  rp::Prepare p;
  p.id = 2;
  p.serial = "rlab-test";
  p.fs = "xfs";
  p.mkfs_options = {"-d", "agcount=2"};
  p.mountpoint = "/mnt/test";
  c.send(p);
  auto m = c.next(300s);
  ASSERT_TRUE(m.has_value());
  auto* prepared = std::get_if<rp::Prepared>(&*m);
  ASSERT_NE(prepared, nullptr) << rp::type_name(*m) << ": "
                               << (std::holds_alternative<rp::Error>(*m) ? std::get<rp::Error>(*m).message : "");
  EXPECT_EQ(prepared->device.rfind("/dev/vd", 0), 0u) << prepared->device;

  rp::Run r;
  r.id = 3;
  r.copies = 2;
  r.passes = 3;
  r.duration_s = 10;
  r.workdir = "/mnt/test/work";
  r.drop_caches = true;
  c.send(r);
  auto res = c.next_of<rp::Result>(600s);
  ASSERT_TRUE(res.has_value());
  ASSERT_EQ(res->passes.size(), 3u);
  EXPECT_EQ(res->failures, 0u) << (res->failure_examples.empty() ? "" : res->failure_examples[0]);
  std::vector<double> lpm;
  for (const auto& pass : res->passes) {
    EXPECT_GT(pass.loops, 0u);
    EXPECT_TRUE(pass.caches_dropped) << "pass " << pass.pass;
    lpm.push_back(pass.lpm);
    std::printf("pass %u: %llu loops, %.1f lpm, inodegc_queue %llu\n", pass.pass,
                static_cast<unsigned long long>(pass.loops), pass.lpm,
                static_cast<unsigned long long>(pass.counters.tracepoints.count("xfs:xfs_inodegc_queue")
                                                    ? pass.counters.tracepoints.at("xfs:xfs_inodegc_queue")
                                                    : 0));
    if (h->tracepoint_counting != "none") {
      ASSERT_TRUE(pass.counters.tracepoints.count("xfs:xfs_inode_set_need_inactive"));
      EXPECT_GT(pass.counters.tracepoints.at("xfs:xfs_inode_set_need_inactive"), 0u);
    }
    EXPECT_FALSE(pass.counters.xfs_stats.empty());
  }
  EXPECT_NEAR(res->score, rp::unixbench_score(lpm), 1e-9 * res->score);
  std::printf("score %.1f lpm, agent peak RSS %llu KiB\n", res->score,
              static_cast<unsigned long long>(res->agent_max_rss_kib));
  EXPECT_GT(res->agent_max_rss_kib, 256u);  // measured, not a counter that stayed at 0
  EXPECT_LE(res->agent_max_rss_kib, 16u * 1024);

  c.send(rp::Shutdown{4, true});
  ASSERT_TRUE(c.next_of<rp::Bye>(60s).has_value());
  auto st = guest.process().wait(120s);
  ASSERT_TRUE(st.has_value()) << "the guest did not power off";
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0);
}

// The agent's BPF programs (BPF C, loaded by libbpf; guest-agent/src/attribution/bpf/) on
// both kernels rlab supports as guests, each built from Debian's linux-source with rlab's
// fragments and olddefconfig: 6.1 (bookworm) and 6.12 (trixie). A long test
// (RLAB_LONG_TESTS=1, scripts/test.sh): the 6.1 kernel is built only here. It fails if either
// kernel's verifier refuses a program, a tracepoint is missing, or nothing is counted.
#include "build/run_options.hpp"
#include "store/readers.hpp"
#include "store/store.hpp"
#include "util/process.hpp"
#include "real_lab.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using rlab::testing::agent_binary;
using rlab::testing::rlab_argv;

TEST(RealBpfKernels, TheWaitProgramsLoadAndCountOn61And612) {
  auto start = rlab::util::run({std::filesystem::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(start.ok()) << start.output;
  rlab::testing::RunDir d("bpf-kernels");
  rlab::testing::SmallMatrix m;
  m.vcpus = 2;
  m.workloads = {"{type: shell1, copies: 4, passes: 1, duration_s: 10, attribution: stacks}"};
  m.extra_kernels = "  \"6.1\":\n    source: {debian: \"6.1\", suite: bookworm}\n    page_size: 64k\n";
  m.kernel_axis = "[\"6.1\", \"6.12\"]";
  d.write(rlab::testing::small_matrix(m));
  auto r = rlab::util::run(rlab_argv({"run", d.matrix.string(), "--agent", agent_binary().string()}),
                           rlab::build::run_options(std::chrono::minutes(90)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto st = rlab::store::Store::open(d.dir / "rlab.db");
  const auto boots = rlab::store::scored_boots(*st, st->latest_run().value());
  std::map<std::string, int> checked;  // the matrix's kernel name -> boots checked
  for (const auto& b : boots) {
    ASSERT_EQ(b.passes.size(), 1u);
    ASSERT_TRUE(b.passes[0].attribution_json.has_value()) << b.kernel;
    const auto a = nlohmann::json::parse(*b.passes[0].attribution_json);
    EXPECT_EQ(a["unavailable"], "") << b.kernel << ": every family, the BPF programs loaded and attached";
    EXPECT_GT(a["totals"]["lock.waits"].get<std::uint64_t>(), 0u) << b.kernel << " " << a["totals"].dump();
    EXPECT_GT(a["totals"]["offcpu.D.waits"].get<std::uint64_t>(), 0u) << b.kernel << " " << a["totals"].dump();
    // The AG header programs read the buffer's address from struct xfs_buf: on this kernel's
    // layout they find the AGIs the load's inode allocations hold.
    std::uint64_t agi_holds = 0;
    for (const auto& [key, value] : a["totals"].items())
      if (key.rfind("agheader.AGI.", 0) == 0 && key.ends_with(".holds")) agi_holds += value.get<std::uint64_t>();
    EXPECT_GT(agi_holds, 0u) << b.kernel << " " << a["totals"].dump();
    bool stack_with_frames = false;
    for (const auto& s : a["stacks"])
      if ((s["family"] == "lock" || s["family"].get<std::string>().rfind("offcpu", 0) == 0) && s["frames"].size() > 2)
        stack_with_frames = true;
    EXPECT_TRUE(stack_with_frames) << b.kernel << ": kernel stacks read back from the stack map";
    ++checked[b.kernel];
  }
  EXPECT_EQ(checked.size(), 2u) << r.output;
}

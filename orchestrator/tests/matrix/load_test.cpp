// A valid matrix: resolution of kernels (extends, paths, patch sets), defaults, cells.
#include "matrix/matrix.hpp"
#include "rlab/protocol/messages.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <set>

namespace {

namespace fs = std::filesystem;
using namespace rlab::matrix;

const fs::path kData = RLAB_TEST_DATA;

TEST(LoadMatrix, ResolvesKernelsWithExtends) {
  const Matrix m = load_matrix(kData / "good.yaml");
  ASSERT_EQ(m.kernels.size(), 3u);
  const auto& base = m.kernels.at("6.12");
  EXPECT_EQ(base.source.kind, rlab::build::KernelSource::Kind::kDebianPackage);
  EXPECT_EQ(base.source.debian_version, "6.12");
  EXPECT_EQ(base.source.debian_suite, "trixie");
  EXPECT_EQ(base.page_size_kib, 64u);
  ASSERT_EQ(base.fragments.size(), 1u);
  EXPECT_EQ(base.fragments[0], kData / "fragments" / "xfs-debug.config");
  EXPECT_TRUE(base.patches.empty());
  EXPECT_EQ(base.patchset, "");

  const auto& child = m.kernels.at("6.12+inline-inactivation");
  EXPECT_EQ(child.name, "6.12+inline-inactivation");
  EXPECT_EQ(child.source.debian_version, "6.12");    // inherited
  EXPECT_EQ(child.fragments, base.fragments);         // inherited
  ASSERT_EQ(child.patches.size(), 1u);
  EXPECT_EQ(child.patches[0], kData / "patches" / "one-line.patch");
  EXPECT_EQ(child.patchset, "inline-inactivation");  // the name after "<base>+"

  const auto& git = m.kernels.at("stable-4k");
  EXPECT_EQ(git.source.kind, rlab::build::KernelSource::Kind::kGitTree);
  EXPECT_EQ(git.source.git_tree, kData);
  EXPECT_EQ(git.source.git_ref, "v6.6.60");
  EXPECT_EQ(git.page_size_kib, 4u);
}

TEST(LoadMatrix, ReadsEverySection) {
  const Matrix m = load_matrix(kData / "good.yaml");
  EXPECT_TRUE(m.path.is_absolute());
  EXPECT_NE(m.text.find("seed: 1234"), std::string::npos);
  EXPECT_EQ(m.kernel_axis, (std::vector<std::string>{"6.12", "6.12+inline-inactivation"}));
  EXPECT_EQ(m.vcpus_axis, (std::vector<unsigned>{1, 2}));
  ASSERT_EQ(m.filesystem_axis.size(), 4u);
  EXPECT_EQ(m.filesystem_axis[0].label, "defaults");
  EXPECT_EQ(m.filesystem_axis[0].id(), "xfs-defaults");
  EXPECT_EQ(m.filesystem_axis[1].mkfs_options, (std::vector<std::string>{"-d", "agcount=4"}));
  EXPECT_EQ(m.filesystem_axis[1].label, "agcount=4");
  EXPECT_EQ(m.filesystem_axis[1].id(), "xfs-agcount4");
  EXPECT_EQ(m.filesystem_axis[2].label, "ag20");
  EXPECT_EQ(m.filesystem_axis[2].mkfs_options, (std::vector<std::string>{"-d", "agcount=20"}));
  EXPECT_EQ(m.filesystem_axis[3].fs, Fs::kExt4);
  EXPECT_EQ(to_string(m.filesystem_axis[0].fs), "xfs");
  EXPECT_EQ(m.filesystem_axis[3].mount_options, "noatime");
  ASSERT_EQ(m.workload_axis.size(), 2u);
  EXPECT_EQ(m.workload_axis[0].name, "shell1");
  EXPECT_FALSE(m.workload_axis[0].copies.has_value());
  EXPECT_EQ(m.workload_axis[0].passes, 2u);
  EXPECT_DOUBLE_EQ(m.workload_axis[0].duration_s, 20.0);
  EXPECT_EQ(m.workload_axis[1].name, "shell8-c8");
  EXPECT_EQ(m.workload_axis[1].scripts_per_loop, 8u);
  EXPECT_EQ(m.workload_axis[1].copies, 8u);
  EXPECT_DOUBLE_EQ(m.workload_axis[1].duration_s, 1.5);
  EXPECT_FALSE(m.workload_axis[0].drop_caches);  // the default: UnixBench drops none
  EXPECT_EQ(m.workload_axis[0].layout, rlab::matrix::Layout::kShared);  // the default: UnixBench's one test directory
  EXPECT_EQ(m.workload_axis[0].input_id, std::string("sha256:") + rlab::protocol::kGeneratedInputSha256);
  EXPECT_FALSE(m.workload_axis[1].drop_caches);
  EXPECT_EQ(m.repeats, 3u);
  EXPECT_EQ(m.guest.memory_mib, 3072u);
  EXPECT_EQ(m.guest.accel, Accel::kTcg);
  ASSERT_EQ(m.hosts.size(), 2u);
  EXPECT_EQ(m.hosts[1].uri, "qemu+ssh://arm-01/system");
  EXPECT_EQ(m.hosts[1].vcpu_budget, 144u);
  // No agent_link in the file: the local URI's agent socket, libvirt's channel for the remote.
  EXPECT_EQ(m.hosts[0].agent_link, AgentLink::kSocket);
  EXPECT_EQ(m.hosts[1].agent_link, AgentLink::kLibvirt);
  EXPECT_EQ(m.results, kData / "out" / "test.db");
  EXPECT_EQ(m.push_url, "http://pushgateway:9091");
  EXPECT_EQ(m.seed, 1234u);
  EXPECT_TRUE(m.seed_from_file);
}

TEST(LoadMatrix, DefaultsForOptionalSections) {
  const Matrix m = load_matrix(kData / "minimal.yaml");
  ASSERT_EQ(m.hosts.size(), 1u);
  EXPECT_EQ(m.hosts[0].uri, "qemu:///system");
  EXPECT_EQ(m.hosts[0].vcpu_budget, static_cast<unsigned>(::sysconf(_SC_NPROCESSORS_ONLN)));
  EXPECT_EQ(m.results, kData / "results" / "rlab.db");
  EXPECT_EQ(m.guest.accel, Accel::kAuto);
  EXPECT_EQ(m.guest.cpu_model, "auto");
  EXPECT_EQ(m.repeats, 1u);
  EXPECT_FALSE(m.push_url.has_value());
  EXPECT_FALSE(m.seed_from_file);
  EXPECT_EQ(m.workload_axis[0].passes, 1u);
  EXPECT_DOUBLE_EQ(m.workload_axis[0].duration_s, 60.0);
  EXPECT_FALSE(m.cache_max_gib.has_value());
}


TEST(ExpandCells, CrossProductWithStableIds) {
  const Matrix m = load_matrix(kData / "good.yaml");
  const auto cells = expand_cells(m);
  ASSERT_EQ(cells.size(), 2u * 4u * 2u * 2u);
  std::set<std::string> ids;
  for (const auto& c : cells) ids.insert(c.id);
  EXPECT_EQ(ids.size(), cells.size());
  EXPECT_EQ(cells.front().id, "6.12/xfs-defaults/1vcpu/shell1");
  EXPECT_TRUE(ids.count("6.12+inline-inactivation/xfs-agcount4/2vcpu/shell8-c8"));
  EXPECT_TRUE(ids.count("6.12/ext4-defaults/2vcpu/shell1"));
  for (const auto& c : cells) {
    EXPECT_EQ(c.copies, c.workload.copies ? 8u : c.vcpus) << c.id;
    EXPECT_EQ(c.page_size, 65536u);
    EXPECT_EQ(c.kernel.name + "/", c.id.substr(0, c.kernel.name.size() + 1));
  }
  // Loading the same text again gives the same ids in the same order (resume relies on it).
  const Matrix again = parse_matrix(m.text, m.path);
  const auto cells2 = expand_cells(again);
  ASSERT_EQ(cells2.size(), cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) EXPECT_EQ(cells2[i].id, cells[i].id);
}

TEST(Accel, AutoMeansKvmOnlyOnAarch64WithKvm) {
  EXPECT_EQ(resolve_accel(Accel::kAuto, "aarch64", true), Accel::kKvm);
  EXPECT_EQ(resolve_accel(Accel::kAuto, "aarch64", false), Accel::kTcg);
  EXPECT_EQ(resolve_accel(Accel::kAuto, "x86_64", true), Accel::kTcg);
  EXPECT_EQ(resolve_accel(Accel::kTcg, "aarch64", true), Accel::kTcg);
  EXPECT_EQ(resolve_accel(Accel::kKvm, "x86_64", false), Accel::kKvm);
  Guest g;
  EXPECT_EQ(resolve_cpu_model(g, Accel::kKvm), "host");
  EXPECT_EQ(resolve_cpu_model(g, Accel::kTcg), "max");
  g.cpu_model = "neoverse-n1";
  EXPECT_EQ(resolve_cpu_model(g, Accel::kTcg), "neoverse-n1");
  const Accel local = resolve_accel_local(Accel::kAuto);
  EXPECT_NE(local, Accel::kAuto);
#if !defined(__aarch64__)
  EXPECT_EQ(local, Accel::kTcg);
#endif
}

}  // namespace

namespace {

/// One cell, then `hosts:` (the test's lines follow).
constexpr const char* kOneCellThenHosts = R"(kernels:
  k: {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: [k]
  vcpus: [1]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1}]
hosts:
)";

TEST(LoadMatrix, HostFilesAndPool) {
  const std::string text = std::string(kOneCellThenHosts) + R"(  - {uri: "qemu:///system", vcpus: 2, files: volumes, pool: rlab-images, agent_link: libvirt}
  - {uri: "qemu+ssh://arm-01/system", vcpus: 64, files: paths}
  - {uri: "qemu+ssh://arm-02/system", vcpus: 64, pool: fast}
)";
  const Matrix m = parse_matrix(text, kData / "inline.yaml", {});
  ASSERT_EQ(m.hosts.size(), 3u);
  EXPECT_EQ(m.hosts[0].files, HostFiles::kVolumes);
  EXPECT_EQ(m.hosts[0].pool, "rlab-images");
  EXPECT_EQ(m.hosts[1].files, HostFiles::kPaths);
  EXPECT_EQ(m.hosts[1].pool, "");
  EXPECT_EQ(m.hosts[2].files, HostFiles::kVolumes);
  EXPECT_EQ(m.hosts[2].pool, "fast");
  EXPECT_EQ(to_string(HostFiles::kVolumes), "volumes");
}

TEST(LoadMatrix, HostTimeoutsDefaultOrAsGiven) {
  const std::string text = std::string(kOneCellThenHosts) + R"(  - {uri: "qemu:///system", vcpus: 2, liveness_timeout_s: 12, hello_timeout_s: 300}
  - {uri: "qemu+ssh://arm-01/system", vcpus: 64}
)";
  const Matrix m = parse_matrix(text, kData / "inline.yaml", {});
  ASSERT_EQ(m.hosts.size(), 2u);
  EXPECT_EQ(m.hosts[0].liveness_timeout_s, 12);
  EXPECT_EQ(m.hosts[0].hello_timeout_s, 300);
  EXPECT_EQ(m.hosts[1].liveness_timeout_s, 30);
  EXPECT_EQ(m.hosts[1].hello_timeout_s, kDefaultHelloTimeoutS);
}

TEST(LoadMatrix, HostAgentLinkOverridesTheUrisDefault) {
  const std::string text = std::string(kOneCellThenHosts) + R"(  - {uri: "qemu:///system", vcpus: 2, agent_link: libvirt}
  - {uri: "qemu+tcp://127.0.0.1:16509/system", vcpus: 2, agent_link: socket}
  - {uri: "qemu+tls://arm-02/system", vcpus: 64}
  - {uri: "qemu:///session", vcpus: 1}
)";
  const Matrix m = parse_matrix(text, kData / "inline.yaml", {});
  ASSERT_EQ(m.hosts.size(), 4u);
  EXPECT_EQ(m.hosts[0].agent_link, AgentLink::kLibvirt);
  EXPECT_EQ(m.hosts[1].agent_link, AgentLink::kSocket);
  EXPECT_EQ(m.hosts[2].agent_link, AgentLink::kLibvirt);
  EXPECT_EQ(m.hosts[3].agent_link, AgentLink::kSocket);
  EXPECT_EQ(default_agent_link("qemu+ssh://elsewhere/system"), AgentLink::kLibvirt);
  EXPECT_EQ(to_string(AgentLink::kLibvirt), "libvirt");
  EXPECT_EQ(to_string(AgentLink::kSocket), "socket");
  // Files follow: a socket link means QEMU runs here and sees rlab's paths; a remote host
  // reached through libvirt gets volumes of the pool "default".
  EXPECT_EQ(m.hosts[0].files, HostFiles::kPaths);
  EXPECT_EQ(m.hosts[1].files, HostFiles::kPaths);
  EXPECT_EQ(m.hosts[1].pool, "");
  EXPECT_EQ(m.hosts[2].files, HostFiles::kVolumes);
  EXPECT_EQ(m.hosts[2].pool, "default");
  EXPECT_EQ(m.hosts[3].files, HostFiles::kPaths);
}

TEST(LoadMatrix, ControlNamesOneCellByIdOrAUniquePart) {
  const std::string text = R"(kernels:
  "6.1": {source: {debian: "6.1", suite: bookworm}}
  "6.12": {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: ["6.1", "6.12"]
  vcpus: [2]
  filesystem: [{fs: xfs}, {fs: ext4}]
  workload: [{type: shell1}]
control: "6.1/ext4"
)";
  const Matrix m = parse_matrix(text, kData / "inline.yaml", {});
  ASSERT_TRUE(m.control.has_value());
  EXPECT_EQ(*m.control, "6.1/ext4-defaults/2vcpu/shell1") << "'6.1/ext4' is a part of only this id";
  EXPECT_FALSE(parse_matrix(R"(kernels:
  k: {source: {debian: "6.12", suite: trixie}}
axes: {kernel: [k], vcpus: [1], filesystem: [{fs: xfs}], workload: [{type: shell1}]}
)", kData / "inline.yaml", {}).control.has_value());
}

TEST(LoadMatrix, GapsPairCellsOfOneKernelByAnAxisOrBySelectors) {
  const std::string head = R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}}
  "6.12+x": {extends: "6.12", patches: []}
axes:
  kernel: ["6.12", "6.12+x"]
  vcpus: [1, 4]
  filesystem: [{fs: xfs, mkfs: [[], [-d, agcount=4]]}, {fs: ext4}]
  workload: [{type: shell1}]
)";
  // Two filesystem variant ids: every xfs-defaults cell against the ext4 cell that differs only
  // in the filesystem, in cell order; a pair of vCPU parts, the same along the vCPU axis; a
  // cell id and a unique part: that one pair.
  const Matrix m = parse_matrix(head + R"(gaps:
  - [xfs-defaults, ext4-defaults]
  - [4vcpu, 1vcpu]
  - ["6.12+x/xfs-agcount4/4vcpu/shell1", "6.12+x/xfs-defaults/4vcpu"]
)", kData / "inline.yaml", {});
  std::vector<std::string> got;
  for (const auto& g : m.gaps) got.push_back(std::to_string(g.entry) + " " + g.cell_id + " / " + g.against_cell_id);
  const std::vector<std::string> want{
      "0 6.12/xfs-defaults/1vcpu/shell1 / 6.12/ext4-defaults/1vcpu/shell1",
      "0 6.12/xfs-defaults/4vcpu/shell1 / 6.12/ext4-defaults/4vcpu/shell1",
      "0 6.12+x/xfs-defaults/1vcpu/shell1 / 6.12+x/ext4-defaults/1vcpu/shell1",
      "0 6.12+x/xfs-defaults/4vcpu/shell1 / 6.12+x/ext4-defaults/4vcpu/shell1",
      "1 6.12/xfs-defaults/4vcpu/shell1 / 6.12/xfs-defaults/1vcpu/shell1",
      "1 6.12/xfs-agcount4/4vcpu/shell1 / 6.12/xfs-agcount4/1vcpu/shell1",
      "1 6.12/ext4-defaults/4vcpu/shell1 / 6.12/ext4-defaults/1vcpu/shell1",
      "1 6.12+x/xfs-defaults/4vcpu/shell1 / 6.12+x/xfs-defaults/1vcpu/shell1",
      "1 6.12+x/xfs-agcount4/4vcpu/shell1 / 6.12+x/xfs-agcount4/1vcpu/shell1",
      "1 6.12+x/ext4-defaults/4vcpu/shell1 / 6.12+x/ext4-defaults/1vcpu/shell1",
      "2 6.12+x/xfs-agcount4/4vcpu/shell1 / 6.12+x/xfs-defaults/4vcpu/shell1"};
  EXPECT_EQ(got, want);
  // Without `gaps:` there are none, and the cells are the same either way (a run ignores it).
  const Matrix plain = parse_matrix(head, kData / "inline.yaml", {});
  EXPECT_TRUE(plain.gaps.empty());
  EXPECT_EQ(expand_cells(plain).size(), expand_cells(m).size());
}

TEST(SelectCellId, ExactIdWinsOverAPartOfOthers) {
  const std::vector<std::string> ids{"k/xfs-defaults/1vcpu/shell1", "k/xfs-defaults/1vcpu/shell1-long"};
  EXPECT_EQ(select_cell_id(ids, "k/xfs-defaults/1vcpu/shell1"), ids[0]);
  EXPECT_EQ(select_cell_id(ids, "long"), ids[1]);
  EXPECT_THROW(select_cell_id(ids, "xfs"), rlab::UsageError);
  EXPECT_THROW(select_cell_id(ids, ""), rlab::UsageError) << "an empty selector names nothing";
  EXPECT_THROW(select_cell_id({}, "k"), rlab::UsageError);
  EXPECT_EQ(select_cell_id({ids[1], ids[1], ids[1]}, "shell1"), ids[1]) << "one cell, booted three times";
}

}  // namespace

TEST(LoadMatrix, NumbersTaggedAsYamlNumbersAreNumbers) {
  const std::string text = R"(kernels:
  k: {source: {debian: "6.12", suite: trixie}}
axes:
  kernel: [k]
  vcpus: [!!int 2]
  filesystem: [{fs: xfs}]
  workload: [{type: shell1, duration_s: !!float 12.5}]
hosts:
  - {uri: "qemu:///system", vcpus: !!int 2}
)";
  const Matrix m = parse_matrix(text, kData / "inline.yaml", {});
  EXPECT_EQ(m.vcpus_axis, std::vector<unsigned>{2});
  EXPECT_EQ(m.hosts.at(0).vcpu_budget, 2u);
  EXPECT_DOUBLE_EQ(m.workload_axis.at(0).duration_s, 12.5);
  // A string tag stays a string.
  EXPECT_THROW(parse_matrix(std::string(text).replace(text.find("!!int 2]"), 8, "!!str 2]"), kData / "inline.yaml", {}),
               MatrixError);
}

TEST(LoadMatrix, CacheBudgetInGiB) {
  const std::string text = std::string(kOneCellThenHosts) + "  - {uri: \"qemu:///system\", vcpus: 2}\ncache: {max_gib: 3.5}\n";
  EXPECT_DOUBLE_EQ(parse_matrix(text, kData / "inline.yaml", {}).cache_max_gib.value_or(0), 3.5);
}

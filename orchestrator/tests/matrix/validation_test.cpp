// One bad matrix file per validation rule, each with the place the error must name.
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

struct BadCase {
  const char* file;  ///< data/bad/<file>.yaml
  int line;          ///< expected 1-based line; 0: only "a position inside the file"
  int col;
  const char* message;  ///< a part the message must contain
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.file; }

class BadMatrix : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadMatrix, FailsWithFileLineCol) {
  const BadCase& c = GetParam();
  const std::filesystem::path path =
      std::filesystem::path(RLAB_TEST_DATA) / "bad" / (std::string(c.file) + ".yaml");
  try {
    rlab::matrix::load_matrix(path);
    FAIL() << c.file << " loaded without error";
  } catch (const rlab::matrix::MatrixError& e) {
    const std::string what = e.what();
    if (c.line > 0) {
      EXPECT_EQ(e.line, c.line) << what;
      EXPECT_EQ(e.col, c.col) << what;
      const std::string prefix =
          path.string() + ":" + std::to_string(c.line) + ":" + std::to_string(c.col) + ": ";
      EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
    } else {
      EXPECT_GT(e.line, 0) << what;
      EXPECT_GT(e.col, 0) << what;
    }
    EXPECT_NE(what.find(c.message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BadMatrix,
    ::testing::Values(
        BadCase{"unknown_key_top", 8, 1, "unknown key 'resluts'"},
        BadCase{"unknown_key_guest", 9, 3, "unknown key 'memroy_mib'"},
        BadCase{"unknown_key_kernel", 2, 48, "unknown key 'patchez'"},
        BadCase{"wrong_type_vcpus", 5, 11, "expected an integer"},
        BadCase{"wrong_type_axes", 4, 3, "axes: expected a mapping"},
        BadCase{"wrong_type_memory", 9, 15, "expected an integer"},
        BadCase{"wrong_type_mkfs", 6, 33, "expected a list of mkfs argv words"},
        BadCase{"empty_axis", 5, 10, "axes.vcpus: must not be empty"},
        BadCase{"empty_filesystem_axis", 6, 15, "axes.filesystem: must not be empty"},
        BadCase{"vcpus_zero", 5, 14, "out of range [1, 512]"},
        BadCase{"vcpus_too_many", 5, 14, "out of range [1, 512]"},
        BadCase{"vcpus_twice", 5, 14, "appears twice"},
        BadCase{"unknown_kernel", 4, 15, "unknown kernel '6.13'"},
        BadCase{"unknown_extends", 3, 17, "unknown kernel 'nope'"},
        BadCase{"extends_cycle", 2, 16, "cycle"},
        BadCase{"missing_source", 2, 3, "needs 'source'"},
        BadCase{"missing_patch", 3, 30, "does not exist"},
        BadCase{"missing_fragment", 3, 32, "does not exist"},
        BadCase{"missing_git_tree", 3, 22, "does not exist"},
        BadCase{"missing_axis", 4, 3, "missing key 'vcpus'"},
        BadCase{"duplicate_key", 9, 1, "duplicate key 'guest'"},
        BadCase{"duplicate_kernel", 3, 3, "duplicate key 'k'"},
        BadCase{"duplicate_nested_key", 7, 40, "duplicate key 'passes'"},
        BadCase{"bad_accel", 8, 16, "not one of auto, kvm, tcg"},
        BadCase{"bad_copies", 7, 37, "a number or 'vcpus'"},
        BadCase{"bad_workload", 7, 21, "not a workload"},
        BadCase{"bad_page_size", 2, 59, "not an arm64 page size"},
        BadCase{"bad_fs", 6, 21, "not supported"},
        BadCase{"bad_kernel_name", 2, 3, "not a valid kernel name"},
        BadCase{"remote_host_budget", 9, 5, "needs 'vcpus'"},
        BadCase{"host_agent_link", 9, 61, "hosts[0].agent_link: 'ssh' is not one of socket, libvirt"},
        BadCase{"host_agent_link_list", 11, 17, "hosts[0].agent_link: expected a string"},
        BadCase{"hosts_empty_at_end", 8, 7, "hosts: expected a list, found nothing (null)"},
        BadCase{"host_files_unknown", 9, 56, "hosts[0].files: 'nfs' is not one of paths, volumes"},
        BadCase{"host_pool_with_paths", 9, 45, "hosts[0].pool: only meaningful with 'files: volumes'"},
        BadCase{"host_pool_slash", 9, 55, "hosts[0].pool: 'a/b' is not a storage pool name rlab accepts"},
        BadCase{"host_pool_shell", 9, 55, "hosts[0].pool: 'x;id;$(id)' is not a storage pool name rlab accepts"},
        BadCase{"host_agent_link_escape", 9, 61, "hosts[0].agent_link: '\\x1b]0;pwned\\x07' is not one of socket, libvirt"},
        BadCase{"host_volumes_socket", 9, 76, "'files: volumes' needs 'agent_link: libvirt'"},
        BadCase{"quoted_duration", 7, 41, "expected a number"},
        BadCase{"drop_caches_string", 7, 42, "axes.workload[0].drop_caches: expected true or false"},
        BadCase{"syntax_error", 0, 0, "end of sequence flow not found"},
        BadCase{"empty_file", 1, 1, "empty matrix"},
        BadCase{"deep_nesting", 0, 0, "nested more than"},
        BadCase{"two_documents", 9, 1, "a matrix is one YAML document"},
        BadCase{"vcpus_huge", 5, 11, "99999999999999999999 is out of range [1, 512]"},
        BadCase{"too_many_boots", 4, 3, "expands to 200000 boots"},
        BadCase{"stray_comma", 1, 1, "unexpected ',': not valid YAML here"},
        BadCase{"control_no_cell", 8, 10, "control: no cell matches 'btrfs'; cells: k/xfs-defaults/1vcpu/shell1"},
        BadCase{"control_several_cells", 8, 10, "control: 'ext4' matches 2 cells, name one: k/ext4-defaults/1vcpu/shell1, k/ext4-defaults/2vcpu/shell1"},
        BadCase{"control_list", 8, 10, "control: expected a string"},
        BadCase{"gaps_several_cells", 8, 9, "gaps[0][0]: 'xfs' matches 2 cells, name one: k/xfs-defaults/1vcpu/shell1, k/xfs-defaults/2vcpu/shell1; name one cell a side"},
        BadCase{"gaps_no_cell", 8, 29, "gaps[0][1]: no cell matches 'btrfs'"},
        BadCase{"gaps_not_pair", 8, 8, "gaps[0]: expected a pair [cell, against cell]"},
        BadCase{"gaps_not_list", 8, 7, "gaps: expected a list"},
        BadCase{"gaps_same_side", 8, 23, "gaps[0]: both sides are 'xfs-defaults'"},
        BadCase{"gaps_twice", 10, 5, "gaps[1]: the gap k/xfs-defaults/2vcpu/shell1 ÷ k/ext4-defaults/2vcpu/shell1 is already named by gaps[0]"},
        BadCase{"gaps_kernels", 9, 8, "gaps[0]: 'k' and 'j' are kernels; a gap compares two cells of one kernel"},
        BadCase{"gaps_different_kernels", 9, 8, "gaps[0]: k/xfs-defaults/1vcpu/shell1 and j/ext4-defaults/1vcpu/shell1 run different kernels (k, j)"},
        BadCase{"host_uri_env_unset", 9, 11, "hosts[0].uri names the environment variable RLAB_TEST_UNSET_HOST_URI, which is not set"},
        BadCase{"host_uri_env_open", 9, 11, "hosts[0].uri has a '${' at offset 11 without a variable name"},
        BadCase{"host_page_size", 9, 19, "guest.host_page_size: '8k' is not one of 4k, 16k, 64k, any"},
        BadCase{"host_uri_space", 9, 11, "hosts[0].uri: 'qemu+tcp://arm 01/system' has the byte 0x20 (a space) at offset 14"},
        BadCase{"host_uri_newline", 9, 11, "hosts[0].uri: 'qemu:///system\\x0a' has the byte 0x0a at offset 14"},
        BadCase{"host_uri_shell", 9, 11, "has the byte 0x60 at offset 11"},
        BadCase{"host_uri_scheme", 9, 11, "hosts[0].uri: 'xen:///system' is not a libvirt URI of QEMU"},
        BadCase{"host_uri_huge", 9, 11, "is 3018 bytes long, at most 2048"},
        BadCase{"host_budget_huge", 10, 51, "hosts[1].vcpus: 99999999999 is out of range [1, 4096]"},
        BadCase{"host_hello_timeout", 9, 56, "hosts[0].hello_timeout_s: 5 is out of range [10, 3600]"},
        BadCase{"host_hello_retries", 9, 54, "hosts[0].hello_retries: 9 is out of range [0, 5]"},
        BadCase{"host_liveness_timeout", 9, 59, "hosts[0].liveness_timeout_s: 4 is out of range [5, 3600]"},
        BadCase{"nightly_fetch_option", 10, 19, "nightly.fetch: entry 2 is not a git remote name or URL"},
        BadCase{"nightly_fetch_control", 10, 19, "nightly.fetch: entry 2 is not a git remote name or URL"},
        BadCase{"nightly_tree_nul", 9, 9, "nightly.tree: contains a NUL byte"},
        BadCase{"nightly_tree_missing", 9, 9, "nightly.tree: "},
        BadCase{"nightly_unknown_key", 10, 3, "nightly: unknown key 'fecth'"},
        BadCase{"nightly_bisect_minutes_huge", 9, 19, "nightly.bisect_minutes: 99999 is out of range [0, 1440]"},
        BadCase{"nightly_keep_reports_zero", 9, 17, "nightly.keep_reports: 0 is out of range [1, 100000]"},
        BadCase{"nightly_thin_after_days_zero", 9, 20, "nightly.thin_after_days: 0 is out of range [1, 36500]"},
        BadCase{"cache_max_gib_zero", 9, 12, "cache.max_gib: 0 is out of range"},
        BadCase{"cache_max_gib_small", 9, 12, "cache.max_gib: 1.5 GiB is below what one kernel build holds at once"},
        BadCase{"cache_unknown_key", 9, 3, "cache: unknown key 'max_gb'"}),
    [](const ::testing::TestParamInfo<BadCase>& i) { return std::string(i.param.file); });

TEST(BadMatrix, UnreadableFileNamesThePath) {
  try {
    rlab::matrix::load_matrix("/nonexistent/matrix.yaml");
    FAIL();
  } catch (const rlab::matrix::MatrixError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("/nonexistent/matrix.yaml:", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot read"), std::string::npos);
  }
}

TEST(Matrix, HostUrisTakeEnvironmentVariables) {
  const auto path = std::filesystem::path(RLAB_TEST_DATA) / "bad" / "host_uri_env_unset.yaml";
  ::setenv("RLAB_TEST_UNSET_HOST_URI", "qemu+libssh://root@127.0.0.1:2222/system?keyfile=/k", 1);
  const auto m = rlab::matrix::load_matrix(path);
  ::unsetenv("RLAB_TEST_UNSET_HOST_URI");
  ASSERT_EQ(m.hosts.size(), 1u);
  EXPECT_EQ(m.hosts[0].uri, "qemu+libssh://root@127.0.0.1:2222/system?keyfile=/k");
  EXPECT_EQ(m.hosts[0].agent_link, rlab::matrix::AgentLink::kLibvirt);  // a remote host's defaults
  // What the variable holds is checked as a URI too.
  ::setenv("RLAB_TEST_UNSET_HOST_URI", "qemu+ssh://a b/system", 1);
  EXPECT_THROW(rlab::matrix::load_matrix(path), rlab::matrix::MatrixError);
  ::unsetenv("RLAB_TEST_UNSET_HOST_URI");
}

TEST(BadMatrix, DirectoryIsNotAMatrix) {
  const auto dir = std::filesystem::path(RLAB_TEST_DATA) / "bad";
  try {
    rlab::matrix::load_matrix(dir);
    FAIL();
  } catch (const rlab::matrix::MatrixError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(dir.string() + ":", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

TEST(BadMatrix, PathChecksCanBeSkippedForForeignMatrices) {
  const auto path = std::filesystem::path(RLAB_TEST_DATA) / "bad" / "missing_git_tree.yaml";
  rlab::matrix::LoadOptions opt;
  opt.check_paths = false;
  auto m = rlab::matrix::load_matrix(path, opt);
  EXPECT_EQ(m.kernels.at("k2").source.git_tree, "/nonexistent/linux");
  EXPECT_EQ(m.kernels.at("k2").source.git_ref, "v6.6.60");
}

}  // namespace

TEST(Workload, SampleIntervalDefaultsToOneSecondAndZeroTurnsThePeriodicSamplesOff) {
  auto matrix_with = [](const std::string& workload) {
    return "kernels:\n  k: {source: {debian: \"6.12\", suite: trixie}}\naxes:\n  kernel: [k]\n  vcpus: [1]\n"
           "  filesystem: [{fs: xfs}]\n  workload:\n    - " + workload + "\n";
  };
  const rlab::matrix::LoadOptions no_paths{.check_paths = false};
  auto m = rlab::matrix::parse_matrix(matrix_with("{type: shell1}"), "m.yaml", no_paths);
  EXPECT_DOUBLE_EQ(m.workload_axis.at(0).sample_interval_s, 0.0) << "quiet unless asked";
  m = rlab::matrix::parse_matrix(matrix_with("{type: shell1, sample_interval_s: 0}"), "m.yaml", no_paths);
  EXPECT_DOUBLE_EQ(m.workload_axis.at(0).sample_interval_s, 0.0);
  m = rlab::matrix::parse_matrix(matrix_with("{type: shell1, sample_interval_s: 2.5}"), "m.yaml", no_paths);
  EXPECT_DOUBLE_EQ(m.workload_axis.at(0).sample_interval_s, 2.5);
  for (const auto& [value, says] : {std::pair<std::string, std::string>{"0.05", "0 (no periodic samples) or 0.1..600 seconds"},
                                    {"601", "out of range"},
                                    {"often", "expected a number"},
                                    {"\"0\"", "expected a number"},
                                    {"-1", "out of range"}}) {
    try {
      rlab::matrix::parse_matrix(matrix_with("{type: shell1, sample_interval_s: " + value + "}"), "m.yaml", no_paths);
      ADD_FAILURE() << value << " was accepted";
    } catch (const rlab::matrix::MatrixError& e) {
      EXPECT_NE(std::string(e.what()).find("m.yaml:8:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("axes.workload[0].sample_interval_s"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
}

// `rlab images list` and `rlab images build` argument errors, through the real binary.
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>

namespace {
namespace fs = std::filesystem;

std::string rlab_bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b && *b ? b : std::string(RLAB_BINARY_DIR) + "/orchestrator/rlab";
}

class ImagesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_ = fs::temp_directory_path() / ("rlab-cli-cache-" + std::to_string(::getpid()));
    fs::remove_all(cache_);
    fs::create_directories(cache_ / "kernels/k1");
    fs::create_directories(cache_ / "images/i1");
    rlab::util::write_file_atomic(cache_ / "kernels/k1/Image", std::string(4096, 'k'));
    rlab::util::write_file_atomic(cache_ / "kernels/k1/manifest.json",
        R"({"kind":"kernel","name":"6.12","kernel_release":"6.12.57","source_commit":"6.12.57-1","page_size_kib":64,"patchset":""})");
    rlab::util::write_file_atomic(cache_ / "images/i1/manifest.json", R"({"kind":"image","suite":"bookworm","packages":["dash"]})");
  }
  void TearDown() override { fs::remove_all(cache_); }
  rlab::util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), rlab_bin());
    rlab::util::ProcessOptions o;
    o.env["RLAB_CACHE_DIR"] = cache_.string();
    return rlab::util::run(args, o);
  }
  fs::path cache_;
};

TEST_F(ImagesCli, ListShowsKeysSizesAndWhat) {
  auto r = rlab({"images", "list"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("kernel     k1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6.12 6.12.57 (debian 6.12.57-1, 64K pages)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("initramfs bookworm (1 packages)"), std::string::npos) << r.output;
  auto j = rlab({"images", "list", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.output;
  auto arr = nlohmann::json::parse(j.output);
  ASSERT_EQ(arr.size(), 2u);
  EXPECT_EQ(arr[0]["key"], "k1");
  EXPECT_GE(arr[0]["bytes"].get<std::uint64_t>(), 4096u);
}

// Where each kernel came from: a git commit, a prebuilt Image (with or without its .config), a
// kernel configured from a full .config with the count of options rlab changed in it.
TEST_F(ImagesCli, ListSaysWhereKernelsCameFrom) {
  const std::string sha(64, 'a'), cfg(64, 'c');
  auto entry = [&](const std::string& key, const std::string& manifest) {
    fs::create_directories(cache_ / "kernels" / key);
    rlab::util::write_file_atomic(cache_ / "kernels" / key / "Image", "x");
    rlab::util::write_file_atomic(cache_ / "kernels" / key / "manifest.json", manifest);
  };
  entry("k2", R"({"kind":"kernel","name":"tip","kernel_release":"6.13.0","source_identity":"git:/src/linux",)"
              R"("source_commit":"0123456789abcdef0123456789abcdef01234567","page_size_kib":4})");
  entry("k3", R"({"kind":"kernel","name":"mine","kernel_release":"6.12.57","source_identity":"image:/srv/Image",)"
              R"("source_commit":"sha256:)" + sha + R"(","page_size_kib":64,"prebuilt":{"config_sha256":")" + cfg + R"("}})");
  entry("k4", R"({"kind":"kernel","name":"bare","kernel_release":"","source_identity":"image:/srv/Image",)"
              R"("source_commit":"sha256:)" + sha + R"(","page_size_kib":16,"prebuilt":{"config_sha256":""}})");
  entry("k5", R"({"kind":"kernel","name":"distro","kernel_release":"6.12.117","source_identity":"debian:linux-source-6.12@trixie",)"
              R"("source_commit":"6.12.117-1","page_size_kib":64,"base_config":{"sha256":")" + cfg + R"("},"config_changes":12})");
  auto r = rlab({"images", "list"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("tip 6.13.0 (git 0123456789ab, 4K pages)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("mine 6.12.57 (prebuilt Image sha256:aaaaaaaaaaaa, its .config, 64K pages)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bare  (prebuilt Image sha256:aaaaaaaaaaaa, no .config, 16K pages)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("distro 6.12.117 (debian 6.12.117-1, .config sha256:cccccccccccc (12 changed), 64K pages)"),
            std::string::npos) << r.output;
}

TEST_F(ImagesCli, UnknownKernelIsAUsageErrorListingTheKnownOnes) {
  auto r = rlab({"images", "build", "no-such-kernel", "--matrix",
                 std::string(RLAB_SOURCE_DIR) + "/matrix.yaml"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("kernel 'no-such-kernel' is not in"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("6.12"), std::string::npos) << r.output;
}

TEST_F(ImagesCli, MissingAgentIsAClearError) {
  auto r = rlab({"images", "build", "6.12", "--matrix", std::string(RLAB_SOURCE_DIR) + "/matrix.yaml",
                 "--agent", "/nonexistent/rlab-agent"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("/nonexistent/rlab-agent does not exist"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("aarch64-agent"), std::string::npos) << r.output;
}

}  // namespace

// UnixBench's programs and the initramfs that carries them are cache entries like any other:
// written once through the one writer (manifest last), hits afterwards, listed.
#include "build/artifact_cache.hpp"
#include "image/unixbench.hpp"
#include "real_lab.hpp"
#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <set>

namespace fs = std::filesystem;
using namespace rlab;

TEST(UnixbenchCache, ArchiveAndInitramfsAreEntriesWrittenOnceAndListed) {
  if (const auto why = rlab::testing::unixbench_missing(); !why.empty()) GTEST_SKIP() << why;
  const fs::path unixbench = rlab::testing::unixbench_dir();
  const fs::path cache = fs::temp_directory_path() / ("rlab-unixbench-cache-" + std::to_string(::getpid()));
  fs::remove_all(cache);
  ::setenv("RLAB_CACHE_DIR", cache.c_str(), 1);

  const fs::path archive = image::unixbench_archive(unixbench);
  EXPECT_TRUE(build::entry_complete(archive.parent_path()));
  const auto written = fs::last_write_time(archive);
  EXPECT_EQ(image::unixbench_archive(unixbench), archive);  // a hit: nothing rebuilt
  EXPECT_EQ(fs::last_write_time(archive), written);
  const std::string packed = util::read_file(archive);
  EXPECT_NE(packed.find("bare-init"), std::string::npos) << "rlab's bare guest /init rides with UnixBench's programs";
  EXPECT_NE(packed.find("RLAB-BARE"), std::string::npos);

  fs::create_directories(cache / "base");
  util::write_file_atomic(cache / "base" / "initramfs.cpio.zst", "base-initramfs");
  image::GuestImages base;
  base.initramfs = cache / "base" / "initramfs.cpio.zst";
  base.image_key = std::string(64, 'a');
  const image::GuestImages with = image::with_archive(base, archive);
  EXPECT_NE(with.image_key, base.image_key);
  const std::string bytes = util::read_file(with.initramfs);
  EXPECT_EQ(bytes.substr(0, 6), "070701");  // the archive's newc cpio comes first
  EXPECT_EQ(bytes.substr(bytes.size() - 14), "base-initramfs");

  std::set<std::string> kinds;
  for (const auto& e : build::list_cache(cache)) kinds.insert(std::string(build::to_string(e.kind)));
  EXPECT_TRUE(kinds.count("unixbench"));
  EXPECT_TRUE(kinds.count("image-with"));
  ::unsetenv("RLAB_CACHE_DIR");
  fs::remove_all(cache);
}

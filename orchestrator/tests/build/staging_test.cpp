// fresh_staging(): a build's partial folder, and what killed builds left behind.
#include "build/artifact_cache.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace {

/// A pid that is certainly gone: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  ::waitpid(p, nullptr, 0);
  return p;
}

}  // namespace

TEST(FreshStaging, RemovesWhatDeadProcessesLeftAndKeepsTheLivingOnes) {
  const fs::path root = fs::temp_directory_path() / ("rlab-staging-" + std::to_string(::getpid()));
  fs::remove_all(root);
  const fs::path entry = root / "kernels" / "abc";
  fs::create_directories(entry.parent_path());
  const fs::path dead = entry.string() + ".partial-" + std::to_string(dead_pid());
  const fs::path alive = entry.string() + ".partial-1";  // init runs
  const fs::path other = root / "kernels" / "abcd.partial-999999999";  // another entry's
  for (const auto& d : {dead, alive, other}) fs::create_directories(d / "obj");

  const fs::path mine = rlab::build::fresh_staging(entry);
  EXPECT_EQ(mine, fs::path(entry.string() + ".partial-" + std::to_string(::getpid())));
  EXPECT_TRUE(fs::is_directory(mine));
  EXPECT_TRUE(fs::is_empty(mine));
  EXPECT_FALSE(fs::exists(dead)) << "a killed build's partial folder is swept";
  EXPECT_TRUE(fs::exists(alive)) << "a running process keeps its own";
  EXPECT_TRUE(fs::exists(other)) << "only this entry's partial folders are looked at";
  // Again: this process's own folder comes back empty.
  std::ofstream(mine / "half-written") << "x";
  EXPECT_TRUE(fs::is_empty(rlab::build::fresh_staging(entry)));
  fs::remove_all(root);
}

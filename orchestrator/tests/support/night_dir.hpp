#pragma once
// The real nightly tests' working directory.
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace rlab::testing {

/// Starts libvirtd when it is not running (scripts/start-libvirtd.sh; a failure fails the
/// test) and returns a new, empty /var/tmp/rlab-<name>-<pid> that QEMU's user can search: the
/// run directories are made next to the store in it.
inline std::filesystem::path night_dir(const std::string& name) {
  namespace fs = std::filesystem;
  const auto lv = util::run({(fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh").string()});
  EXPECT_TRUE(lv.ok()) << lv.output;
  const fs::path dir = fs::path("/var/tmp") / ("rlab-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
  return dir;
}

}  // namespace rlab::testing

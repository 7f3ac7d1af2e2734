// The newc writer, checked by GNU cpio reading the archive back.
#include "image/cpio.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace rlab::image {
namespace {
namespace fs = std::filesystem;

class Cpio : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rlab-cpio-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Cpio, GnuCpioReadsBackEveryKind) {
  std::vector<CpioEntry> entries{
      {"bin", CpioEntry::Type::kDirectory, 0755, "", 0, 0},
      {"bin/hello", CpioEntry::Type::kFile, 0755, "#!/bin/sh\necho hi\n", 0, 0},
      {"bin/sh", CpioEntry::Type::kSymlink, 0777, "dash", 0, 0},
      {"dev", CpioEntry::Type::kDirectory, 0755, "", 0, 0},
      {"dev/console", CpioEntry::Type::kCharDevice, 0600, "", 5, 1},
      {"odd", CpioEntry::Type::kFile, 0644, std::string("abc\0def", 7), 0, 0},  // unaligned size
  };
  {
    std::ofstream out(dir_ / "a.cpio", std::ios::binary);
    write_newc(out, entries);
  }
  EXPECT_EQ(fs::file_size(dir_ / "a.cpio") % 4, 0u);
  auto listing = util::run_checked({"cpio", "-itv", "--quiet", "-F", (dir_ / "a.cpio").string()}).output;
  std::istringstream in(listing);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), entries.size()) << listing;
  EXPECT_EQ(lines[1].substr(0, 10), "-rwxr-xr-x") << lines[1];
  EXPECT_NE(lines[1].find(" root "), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2].substr(0, 10), "lrwxrwxrwx");
  EXPECT_NE(lines[2].find("bin/sh -> dash"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[4].substr(0, 10), "crw-------") << lines[4];
  EXPECT_NE(lines[4].find("5,"), std::string::npos) << lines[4];

  // Extract the regular files (device nodes need privileges) and compare contents.
  fs::create_directories(dir_ / "x");
  util::run_checked({"cpio", "-id", "--quiet", "--no-absolute-filenames", "-F", (dir_ / "a.cpio").string(),
                     "bin/hello", "odd"},
                    [&] { util::ProcessOptions o; o.cwd = dir_ / "x"; return o; }());
  EXPECT_EQ(util::read_file(dir_ / "x/bin/hello"), entries[1].data);
  EXPECT_EQ(util::read_file(dir_ / "x/odd"), entries[5].data);
}

TEST_F(Cpio, TreeWalkIsSortedParentsFirst) {
  fs::create_directories(dir_ / "root/usr/bin");
  util::write_file_atomic(dir_ / "root/usr/bin/tool", "x");
  util::write_file_atomic(dir_ / "root/a", "y");
  fs::create_symlink("usr/bin", dir_ / "root/bin");
  auto entries = entries_from_tree(dir_ / "root");
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "bin", "usr", "usr/bin", "usr/bin/tool"}));
  EXPECT_EQ(entries[1].type, CpioEntry::Type::kSymlink);
  EXPECT_EQ(entries[1].data, "usr/bin");
}

TEST_F(Cpio, BadNamesAreRejected) {
  std::ostringstream out;
  EXPECT_THROW(write_newc(out, {{"/abs", CpioEntry::Type::kFile, 0644, "", 0, 0}}), std::invalid_argument);
  EXPECT_THROW(write_newc(out, {{"", CpioEntry::Type::kFile, 0644, "", 0, 0}}), std::invalid_argument);
}

}  // namespace
}  // namespace rlab::image

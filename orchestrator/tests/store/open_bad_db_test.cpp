// Store::open on a --db a careless user might give: a directory, a read-only file. Each is
// refused or read as it is, and no byte of it changes.
#include "store/store.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

fs::path bad_db_scratch(const char* name) {
  fs::path d = fs::temp_directory_path() / ("rlab-store-bad-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Makes `file` read-only for this process: mode 0444, and, for root (whom modes do not stop),
/// the immutable attribute. Undone by the destructor.
struct ReadOnly {
  fs::path file;
  explicit ReadOnly(fs::path f) : file(std::move(f)) {
    fs::permissions(file, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    set_immutable(true);
  }
  ~ReadOnly() {
    set_immutable(false);
    fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  }
  void set_immutable(bool on) const {
    const int fd = ::open(file.c_str(), O_RDONLY);
    if (fd < 0) return;
    int flags = 0;
    if (::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
      flags = on ? (flags | FS_IMMUTABLE_FL) : (flags & ~FS_IMMUTABLE_FL);
      ::ioctl(fd, FS_IOC_SETFLAGS, &flags);
    }
    ::close(fd);
  }
  /// Whether a write open of the file now fails (the premise of the tests below).
  bool holds() const {
    const int fd = ::open(file.c_str(), O_RDWR);
    if (fd >= 0) ::close(fd);
    return fd < 0;
  }
};

TEST(StoreOpenBad, DirectoryIsRefusedAsNotAStoreAndLeftEmpty) {
  const fs::path dir = bad_db_scratch("dir");
  try {
    store::Store::open(dir);
    FAIL() << "opened a directory";
  } catch (const store::NotAStoreError& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": is a directory, not a results store (name a file)");
  }
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(StoreOpenBad, ReadOnlyCurrentStoreIsReadAndWritesFailLeavingItUnchanged) {
  const fs::path dir = bad_db_scratch("ro");
  const fs::path db = dir / "rlab.db";
  {
    auto s = store::Store::open(db);
    store::NewRun r;
    r.matrix_path = "m.yaml";
    r.matrix_text = "x";
    s->create_run(r);
  }
  fs::remove(db.string() + "-wal");  // checkpointed at close; no -wal must be needed to read
  const std::string before = slurp(db);
  {
    ReadOnly ro(db);
    ASSERT_TRUE(ro.holds()) << "the file could not be made read-only";
    auto s = store::Store::open(db);
    ASSERT_EQ(s->runs().size(), 1u);
    EXPECT_EQ(s->runs()[0].matrix_path, "m.yaml");
    store::NewRun r;
    r.matrix_path = "other.yaml";
    EXPECT_THROW(s->create_run(r), store::StoreError);
  }
  EXPECT_EQ(slurp(db), before);
  fs::remove_all(dir);
}

TEST(StoreOpenBad, ReadOnlyEmptyFileCannotBecomeAStore) {
  const fs::path dir = bad_db_scratch("ro-empty");
  const fs::path db = dir / "empty.db";
  std::ofstream(db).close();
  {
    ReadOnly ro(db);
    ASSERT_TRUE(ro.holds()) << "the file could not be made read-only";
    try {
      store::Store::open(db);
      FAIL() << "a read-only empty file became a store";
    } catch (const store::StoreError& e) {
      EXPECT_NE(std::string(e.what()).find("read-only: cannot create a results store"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(fs::file_size(db), 0u);
  fs::remove_all(dir);
}

}  // namespace

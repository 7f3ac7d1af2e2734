// Storage volumes on the machine's real libvirtd: a transient directory pool of the test's
// own; content uploaded once and reused, an upload cut short replaced, scratch volumes
// created, downloaded and deleted; a pool that is missing or not directory-backed refused.
#include "vm/storage.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <libvirt/libvirt.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace rlab::vm;

namespace {

/// A transient dir pool named `name` at `dir` on `conn`, destroyed at scope end.
struct TestPool {
  Connection& conn;
  std::string name;
  TestPool(Connection& c, std::string n, const fs::path& dir) : conn(c), name(std::move(n)) {
    fs::create_directories(dir);
    const std::string xml = "<pool type='dir'><name>" + name + "</name><target><path>" + dir.string() +
                            "</path></target></pool>";
    virStoragePoolPtr p = virStoragePoolCreateXML(static_cast<virConnectPtr>(conn.raw()), xml.c_str(), 0);
    if (!p) throw LibvirtError("cannot create the test pool: " + last_libvirt_error());
    virStoragePoolFree(p);
  }
  ~TestPool() {
    virStoragePoolPtr p = virStoragePoolLookupByName(static_cast<virConnectPtr>(conn.raw()), name.c_str());
    if (p) {
      virStoragePoolDestroy(p);
      virStoragePoolFree(p);
    }
  }
};

struct Dir {
  fs::path path = fs::path("/var/tmp") / ("rlab-storage-" + std::to_string(::getpid()));
  Dir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() { fs::remove_all(path); }
};

}  // namespace

TEST(RealStorage, UploadsOncePerContentAndMovesScratchVolumes) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  Dir d;
  Connection conn("qemu:///system");
  TestPool tp(conn, "rlab-test-" + std::to_string(::getpid()), d.path / "pool");
  StoragePool pool(conn, tp.name);
  EXPECT_EQ(pool.dir(), d.path / "pool");

  // A 3 MiB "kernel": uploaded once, found the second time.
  std::string content(3 << 20, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 131 % 251);
  std::ofstream(d.path / "Image", std::ios::binary) << content;
  const fs::path host = pool.upload(d.path / "Image");
  EXPECT_EQ(host.parent_path(), d.path / "pool");
  EXPECT_EQ(host.filename().string(), content_volume_name(d.path / "Image"));
  EXPECT_EQ(rlab::util::read_file(host), content) << "the volume holds the file's bytes";
  EXPECT_EQ(pool.uploaded_bytes(), content.size());
  EXPECT_EQ(pool.upload(d.path / "Image"), host);
  EXPECT_EQ(pool.uploaded_bytes(), content.size()) << "the same content is not uploaded again";
  // Another pool object (the next run) finds it too.
  StoragePool again(conn, tp.name);
  EXPECT_EQ(again.upload(d.path / "Image"), host);
  EXPECT_EQ(again.uploaded_bytes(), 0u);

  // An upload cut short (the volume without its marker) is replaced.
  ASSERT_TRUE(again.remove(host.filename().string() + ".ok"));
  fs::resize_file(host, 1000);
  EXPECT_EQ(again.upload(d.path / "Image"), host);
  EXPECT_EQ(again.uploaded_bytes(), content.size());
  EXPECT_EQ(rlab::util::read_file(host), content);

  // A boot's scratch volumes: created sparse, read back, deleted.
  const fs::path disk = pool.create("rlab-9.abcdef-cell-r0-fs.raw", 2ull << 30);
  EXPECT_EQ(fs::file_size(disk), 2ull << 30);
  const fs::path log = pool.create("rlab-9.abcdef-cell-r0-console.log", 0);
  std::ofstream(log) << "Booting Linux on physical CPU 0x0\n";  // as QEMU writes it
  pool.download("rlab-9.abcdef-cell-r0-console.log", d.path / "console.log");
  EXPECT_EQ(rlab::util::read_file(d.path / "console.log"), "Booting Linux on physical CPU 0x0\n");
  auto mine = pool.volumes("rlab-9.abcdef-");
  std::sort(mine.begin(), mine.end());
  EXPECT_EQ(mine, (std::vector<std::string>{"rlab-9.abcdef-cell-r0-console.log", "rlab-9.abcdef-cell-r0-fs.raw"}));
  EXPECT_TRUE(pool.remove("rlab-9.abcdef-cell-r0-fs.raw"));
  EXPECT_FALSE(pool.remove("rlab-9.abcdef-cell-r0-fs.raw"));
  EXPECT_FALSE(fs::exists(disk));
  EXPECT_THROW(pool.download("rlab-none", d.path / "x"), LibvirtError);
}

// What a remote host keeps between runs is bounded: content no run used for a while goes, the
// content the thinning run used itself stays whatever its age, scratch volumes are not touched.
TEST(RealStorage, ThinningDeletesContentNoRunUsedRecently) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  Dir d;
  Connection conn("qemu:///system");
  TestPool tp(conn, "rlab-test-thin-" + std::to_string(::getpid()), d.path / "pool");
  std::ofstream(d.path / "Image") << std::string(4096, 'k');
  std::ofstream(d.path / "initramfs.cpio.zst") << std::string(2048, 'i');
  {
    StoragePool last_week(conn, tp.name);  // a run that used both
    last_week.upload(d.path / "Image");
    last_week.upload(d.path / "initramfs.cpio.zst");
  }
  const fs::path scratch = StoragePool(conn, tp.name).create("rlab-7.abcdef-cell-r0-fs.raw", 1 << 20);

  StoragePool tonight(conn, tp.name);  // uses the Image only
  tonight.upload(d.path / "Image");
  EXPECT_EQ(tonight.thin(std::chrono::hours(1)), 0u) << "both were used within the hour";
  EXPECT_EQ(tonight.thin(std::chrono::seconds(0)), 1u) << "unused for 0 s: the initramfs goes, the Image was used tonight";
  auto left = tonight.volumes("rlab-");
  std::sort(left.begin(), left.end());
  std::vector<std::string> want{"rlab-7.abcdef-cell-r0-fs.raw", content_volume_name(d.path / "Image"),
                                content_volume_name(d.path / "Image") + ".ok"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(left, want);
  // The next run uploads the initramfs again.
  StoragePool next(conn, tp.name);
  next.upload(d.path / "initramfs.cpio.zst");
  EXPECT_EQ(next.uploaded_bytes(), 2048u);
  EXPECT_TRUE(fs::exists(scratch));
}

TEST(RealStorage, AMissingPoolIsRefusedWithHowToMakeOne) {
  auto lv = rlab::util::run({fs::path(RLAB_SOURCE_DIR) / "scripts" / "start-libvirtd.sh"});
  ASSERT_TRUE(lv.ok()) << lv.output;
  Connection conn("qemu:///system");
  try {
    StoragePool p(conn, "rlab-no-such-pool");
    FAIL() << "accepted";
  } catch (const LibvirtError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("host qemu:///system: no storage pool 'rlab-no-such-pool'"), std::string::npos) << m;
    EXPECT_NE(m.find("virsh -c qemu:///system pool-define-as rlab-no-such-pool dir --target /var/lib/libvirt/images/rlab-no-such-pool"), std::string::npos) << m;
  }
}

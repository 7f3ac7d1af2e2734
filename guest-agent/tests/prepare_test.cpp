// prepare against real block devices (loop devices over sparse files; needs root), then the
// load on the fresh XFS with its inodegc tracepoints and per-device XFS stats counted. The
// tests load the loop module and mount tracefs themselves when the machine has neither
// (host_setup.hpp).
#include <sys/mount.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include <fstream>

#include "common/fileio.hpp"
#include "harness.hpp"
#include "host_setup.hpp"
#include "load/prepare.hpp"

namespace rp = rlab::protocol;
namespace fs = std::filesystem;
using namespace rlab::agent::test;
using namespace std::chrono_literals;

namespace {

struct Served {
  TempDir dir;
  Process agent{{agent_binary(), "--listen", "unix:" + (dir.path / "agent.sock").string()}};
  Client client = Client::connect_unix(dir.path / "agent.sock", 10s);
};

std::string mount_line(const fs::path& mnt) {
  auto text = rlab::agent::read_file("/proc/mounts").value_or("");
  std::size_t pos = text.find(" " + mnt.string() + " ");
  if (pos == std::string::npos) return {};
  auto start = text.rfind('\n', pos);
  auto end = text.find('\n', pos);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1));
}

/// A `prepare` of XFS with `mkfs` options on `device`, mounted at `mnt`.
rp::Prepare xfs_prepare(rp::RequestId id, const std::string& device, std::vector<std::string> mkfs, const fs::path& mnt) {
  rp::Prepare p;
  p.id = id;
  p.device = device;
  p.fs = "xfs";
  p.mkfs_options = std::move(mkfs);
  p.mountpoint = mnt.string();
  return p;
}

}  // namespace

TEST(Prepare, XfsWithAgcountThenShell1CountsInodegc) {
  // The agent counts the tracepoints through tracefs, which a fresh machine has not mounted.
  const std::string no_tracefs = ensure_tracefs();
  ASSERT_EQ(no_tracefs, "") << "the agent needs tracefs to count XFS tracepoints";
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  const fs::path mnt = s.dir.path / "mnt";
  LoopDisk disk(s.dir.path, mnt);
  rp::Prepare p;
  p.id = 1;
  p.device = disk.device;
  p.fs = "xfs";
  p.mkfs_options = {"-d", "agcount=2"};
  p.mount_options = "noatime";
  p.mountpoint = mnt.string();
  s.client.send(p);
  auto m = s.client.next(60s);
  ASSERT_TRUE(m.has_value());
  auto* prepared = std::get_if<rp::Prepared>(&*m);
  ASSERT_NE(prepared, nullptr) << (std::holds_alternative<rp::Error>(*m) ? std::get<rp::Error>(*m).message : "");
  EXPECT_EQ(prepared->device, disk.device);
  EXPECT_NE(prepared->mkfs_output.find("agcount=2"), std::string::npos) << prepared->mkfs_output;
  const auto line = mount_line(mnt);
  EXPECT_NE(line.find(" xfs "), std::string::npos) << line;
  EXPECT_NE(line.find("noatime"), std::string::npos) << line;

  rp::Run r;
  r.id = 2;
  r.copies = 2;
  r.passes = 1;
  r.duration_s = 3;
  r.workdir = (mnt / "work").string();
  r.pause_s = 0;
  s.client.send(r);
  auto res = s.client.next_of<rp::Result>(60s);
  ASSERT_TRUE(res.has_value());
  ASSERT_EQ(res->passes.size(), 1u);
  const auto& c = res->passes[0].counters;
  EXPECT_GT(res->passes[0].loops, 0u);
  EXPECT_EQ(res->failures, 0u);
  // Every loop creates and removes 4 files: inodes go through inactivation.
  ASSERT_TRUE(c.tracepoints.count("xfs:xfs_inode_set_need_inactive")) << "event present on this kernel";
  EXPECT_GE(c.tracepoints.at("xfs:xfs_inode_set_need_inactive"), res->passes[0].loops * 4 / 2);
  EXPECT_GT(c.tracepoints.at("xfs:xfs_inodegc_queue"), 0u);
  // Per-device XFS stats: directory operations and vnode activity of the loops.
  EXPECT_GE(c.xfs_stats.count("dir.1"), 1u) << "dir creates";
  EXPECT_GE(c.xfs_stats.at("dir.1"), res->passes[0].loops * 4);
}

// Where the load's inodes land on a real XFS with 4 allocation groups: UnixBench's one test
// directory keeps every inode in one AG; one directory per copy spreads them over the AGs.
TEST(Prepare, XfsPlacementSharedOneAgPerCopyOneAgPerCopy) {
  for (const rp::Layout layout : {rp::Layout::shared, rp::Layout::per_copy}) {
    Served s;
    ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
    const fs::path mnt = s.dir.path / "mnt";
    LoopDisk disk(s.dir.path, mnt);
    s.client.send(xfs_prepare(1, disk.device, {"-d", "agcount=4"}, mnt));
    ASSERT_TRUE(s.client.next_of<rp::Prepared>(60s).has_value());
    rp::Run r;
    r.id = 2;
    r.copies = 4;
    r.passes = 1;
    r.duration_s = 3;
    r.sample_interval_s = 0.5;
    r.pause_s = 0;
    r.layout = layout;
    r.workdir = (mnt / "work").string();
    s.client.send(r);
    auto res = s.client.next_of<rp::Result>(60s);
    ASSERT_TRUE(res.has_value());
    ASSERT_TRUE(res->passes.at(0).placement.has_value()) << "XFS: the pass says where its inodes went";
    const auto& pl = *res->passes[0].placement;
    EXPECT_EQ(pl.agcount, 4u);
    EXPECT_GT(pl.inodes, 4u) << rp::to_string(layout);
    EXPECT_EQ(pl.ags, layout == rp::Layout::shared ? 1u : 4u) << rp::to_string(layout) << ": " << pl.inodes << " inodes";
  }
}

TEST(Prepare, Ext4DefaultsAndRepeatPrepareRemounts) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  const fs::path mnt = s.dir.path / "mnt";
  LoopDisk disk(s.dir.path, mnt);
  rp::Prepare p;
  p.id = 1;
  p.device = disk.device;
  p.fs = "ext4";
  p.mountpoint = mnt.string();
  for (rp::RequestId id : {1u, 2u}) {  // the second prepare unmounts and re-makes it
    p.id = id;
    s.client.send(p);
    auto prepared = s.client.next_of<rp::Prepared>(60s);
    ASSERT_TRUE(prepared.has_value());
    EXPECT_EQ(prepared->id, id);
    EXPECT_EQ(prepared->fs, "ext4");
    EXPECT_NE(mount_line(mnt).find(" ext4 "), std::string::npos);
  }
}

TEST(Prepare, MkfsFailureCarriesTheToolsOutput) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  const fs::path mnt = s.dir.path / "mnt";
  LoopDisk disk(s.dir.path, mnt);
  s.client.send(xfs_prepare(4, disk.device, {"-d", "agcount=0"}, mnt));
  auto m = s.client.next(60s);
  ASSERT_TRUE(m.has_value());
  auto* e = std::get_if<rp::Error>(&*m);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->code, rp::ErrorCode::failed);
  EXPECT_EQ(e->id, 4u);
  EXPECT_NE(e->message.find("mkfs.xfs"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("exit 1"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("agcount"), std::string::npos) << "mkfs.xfs's own complaint: " << e->message;
}

TEST(Prepare, MountFailureCarriesTheKernelsReason) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  const fs::path mnt = s.dir.path / "mnt";
  LoopDisk disk(s.dir.path, mnt);
  rp::Prepare p;
  p.id = 8;
  p.device = disk.device;
  p.fs = "xfs";
  p.mount_options = "rlab_bogus_option";
  p.mountpoint = mnt.string();
  s.client.send(p);
  auto e = s.client.next_of<rp::Error>(60s);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->id, 8u);
  EXPECT_NE(e->message.find("Invalid argument"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("rlab_bogus_option"), std::string::npos) << e->message;
  // The filesystem's own complaint, from the kernel log.
  EXPECT_NE(e->message.find("xfs: Unknown parameter 'rlab_bogus_option'"), std::string::npos) << e->message;
}

TEST(Prepare, UnknownSerialAndMissingDevice) {
  Served s;
  ASSERT_TRUE(s.client.next_of<rp::Hello>().has_value());
  rp::Prepare p;
  p.id = 5;
  p.serial = "rlab-no-such-disk";
  p.fs = "xfs";
  p.mountpoint = (s.dir.path / "mnt").string();
  s.client.send(p);
  auto e = s.client.next_of<rp::Error>();
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("prepare.serial: no disk in /sys/block has serial \"rlab-no-such-disk\""),
            std::string::npos)
      << e->message;
  p.id = 6;
  p.serial.reset();
  p.device = "/dev/rlab-missing";
  s.client.send(p);
  e = s.client.next_of<rp::Error>();
  ASSERT_TRUE(e.has_value());
  EXPECT_NE(e->message.find("/dev/rlab-missing: No such file"), std::string::npos) << e->message;
}

TEST(Prepare, FindDiskBySerialInASysfsTree) {
  TempDir t;
  fs::create_directories(t.path / "vda");
  fs::create_directories(t.path / "vdb");
  fs::create_directories(t.path / "loop0");  // no serial file
  rlab::agent::write_file(t.path / "vda" / "serial", "rlab-root\n");
  rlab::agent::write_file(t.path / "vdb" / "serial", "rlab-test\n");
  EXPECT_EQ(rlab::agent::find_disk_by_serial("rlab-test", t.path, "/dev"), "/dev/vdb");
  EXPECT_EQ(rlab::agent::find_disk_by_serial("rlab-root", t.path, "/dev"), "/dev/vda");
  EXPECT_FALSE(rlab::agent::find_disk_by_serial("rlab", t.path, "/dev").has_value());
}

TEST(Prepare, MountOptionsSplitIntoFlagsAndData) {
  auto m = rlab::agent::parse_mount_options("noatime,inode64,logbsize=256k,nodiratime,rw");
  EXPECT_EQ(m.flags, static_cast<unsigned long>(MS_NOATIME | MS_NODIRATIME));
  EXPECT_EQ(m.data, "inode64,logbsize=256k");
  EXPECT_EQ(rlab::agent::parse_mount_options("").flags, 0u);
  EXPECT_EQ(rlab::agent::parse_mount_options("defaults").data, "");
}

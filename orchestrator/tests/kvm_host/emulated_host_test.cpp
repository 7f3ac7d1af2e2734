// The emulated KVM host's command line, URI and recipe (no QEMU started here; the real host
// is RealKvmHost.*).
#include "kvm_host/emulated_host.hpp"
#include "kvm_host/host_images.hpp"
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace rlab::kvm_host;

namespace {

std::string after(const std::vector<std::string>& argv, const std::string& flag, int nth = 0) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i)
    if (argv[i] == flag && nth-- == 0) return argv[i + 1];
  return "";
}

}  // namespace

TEST(EmulatedHost, QemuGivesTheGuestEl2AndOnlyALoopbackPortIn) {
  HostConfig cfg;
  cfg.cpus = 2;
  cfg.memory_mib = 3072;
  const auto argv = qemu_argv(cfg, "/c/Image", "/c/root.img", 40022, "/s");
  EXPECT_EQ(argv[0], "qemu-system-aarch64");
  EXPECT_EQ(after(argv, "-machine"), "virt,virtualization=on,gic-version=3");
  EXPECT_EQ(after(argv, "-cpu"), "max,pauth=off");
  EXPECT_EQ(after(argv, "-smp"), "2");
  EXPECT_EQ(after(argv, "-m"), "3072");
  EXPECT_EQ(after(argv, "-kernel"), "/c/Image");
  // The root filesystem is the cache's image, never written: a snapshot.
  EXPECT_EQ(after(argv, "-drive"), "file=/c/root.img,format=raw,if=none,id=root,snapshot=on");
  // The only way in: this machine's loopback, to the host's sshd.
  EXPECT_EQ(after(argv, "-netdev"), "user,id=net0,hostfwd=tcp:127.0.0.1:40022-:22");
  EXPECT_EQ(after(argv, "-serial"), "file:/s/console.log");
  EXPECT_EQ(after(argv, "-pidfile"), "/s/qemu.pid");
  EXPECT_EQ(after(argv, "-name"), "rlab-kvm-host");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "-daemonize"), argv.end());
}

TEST(EmulatedHost, TheUriAuthenticatesWithTheKeyAndPinsTheHostKey) {
  const std::string uri = libvirt_uri(40022, "/var/state/rlab kvm");
  EXPECT_EQ(uri,
            "qemu+libssh://root@127.0.0.1:40022/system?keyfile=/var/state/rlab%20kvm/id_ed25519"
            "&known_hosts=/var/state/rlab%20kvm/known_hosts&known_hosts_verify=normal&sshauth=privkey");
}

TEST(EmulatedHost, NoStateMeansNothingRunsAndStopIsANoOp) {
  const auto dir = std::filesystem::temp_directory_path() / ("rlab-kvm-host-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  EXPECT_FALSE(read_state(dir).has_value());
  EXPECT_FALSE(stop(dir));
  // A state whose pid is not the host's QEMU (here: this test) is not alive and is not killed.
  HostState s;
  s.pid = ::getpid();
  EXPECT_FALSE(alive(s));
  std::filesystem::remove_all(dir);
}

TEST(HostImages, TheShippedRecipeLetsInOnlyTheKeyAndChangesTheKeyWhenAFileDoes) {
  const auto dir = std::filesystem::path(RLAB_SOURCE_DIR) / "images" / "kvm-host";
  DiskRecipe r = load_disk_recipe(dir);
  EXPECT_EQ(r.userland.suite, "bookworm");
  for (const char* p : {"libvirt-daemon", "libvirt-daemon-driver-qemu", "qemu-system-arm", "openssh-server"})
    EXPECT_NE(std::find(r.userland.packages.begin(), r.userland.packages.end(), p), r.userland.packages.end()) << p;
  const auto sshd = std::find_if(r.files.begin(), r.files.end(), [](const auto& f) { return f.path == "etc/ssh/sshd_config"; });
  ASSERT_NE(sshd, r.files.end());
  EXPECT_NE(sshd->data.find("PasswordAuthentication no"), std::string::npos);
  EXPECT_NE(sshd->data.find("UsePAM no"), std::string::npos);
  const auto link = std::find_if(r.files.begin(), r.files.end(),
                                 [](const auto& f) { return f.path == "etc/libvirt/storage/autostart/default.xml"; });
  ASSERT_NE(link, r.files.end());
  EXPECT_TRUE(link->symlink);
  const std::string key = disk_key(r);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(disk_key(load_disk_recipe(dir)), key);
  r.files.front().data += "\n";
  EXPECT_NE(disk_key(r), key);
  // The host kernel is the default matrix's 6.12 guest kernel (one build, one cache entry):
  // the same source, 64 KiB pages, no fragment or patch of its own (base.config has KVM).
  const auto k = host_kernel_spec();
  const auto m = rlab::matrix::load_matrix(std::filesystem::path(RLAB_SOURCE_DIR) / "matrix.yaml");
  const auto& guest = m.kernels.at("6.12");
  EXPECT_EQ(k.page_size_kib, 64u);
  EXPECT_EQ(k.page_size_kib, guest.page_size_kib);
  EXPECT_EQ(k.source.kind, guest.source.kind);
  EXPECT_EQ(k.source.debian_version, guest.source.debian_version);
  EXPECT_EQ(k.source.debian_suite, guest.source.debian_suite);
  EXPECT_EQ(k.fragments, guest.fragments);
  EXPECT_EQ(k.patches, guest.patches);
  EXPECT_TRUE(k.fragments.empty());
}

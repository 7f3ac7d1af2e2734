#pragma once
// Test support for the tests on the emulated arm64 KVM host (docs/kvm-host.md): their small
// matrix, a shell on the host, and the aarch64 rlab staged for copying in.
#include "real_lab.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <filesystem>
#include <string>

namespace rlab::testing {

/// SmallMatrix's defaults with the guest and host of matrices/kvm-host.yaml: `accel: kvm`,
/// `cpu: host`, real time, 512 MiB, a 1 GiB disk, 64 KiB host pages, vCPUs and emulator
/// threads pinned, one 10 s pass; the host named by ${RLAB_KVM_HOST_URI} (budget 2 vCPUs,
/// files as volumes, a 300 s hello timeout and one retry: its nested guests boot slowly).
inline SmallMatrix kvm_host_matrix() {
  SmallMatrix m;
  m.duration_s = 10;
  m.guest = "{memory_mib: 512, cpu: host, accel: kvm, clock: realtime, disk_gib: 1, host_page_size: 64k, "
            "pinning: {vcpus: auto, emulator: vcpus}}";
  m.hosts = {{"${RLAB_KVM_HOST_URI}", 2, ""}};
  m.remote_files = "volumes";
  m.hello_timeout_s = 300;
  m.hello_retries = 1;
  return m;
}

/// `command` run by root's login shell on the emulated host listening on loopback `port` for ssh,
/// with the key and known_hosts `rlab kvm-host start` made in `state`/kvm-host, `input` on its
/// stdin; up to `timeout`.
inline util::ProcessResult on_the_host(unsigned port, const std::filesystem::path& state, const std::string& command,
                                       const std::string& input = "",
                                       std::chrono::minutes timeout = std::chrono::minutes(20)) {
  util::ProcessOptions o;
  o.timeout = timeout;
  o.stdin_data = input;
  return util::run({"ssh", "-i", (state / "kvm-host" / "id_ed25519").string(), "-o",
                    "UserKnownHostsFile=" + (state / "kvm-host" / "known_hosts").string(), "-o", "BatchMode=yes",
                    "-p", std::to_string(port), "root@127.0.0.1", command},
                   o);
}

/// Copies the aarch64 rlab of the fixture rlab_aarch64_bundle (scripts/build-aarch64-rlab.sh:
/// wrapper `rlab`, bin/, lib/, share/rlab) to `prefix`, its program stripped (the copy into the
/// emulated host is smaller), with this lab's static agent as lib/rlab/rlab-agent. Fails the
/// test when the bundle was not built.
inline void stage_aarch64_rlab(const std::filesystem::path& prefix) {
  namespace fs = std::filesystem;
  const fs::path bundle = fs::path(RLAB_BINARY_DIR) / "aarch64-rlab-bundle";
  ASSERT_TRUE(fs::is_regular_file(bundle / "bin" / "rlab")) << bundle << ": the ctest fixture rlab_aarch64_bundle builds it";
  fs::create_directories(prefix.parent_path());
  fs::copy(bundle, prefix, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  ASSERT_TRUE(util::run({"aarch64-linux-gnu-strip", (prefix / "bin/rlab").string()}).ok());
  fs::create_directories(prefix / "lib/rlab");
  fs::copy_file(agent_binary(), prefix / "lib/rlab/rlab-agent", fs::copy_options::overwrite_existing);
}

/// The repository's tracked files (`git ls-files`) as they are in the working tree, copied to `to`.
inline void copy_sources(const std::filesystem::path& to) {
  std::filesystem::create_directories(to);
  util::ProcessOptions o;
  o.cwd = RLAB_SOURCE_DIR;
  const auto list = to.string() + ".files";
  util::write_file_atomic(list, util::run_checked({"git", "ls-files", "-z"}, o).output);
  const auto tar = to.string() + ".src.tar";
  util::run_checked({"tar", "-C", RLAB_SOURCE_DIR, "--null", "-T", list, "-cf", tar});
  util::run_checked({"tar", "-C", to.string(), "-xf", tar});
  std::filesystem::remove(list);
  std::filesystem::remove(tar);
}

/// Packs `stage` (a tree laid out from /) and unpacks it over the emulated host's root.
inline void copy_to_the_host(unsigned port, const std::filesystem::path& state, const std::filesystem::path& stage) {
  const auto tar = stage.string() + ".tar";
  ASSERT_TRUE(util::run({"tar", "-C", stage.string(), "-cf", tar, "."}).ok());
  const auto copied = on_the_host(port, state, "tar -C / -xmf -", util::read_file(tar));
  std::filesystem::remove(tar);
  ASSERT_TRUE(copied.ok()) << copied.output;
}

}  // namespace rlab::testing

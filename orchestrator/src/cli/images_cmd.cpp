// `rlab images build <kernel-name>` and `rlab images list`: the kernel Image + initramfs
// pipeline and its cache (see docs/images.md).
#include "build/artifact_cache.hpp"
#include "cli/command.hpp"
#include "cli/terminal_progress.hpp"
#include "image/guest_images.hpp"
#include "vm/selftest.hpp"
#include "matrix/matrix.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <unistd.h>

namespace rlab::cli {
namespace {

std::string human_bytes(std::uintmax_t b) {
  if (b >= (1u << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1 << 20));
  if (b >= (1u << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1 << 10));
  return fmt::format("{} B", b);
}

// The matrix's kernel `name`, or nullopt after printing why (exit code kUsage).
std::optional<build::KernelSpec> find_kernel(const std::string& name, const std::string& matrix_file) {
  matrix::Matrix m;
  try {
    m = matrix::load_matrix(matrix_file);
  } catch (const matrix::MatrixError& e) {
    std::cerr << "rlab images: " << e.what() << "\n";
    return std::nullopt;
  }
  auto it = m.kernels.find(name);
  if (it == m.kernels.end()) {
    std::string known;
    for (const auto& [k, spec] : m.kernels) known += (known.empty() ? "" : ", ") + k;
    std::cerr << fmt::format("rlab images: kernel '{}' is not in {} (kernels: {})\n", name,
                             matrix_file, known);
    return std::nullopt;
  }
  return it->second;
}

image::GuestImages images_for(const build::KernelSpec& spec, const std::string& agent) {
  auto agent_path = agent.empty() ? image::default_agent_binary() : std::filesystem::path(agent);
  return image::ensure_guest_images(spec, agent_path, terminal_progress());
}

int build_images(const std::string& kernel, const std::string& matrix_file, const std::string& agent) {
  auto spec = find_kernel(kernel, matrix_file);
  if (!spec) return kUsage;
  auto g = images_for(*spec, agent);
  nlohmann::json out{{"kernel", kernel},
                     {"kernel_image", g.kernel_image.string()},
                     {"initramfs", g.initramfs.string()},
                     {"kernel_key", g.kernel_key},
                     {"image_key", g.image_key},
                     {"kernel_release", g.kernel_release},
                     {"source_commit", g.source_commit},
                     {"config_sha256", g.config_sha256},
                     {"page_size_kib", g.page_size_kib},
                     {"origin", g.kernel_origin}};
  std::cout << out.dump(2) << "\n";
  return kOk;
}

int selftest(const std::string& kernel, const std::string& matrix_file, const std::string& agent,
             unsigned vcpus) {
  auto spec = find_kernel(kernel, matrix_file);
  if (!spec) return kUsage;
  auto g = images_for(*spec, agent);
  vm::SelftestOptions o;
  o.vcpus = vcpus;
  vm::Connection conn("qemu:///system");
  auto r = vm::run_selftest(conn, g.kernel_image, g.initramfs, o);
  std::string fs_list, events;
  for (const auto& f : r.filesystems) fs_list += (fs_list.empty() ? "" : " ") + f;
  for (const auto& e : r.tracepoints) events += (events.empty() ? "" : " ") + e;
  std::cout << fmt::format(
      "kernel {} ({}), {} vCPUs\npage size {} B, nproc {}\nboot to /init {:.2f} s (guest), "
      "domain start to power-off {:.2f} s\nfilesystems: {}\ninodegc events: {}\n",
      r.kernel_release, kernel, vcpus, r.page_size.value_or(0), r.nproc.value_or(0),
      r.init_uptime_s.value_or(-1), r.wall_seconds, fs_list, events);
  bool ok = r.page_size == g.page_size_kib * 1024ul && r.nproc == vcpus;
  if (!ok) std::cerr << "rlab images selftest: the guest's page size or CPU count is not what was asked\n";
  return ok ? kOk : kFailure;
}

// Where a cached kernel came from, short: "debian 6.12.117-1", "git 8354d86b64ca",
// "prebuilt Image sha256:1a2b3c4d5e6f", with ", .config sha256:<12>" for a full `config:` and
// the count of options rlab changed in it.
std::string kernel_source_summary(const nlohmann::json& m) {
  const std::string id = m.value("source_identity", "");
  const std::string commit = m.value("source_commit", "?");
  std::string out;
  if (id.rfind("image:", 0) == 0) out = "prebuilt Image " + commit.substr(0, 7 + 12);
  else if (id.rfind("git:", 0) == 0) out = "git " + commit.substr(0, 12);
  else out = "debian " + commit;
  if (m.contains("prebuilt") && !m["prebuilt"].value("config_sha256", "").empty())
    out += ", its .config";
  else if (m.contains("prebuilt"))
    out += ", no .config";
  if (m.contains("base_config"))
    out += fmt::format(", .config sha256:{} ({} changed)", m["base_config"].value("sha256", "").substr(0, 12),
                       m.value("config_changes", 0u));
  return out;
}

int list_images(bool as_json) {
  auto entries = build::list_cache(util::cache_dir());
  if (as_json) {
    auto arr = nlohmann::json::array();
    for (const auto& e : entries)
      arr.push_back({{"kind", e.kind}, {"key", e.key}, {"dir", e.dir.string()}, {"bytes", e.bytes},
                     {"manifest", e.manifest}});
    std::cout << arr.dump(2) << "\n";
    return kOk;
  }
  std::cout << fmt::format("{:<10} {:<16} {:>10}  {}\n", "KIND", "KEY", "SIZE", "WHAT");
  for (const auto& e : entries) {
    std::string what;
    const auto& m = e.manifest;
    if (m.is_object() && e.kind == build::CacheKind::kernel)
      what = fmt::format("{} {} ({}, {}K pages{})", m.value("name", "?"), m.value("kernel_release", "?"),
                         kernel_source_summary(m), m.value("page_size_kib", 0u),
                         m.value("patchset", "").empty() ? "" : ", " + m.value("patchset", ""));
    else if (m.is_object() && m.contains("what"))
      what = m.value("what", "");
    else if (m.is_object())
      what = fmt::format("{} {} ({} packages)", e.kind == build::CacheKind::host_disk ? "KVM host root filesystem" : "initramfs",
                         m.value("suite", "?"), m.contains("packages") ? m["packages"].size() : 0);
    std::cout << fmt::format("{:<10} {:<16} {:>10}  {}\n", build::to_string(e.kind), e.key.substr(0, 16),
                             human_bytes(e.bytes), what);
  }
  std::cout << fmt::format("cache: {}\n", util::cache_dir().string());
  return kOk;
}

Registrar images_registrar(30, [](CLI::App& app, int* exit_code) {
  auto* images = app.add_subcommand("images", "Build and list kernel Images and guest initramfs");
  images->require_subcommand(1);

  auto* build = images->add_subcommand("build", "Build (or take from the cache) a matrix kernel and the initramfs");
  auto kernel = std::make_shared<std::string>();
  auto matrix_file = std::make_shared<std::string>((util::source_dir() / "matrix.yaml").string());
  auto agent = std::make_shared<std::string>();
  build->add_option("kernel", *kernel, "Kernel name from the matrix's `kernels:`")->required();
  build->add_option("--matrix", *matrix_file, "Matrix file")->capture_default_str();
  build->add_option("--agent", *agent, "Static aarch64 rlab-agent (default: $RLAB_AGENT_BINARY, "
                                       "else build/aarch64/guest-agent/rlab-agent)");
  build->final_callback([=] { *exit_code = build_images(*kernel, *matrix_file, *agent); });

  auto* st = images->add_subcommand("selftest", "Boot a matrix kernel + initramfs under QEMU (TCG) in /init's "
                                                "self-test mode and print what the guest reports");
  auto st_kernel = std::make_shared<std::string>();
  auto st_matrix = std::make_shared<std::string>((util::source_dir() / "matrix.yaml").string());
  auto st_agent = std::make_shared<std::string>();
  auto vcpus = std::make_shared<unsigned>(1);
  st->add_option("kernel", *st_kernel, "Kernel name from the matrix's `kernels:`")->required();
  st->add_option("--matrix", *st_matrix, "Matrix file")->capture_default_str();
  st->add_option("--agent", *st_agent, "Static aarch64 rlab-agent");
  st->add_option("--vcpus", *vcpus, "vCPUs (-smp)")->check(CLI::Range(1u, 512u))->capture_default_str();
  st->final_callback([=] { *exit_code = selftest(*st_kernel, *st_matrix, *st_agent, *vcpus); });

  auto* list = images->add_subcommand("list", "List cached kernels and initramfs with sizes and keys");
  auto as_json = std::make_shared<bool>(false);
  list->add_flag("--json", *as_json, "JSON output");
  list->final_callback([=] { *exit_code = list_images(*as_json); });
});

}  // namespace
}  // namespace rlab::cli

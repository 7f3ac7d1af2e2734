// load_matrix(): the top level of the schema (docs/matrix.md).
#include "matrix/gaps.hpp"
#include "matrix/guest_clock.hpp"
#include "matrix/kernels.hpp"
#include "matrix/pinning.hpp"
#include "matrix/yaml_check.hpp"
#include "matrix/yaml_document.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "rlab/protocol/messages.hpp"
#include "build/cache_budget.hpp"  // kMinBudgetGiB
#include <fmt/format.h>
#include "vm/domain_xml.hpp"  // kMaxVcpus
#include "util/usage_error.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdio>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace rlab::matrix {
namespace {

namespace fs = std::filesystem;
using detail::Checker;

std::string derive_label(const std::vector<std::string>& words) {
  if (words.empty()) return "defaults";
  std::string values, all;
  for (const auto& w : words) {
    all += (all.empty() ? "" : ",") + w;
    if (!w.empty() && w[0] != '-') values += (values.empty() ? "" : ",") + w;
  }
  return values.empty() ? all : values;
}

std::vector<Filesystem> parse_filesystems(const Checker& ck, const YAML::Node& n) {
  ck.check_list(n, "axes.filesystem");
  std::vector<Filesystem> out;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string what = "axes.filesystem[" + std::to_string(i) + "]";
    const YAML::Node& e = n[i];
    ck.check_map(e, what, {"fs", "mkfs", "mount"});
    Filesystem base;
    const YAML::Node fsn = ck.required(e, what, "fs");
    const std::string word = ck.string(fsn, what + ".fs");
    const auto fs = parse_fs(word);
    if (!fs) ck.fail(fsn, what + ".fs: '" + word + "' is not supported (xfs, ext4)");
    base.fs = *fs;
    if (e["mount"]) base.mount_options = ck.string(e["mount"], what + ".mount");
    std::vector<std::pair<Filesystem, YAML::Node>> variants;
    if (!e["mkfs"]) {
      Filesystem f = base;
      f.label = "defaults";
      variants.emplace_back(f, e);
    } else {
      const YAML::Node& sets = e["mkfs"];
      ck.check_list(sets, what + ".mkfs");
      for (std::size_t j = 0; j < sets.size(); ++j) {
        const std::string sw = what + ".mkfs[" + std::to_string(j) + "]";
        const YAML::Node& s = sets[j];
        Filesystem f = base;
        if (s.IsMap()) {
          ck.check_map(s, sw, {"label", "options"});
          f.mkfs_options = ck.strings(ck.required(s, sw, "options"), sw + ".options");
          f.label = s["label"] ? ck.string(s["label"], sw + ".label") : derive_label(f.mkfs_options);
        } else if (s.IsSequence()) {
          f.mkfs_options = ck.strings(s, sw);
          f.label = derive_label(f.mkfs_options);
        } else {
          ck.fail(s, sw + ": expected a list of mkfs argv words (e.g. [-d, agcount=4]) or "
                          "{label, options}");
        }
        if (f.label.empty()) ck.fail(s, sw + ": empty label");
        variants.emplace_back(f, s);
      }
    }
    for (auto& [f, node] : variants) {
      if (!ids.insert(f.id()).second)
        ck.fail(node, what + ": filesystem variant '" + f.id() + "' appears twice");
      out.push_back(std::move(f));
    }
  }
  return out;
}

/// What `runner: bare` cannot do: its guest has no agent, so UnixBench's own input in its one
/// shared test directory, and nothing collected beside the load (`attribution: off`, the
/// default there).
void check_bare(const Checker& ck, const YAML::Node& e, const std::string& what, Workload& w) {
  if (e["input"]) ck.fail(e["input"], what + ".input: 'runner: bare' sorts UnixBench's own testdir/sort.src");
  if (w.layout != Layout::kShared) ck.fail(e["layout"], what + ".layout: 'runner: bare' runs UnixBench's one shared test directory");
  if (!e["attribution"]) w.attribution = Attribution::kOff;
  else if (w.attribution != Attribution::kOff)
    ck.fail(e["attribution"], what + ".attribution: 'runner: bare' has no agent to collect it (only 'off')");
}

/// `layout`, `input`, `runner` and `unixbench` of workload entry `e` (docs/matrix.md).
void parse_load_options(const Checker& ck, const YAML::Node& e, const std::string& what,
                        const fs::path& base_dir, bool check_paths, Workload& w) {
  if (const YAML::Node l = e["layout"]) {
    const std::string s = ck.string(l, what + ".layout");
    if (s == "shared") w.layout = Layout::kShared;
    else if (s == "per-copy") w.layout = Layout::kPerCopy;
    else ck.fail(l, what + ".layout: '" + s + "' is not a layout (shared, per-copy)");
  }
  if (const YAML::Node a = e["attribution"]) {
    const std::string s = ck.string(a, what + ".attribution");
    if (s == "off") w.attribution = Attribution::kOff;
    else if (s == "counts") w.attribution = Attribution::kCounts;
    else if (s == "stacks") w.attribution = Attribution::kStacks;
    else if (s == "full") w.attribution = Attribution::kFull;
    else ck.fail(a, what + ".attribution: '" + s + "' is not an attribution level (off, counts, stacks, full)");
  }
  if (e["attribution_top"])
    w.attribution_top = static_cast<unsigned>(ck.integer(e["attribution_top"], what + ".attribution_top", 1, 200));
  if (const YAML::Node si = e["sample_interval_s"]) {
    const bool zero = si.IsScalar() && si.Tag() == "?" && (si.Scalar() == "0" || si.Scalar() == "0.0");  // plain 0
    w.sample_interval_s = zero ? 0.0 : ck.number(si, what + ".sample_interval_s", 0, 600);
    if (w.sample_interval_s > 0 && w.sample_interval_s < 0.1)
      ck.fail(si, what + ".sample_interval_s: 0 (no periodic samples) or 0.1..600 seconds");
  }
  if (const YAML::Node r = e["runner"]) {
    const std::string s = ck.string(r, what + ".runner");
    if (s == "rlab") w.runner = Runner::kRlab;
    else if (s == "unixbench") w.runner = Runner::kUnixbench;
    else if (s == "bare") w.runner = Runner::kBare;
    else ck.fail(r, what + ".runner: '" + s + "' is not a runner (rlab, unixbench, bare)");
  }
  const bool ub_scripts = runs_unixbench_scripts(w.runner);
  if (w.runner == Runner::kBare) check_bare(ck, e, what, w);
  if (const YAML::Node u = e["unixbench"]) {
    if (!ub_scripts) ck.fail(u, what + ".unixbench: only with 'runner: unixbench' or 'runner: bare'");
    w.unixbench_dir = detail::resolve_path(ck, u, what + ".unixbench", base_dir, check_paths, true);
    if (check_paths)
      for (const char* f : {"src/looper.c", "src/timeit.c", "pgms/multi.sh", "pgms/tst.sh", "testdir/sort.src"})
        if (std::error_code ec; !fs::is_regular_file(w.unixbench_dir / f, ec))
          ck.fail(u, what + ".unixbench: " + (w.unixbench_dir / f).string() + " is missing (a UnixBench directory holds src/, pgms/ and testdir/)");
  } else if (ub_scripts) {
    ck.fail(e, what + ": 'runner: " + std::string(to_string(w.runner)) + "' needs 'unixbench: <the UnixBench directory>'");
  }
  if (ub_scripts && (w.duration_s < 1 || w.duration_s != static_cast<double>(static_cast<long>(w.duration_s))))
    ck.fail(e["duration_s"] ? e["duration_s"] : e, what + ".duration_s: UnixBench's looper takes whole seconds >= 1");
  if (const YAML::Node in = e["input"]) {
    w.input_path = detail::resolve_path(ck, in, what + ".input", base_dir, check_paths, false);
    if (check_paths) {
      std::error_code ec;
      const auto size = fs::file_size(*w.input_path, ec);
      if (ec || size > protocol::kMaxInputBytes)
        ck.fail(in, what + ".input: " + w.input_path->string() + " is " + (ec ? "unreadable" : std::to_string(size) + " bytes") +
                        "; at most " + std::to_string(protocol::kMaxInputBytes) + " bytes are shipped to the guest");
      try {
        w.input = util::read_file(*w.input_path);
      } catch (const std::exception& x) {
        ck.fail(in, what + ".input: " + x.what());
      }
    }
  }
  const bool generated = !w.input && w.runner == Runner::kRlab;
  if (generated) w.input_id = std::string("sha256:") + protocol::kGeneratedInputSha256;
  else if (w.input) w.input_id = "sha256:" + util::sha256_hex(*w.input);
  else if (ub_scripts && check_paths) {  // UnixBench's own input, shipped like any other
    try {
      w.input = util::read_file(w.unixbench_dir / "testdir" / "sort.src");
      w.input_id = "sha256:" + util::sha256_hex(*w.input);
    } catch (const std::exception& x) {
      ck.fail(e["unixbench"], what + ".unixbench: " + x.what());
    }
  }
}

std::vector<Workload> parse_workloads(const Checker& ck, const YAML::Node& n, const fs::path& base_dir,
                                      bool check_paths) {
  ck.check_list(n, "axes.workload");
  std::vector<Workload> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string what = "axes.workload[" + std::to_string(i) + "]";
    const YAML::Node& e = n[i];
    ck.check_map(e, what, {"type", "name", "copies", "passes", "warmup_passes", "duration_s",
                          "drop_caches", "layout", "input", "runner", "unixbench", "attribution",
                          "attribution_top", "sample_interval_s"});
    Workload w;
    const YAML::Node t = ck.required(e, what, "type");
    w.kind = ck.string(t, what + ".type");
    if (w.kind == "shell1") w.scripts_per_loop = 1;
    else if (w.kind == "shell8") w.scripts_per_loop = 8;
    else ck.fail(t, what + ".type: '" + w.kind + "' is not a workload (shell1, shell8)");
    if (const YAML::Node c = e["copies"]) {
      if (c.IsScalar() && c.Scalar() == "vcpus") w.copies.reset();
      else w.copies = static_cast<unsigned>(ck.integer(c, what + ".copies (a number or 'vcpus')", 1, protocol::kMaxCopies));
    }
    if (e["passes"]) w.passes = static_cast<unsigned>(ck.integer(e["passes"], what + ".passes", 1, 100));
    if (e["warmup_passes"])
      w.warmup_passes = static_cast<unsigned>(ck.integer(e["warmup_passes"], what + ".warmup_passes", 0, 10));
    if (e["drop_caches"]) w.drop_caches = ck.boolean(e["drop_caches"], what + ".drop_caches");
    if (e["duration_s"]) w.duration_s = ck.number(e["duration_s"], what + ".duration_s", 0, 86400);
    parse_load_options(ck, e, what, base_dir, check_paths, w);
    if (e["name"]) {
      w.name = ck.string(e["name"], what + ".name");
      if (!detail::valid_kernel_name(w.name))
        ck.fail(e["name"], what + ".name: '" + w.name + "' is not a valid name (letters, digits, . _ + -)");
    } else {
      w.name = (w.runner == Runner::kRlab ? "" : std::string(to_string(w.runner)) + "-") + w.kind + (w.copies ? "-c" + std::to_string(*w.copies) : "");
    }
    if (!names.insert(w.name).second)
      ck.fail(e, what + ": workload '" + w.name + "' appears twice (give each a distinct 'name')");
    for (const auto& o : out)  // one UnixBench per guest image (image/unixbench.hpp)
      if (!w.unixbench_dir.empty() && !o.unixbench_dir.empty() && o.unixbench_dir != w.unixbench_dir)
        ck.fail(e["unixbench"], what + ".unixbench: a matrix runs one UnixBench directory, '" + o.unixbench_dir.string() + "' already");
    out.push_back(std::move(w));
  }
  return out;
}

/// The bare guest's /init makes the filesystem with mkfs's defaults and gets its mount options
/// as one word of the kernel command line (run/bare_guest.hpp): refuses other filesystem
/// variants when a workload has `runner: bare`.
void check_bare_filesystems(const Checker& ck, const YAML::Node& a, const Matrix& m) {
  const bool bare = std::any_of(m.workload_axis.begin(), m.workload_axis.end(),
                                [](const Workload& w) { return w.runner == Runner::kBare; });
  if (!bare) return;
  for (const auto& f : m.filesystem_axis) {
    if (!f.mkfs_options.empty())
      ck.fail(a["filesystem"], "axes.filesystem: '" + f.id() + "' has mkfs options; 'runner: bare' makes the filesystem with mkfs's defaults");
    if (f.mount_options.find_first_of(" \t\n\"'\\") != std::string::npos)
      ck.fail(a["filesystem"], "axes.filesystem: '" + f.id() + "': 'runner: bare' takes mount options without blanks or quotes");
  }
}

void parse_axes(const Checker& ck, const YAML::Node& a, Matrix& m, bool check_paths) {
  ck.check_map(a, "axes", {"kernel", "vcpus", "filesystem", "workload", "repeats"});
  const YAML::Node k = ck.required(a, "axes", "kernel");
  ck.check_list(k, "axes.kernel");
  for (std::size_t i = 0; i < k.size(); ++i) {
    const std::string name = ck.string(k[i], "axes.kernel[" + std::to_string(i) + "]");
    if (!m.kernels.count(name)) {
      std::string known;
      for (const auto& [n, s] : m.kernels) known += (known.empty() ? "" : ", ") + n;
      ck.fail(k[i], "axes.kernel: unknown kernel '" + name + "' (defined: " + known + ")");
    }
    if (std::find(m.kernel_axis.begin(), m.kernel_axis.end(), name) != m.kernel_axis.end())
      ck.fail(k[i], "axes.kernel: '" + name + "' appears twice");
    m.kernel_axis.push_back(name);
  }
  const YAML::Node v = ck.required(a, "axes", "vcpus");
  ck.check_list(v, "axes.vcpus");
  for (std::size_t i = 0; i < v.size(); ++i) {
    auto n = static_cast<unsigned>(ck.integer(v[i], "axes.vcpus[" + std::to_string(i) + "]", 1, vm::kMaxVcpus));
    if (std::find(m.vcpus_axis.begin(), m.vcpus_axis.end(), n) != m.vcpus_axis.end())
      ck.fail(v[i], "axes.vcpus: " + std::to_string(n) + " appears twice");
    m.vcpus_axis.push_back(n);
  }
  m.filesystem_axis = parse_filesystems(ck, ck.required(a, "axes", "filesystem"));
  m.workload_axis = parse_workloads(ck, ck.required(a, "axes", "workload"), m.path.parent_path(), check_paths);
  if (const YAML::Node r = a["repeats"]; r && r.IsMap()) {
    ck.check_map(r, "axes.repeats", {"icount", "realtime"});
    const auto icount = static_cast<unsigned>(ck.integer(ck.required(r, "axes.repeats", "icount"), "axes.repeats.icount", 1, 1000));
    const auto realtime = static_cast<unsigned>(ck.integer(ck.required(r, "axes.repeats", "realtime"), "axes.repeats.realtime", 1, 1000));
    m.repeats_by_clock = {icount, realtime};
    m.repeats = std::max(icount, realtime);  // until the clock is settled (settle_clock)
  } else if (r) {
    m.repeats = static_cast<unsigned>(ck.integer(r, "axes.repeats", 1, 1000));
  }
  check_bare_filesystems(ck, a, m);
  // Each factor is at most a few thousand entries, so the product fits in 64 bits.
  const std::uint64_t boots = std::uint64_t{m.kernel_axis.size()} * m.filesystem_axis.size() *
                              m.vcpus_axis.size() * m.workload_axis.size() * m.repeats;
  if (boots > kMaxBoots)
    ck.fail(a, "axes: the matrix expands to " + std::to_string(boots) + " boots (kernels x filesystem variants x vcpus x workloads x repeats); the limit is " + std::to_string(kMaxBoots) + " (split it into several matrices)");
}

void parse_guest(const Checker& ck, const YAML::Node& g, Guest& guest) {
  ck.check_map(g, "guest", {"memory_mib", "cpu", "accel", "disk_gib", "disk", "clock", "icount_shift", "pinning",
                            "host_page_size"});
  if (g["memory_mib"]) guest.memory_mib = static_cast<unsigned>(ck.integer(g["memory_mib"], "guest.memory_mib", 128, 1 << 22));
  if (g["cpu"]) {
    guest.cpu_model = ck.string(g["cpu"], "guest.cpu");
    if (guest.cpu_model.empty()) ck.fail(g["cpu"], "guest.cpu: empty CPU model");
  }
  if (g["accel"]) {
    const std::string s = ck.string(g["accel"], "guest.accel");
    if (s == "auto") guest.accel = Accel::kAuto;
    else if (s == "kvm") guest.accel = Accel::kKvm;
    else if (s == "tcg") guest.accel = Accel::kTcg;
    else ck.fail(g["accel"], "guest.accel: '" + s + "' is not one of auto, kvm, tcg");
  }
  if (g["disk_gib"]) guest.disk_gib = static_cast<unsigned>(ck.integer(g["disk_gib"], "guest.disk_gib", 1, 4096));
  if (const YAML::Node d = g["disk"]) {
    ck.check_map(d, "guest.disk", {"backing"});
    const YAML::Node b = ck.required(d, "guest.disk", "backing");
    const std::string s = ck.string(b, "guest.disk.backing");
    if (s == "virtio") guest.disk_backing = DiskBacking::kVirtio;
    else if (s == "ram") guest.disk_backing = DiskBacking::kRam;
    else ck.fail(b, "guest.disk.backing: '" + s + "' is not one of virtio, ram");
    guest.disk_backing_given = true;
  }
  if (const YAML::Node h = g["host_page_size"]) {
    const std::string s = ck.string(h, "guest.host_page_size");
    if (s == "4k") guest.host_page_kib = 4;
    else if (s == "16k") guest.host_page_kib = 16;
    else if (s == "64k") guest.host_page_kib = 64;
    else if (s == "any") guest.host_page_kib = 0;
    else ck.fail(h, "guest.host_page_size: '" + s + "' is not one of 4k, 16k, 64k, any");
  }
  detail::parse_pinning(ck, g, guest);
}

unsigned local_cpus() {
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

bool local_uri(const std::string& uri) {
  return uri == "qemu:///system" || uri == "qemu:///session";
}

/// Why `uri` cannot be a host's libvirt URI, or "" when it can: rlab's domains are QEMU's, so
/// the scheme is `qemu` or `qemu+<transport>`; the rest uses RFC 3986's characters only (no
/// whitespace, control or non-ASCII byte: libvirt, ssh and the logs would each read it
/// differently) and is at most 2048 bytes.
std::string uri_problem(const std::string& uri) {
  constexpr std::size_t kMaxUri = 2048;
  if (uri.size() > kMaxUri)
    return "is " + std::to_string(uri.size()) + " bytes long, at most " + std::to_string(kMaxUri);
  static const std::string kAllowed =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%";
  for (std::size_t i = 0; i < uri.size(); ++i) {
    const auto c = static_cast<unsigned char>(uri[i]);
    if (kAllowed.find(static_cast<char>(c)) == std::string::npos || c == 0) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02x", c);
      return std::string("has the byte ") + byte + (c == ' ' ? " (a space)" : "") + " at offset " +
             std::to_string(i) + "; a URI holds no whitespace, control or non-ASCII byte (percent-encode it)";
    }
  }
  const std::size_t colon = uri.find("://");
  const std::string scheme = uri.substr(0, colon);
  if (colon == std::string::npos || (scheme != "qemu" && scheme.rfind("qemu+", 0) != 0) ||
      scheme.size() == 5)
    return "is not a libvirt URI of QEMU (qemu:///system, qemu+ssh://host/system, qemu+tcp://host/system)";
  return "";
}

/// `uri` with every `${NAME}` replaced by the environment variable NAME (A-Z, 0-9, _; not
/// starting with a digit), so a matrix can name a host whose URI is made at run time (the
/// emulated KVM host's port and key: `rlab kvm-host uri`). Sets `why` and returns "" for a
/// `${` without a valid name and `}`, or a variable that is not set or empty.
std::string expand_env(const std::string& uri, std::string& why) {
  std::string out;
  for (std::size_t i = 0; i < uri.size();) {
    if (uri.compare(i, 2, "${") != 0) {
      out += uri[i++];
      continue;
    }
    const std::size_t close = uri.find('}', i + 2);
    const std::string name = close == std::string::npos ? "" : uri.substr(i + 2, close - i - 2);
    const bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                         return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
                       });
    if (!valid) {
      why = "has a '${' at offset " + std::to_string(i) + " without a variable name (A-Z, 0-9, _) and '}'";
      return "";
    }
    const char* value = std::getenv(name.c_str());
    if (!value || !*value) {
      why = "names the environment variable " + name + ", which is not set" +
            (name == "RLAB_KVM_HOST_URI" ? " (start the host and set it: `rlab kvm-host start`, then "
                                           "`export RLAB_KVM_HOST_URI=\"$(rlab kvm-host uri)\"`)"
                                         : "");
      return "";
    }
    out += value;
    i = close + 1;
  }
  return out;
}

/// `uri` for an error message: at most 80 bytes, bytes outside printable ASCII as \xNN.
std::string printable_uri(const std::string& uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size() && i < 80; ++i) {
    const auto c = static_cast<unsigned char>(uri[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    }
  }
  return uri.size() > 80 ? out + "..." : out;
}

}  // namespace

std::string_view to_string(Layout l) { return l == Layout::kPerCopy ? "per-copy" : "shared"; }

std::string_view to_string(Attribution a) {
  switch (a) {
    case Attribution::kOff: return "off";
    case Attribution::kCounts: return "counts";
    case Attribution::kFull: return "full";
    case Attribution::kStacks: break;
  }
  return "stacks";
}

std::string_view to_string(Fs fs) { return fs == Fs::kExt4 ? "ext4" : "xfs"; }

std::optional<Fs> parse_fs(std::string_view word) {
  if (word == "xfs") return Fs::kXfs;
  if (word == "ext4") return Fs::kExt4;
  return std::nullopt;
}

std::string_view to_string(Runner r) {
  switch (r) {
    case Runner::kUnixbench: return "unixbench";
    case Runner::kBare: return "bare";
    case Runner::kRlab: break;
  }
  return "rlab";
}

std::string_view to_string(AgentLink link) {
  return link == AgentLink::kLibvirt ? "libvirt" : "socket";
}

AgentLink default_agent_link(const std::string& uri) {
  if (!local_uri(uri)) return AgentLink::kLibvirt;
  // qemu:///system's QEMU binds the socket as its own user (libvirt-qemu), whom only root
  // may connect to; a user in the libvirt group goes through libvirt's channel instead.
  return ::geteuid() == 0 || uri.find(":///session") != std::string::npos ? AgentLink::kSocket
                                                                          : AgentLink::kLibvirt;
}

std::string_view to_string(HostFiles f) { return f == HostFiles::kVolumes ? "volumes" : "paths"; }

HostFiles default_host_files(const std::string& uri) {
  return local_uri(uri) ? HostFiles::kPaths : HostFiles::kVolumes;
}


namespace {

/// `files` and `pool` of one host entry.
void parse_host_files(const Checker& ck, const YAML::Node& e, const std::string& what, Host& host) {
  // A socket link means QEMU runs on this machine (docs/matrix.md): it sees rlab's paths.
  host.files = host.agent_link == AgentLink::kSocket ? HostFiles::kPaths : default_host_files(host.uri);
  if (const YAML::Node f = e["files"]) {
    const std::string s = ck.string(f, what + ".files");
    if (s == "paths") host.files = HostFiles::kPaths;
    else if (s == "volumes") host.files = HostFiles::kVolumes;
    else ck.fail(f, what + ".files: '" + printable_uri(s) + "' is not one of paths, volumes");
  }
  if (host.files == HostFiles::kVolumes && host.agent_link == AgentLink::kSocket)
    ck.fail(e["files"] ? e["files"] : e, what + ": 'files: volumes' needs 'agent_link: libvirt' (with 'socket' "
                                        "QEMU binds the agent's socket in rlab's run directory, which such a host does not see)");
  if (const YAML::Node p = e["pool"]) {
    if (host.files != HostFiles::kVolumes)
      ck.fail(p, what + ".pool: only meaningful with 'files: volumes' (this host's files are paths" +
                     (host.agent_link == AgentLink::kSocket ? ", as its agent_link is socket)" : ")"));
    host.pool = ck.string(p, what + ".pool");
    // Names as virsh pool-define-as takes them unquoted: the refusal of a missing pool says how
    // to define it, and that command must be safe to paste.
    const bool ok = !host.pool.empty() && host.pool.size() <= 64 &&
                    std::all_of(host.pool.begin(), host.pool.end(), [](char c) {
                      return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+';
                    });
    if (!ok) ck.fail(p, what + ".pool: '" + printable_uri(host.pool) + "' is not a storage pool name rlab accepts "
                               "(1 to 64 of A-Z a-z 0-9 . _ - +)");
  } else if (host.files == HostFiles::kVolumes) {
    host.pool = std::string(kDefaultPool);
  }
}

std::vector<Host> parse_hosts(const Checker& ck, const YAML::Node& h) {
  ck.check_list(h, "hosts");
  std::vector<Host> out;
  std::set<std::string> uris;
  for (std::size_t i = 0; i < h.size(); ++i) {
    const std::string what = "hosts[" + std::to_string(i) + "]";
    const YAML::Node& e = h[i];
    ck.check_map(e, what, {"uri", "vcpus", "agent_link", "files", "pool", "hello_timeout_s", "hello_retries",
                          "liveness_timeout_s"});
    Host host;
    const YAML::Node u = ck.required(e, what, "uri");
    host.uri = ck.string(u, what + ".uri");
    if (host.uri.find("${") != std::string::npos) {
      std::string why;
      host.uri = expand_env(host.uri, why);
      if (!why.empty()) ck.fail(u, what + ".uri " + why);
    }
    if (const std::string why = uri_problem(host.uri); !why.empty())
      ck.fail(u, what + ".uri: '" + printable_uri(host.uri) + "' " + why);
    if (!uris.insert(host.uri).second) ck.fail(u, what + ".uri: '" + host.uri + "' appears twice");
    if (e["vcpus"]) host.vcpu_budget = static_cast<unsigned>(ck.integer(e["vcpus"], what + ".vcpus", 1, 4096));
    else if (local_uri(host.uri)) host.vcpu_budget = local_cpus();
    else ck.fail(e, what + ": a remote host needs 'vcpus' (its vCPU budget)");
    host.agent_link = default_agent_link(host.uri);
    if (const YAML::Node l = e["agent_link"]) {
      const std::string s = ck.string(l, what + ".agent_link");
      if (s == "socket") host.agent_link = AgentLink::kSocket;
      else if (s == "libvirt") host.agent_link = AgentLink::kLibvirt;
      else ck.fail(l, what + ".agent_link: '" + printable_uri(s) + "' is not one of socket, libvirt");
    }
    if (e["hello_timeout_s"])
      host.hello_timeout_s = static_cast<double>(ck.integer(e["hello_timeout_s"], what + ".hello_timeout_s", 10, 3600));
    if (e["hello_retries"])
      host.hello_retries = static_cast<unsigned>(ck.integer(e["hello_retries"], what + ".hello_retries", 0, 5));
    if (e["liveness_timeout_s"])
      host.liveness_timeout_s =
          static_cast<double>(ck.integer(e["liveness_timeout_s"], what + ".liveness_timeout_s", 5, 3600));
    parse_host_files(ck, e, what, host);
    out.push_back(std::move(host));
  }
  return out;
}

void parse_nightly(const Checker& ck, const YAML::Node& n, const fs::path& base_dir, bool check,
                   Nightly& out) {
  ck.check_map(n, "nightly", {"tree", "fetch", "remeasure_minutes", "bisect_minutes", "keep_reports",
                            "thin_after_days"});
  if (n["keep_reports"])
    out.keep_reports = static_cast<unsigned>(ck.integer(n["keep_reports"], "nightly.keep_reports", 1, 100000));
  if (n["thin_after_days"])
    out.thin_after_days = static_cast<unsigned>(ck.integer(n["thin_after_days"], "nightly.thin_after_days", 1, 36500));
  for (auto [key, into] : {std::pair{"remeasure_minutes", &out.remeasure_minutes},
                           std::pair{"bisect_minutes", &out.bisect_minutes}})
    if (n[key]) *into = static_cast<double>(ck.integer(n[key], std::string("nightly.") + key, 0, 24 * 60));
  if (n["tree"]) out.tree = detail::resolve_path(ck, n["tree"], "nightly.tree", base_dir, check, true);
  if (n["fetch"]) {
    out.fetch = ck.strings(n["fetch"], "nightly.fetch");
    for (std::size_t i = 0; i < out.fetch.size(); ++i) {
      const auto& r = out.fetch[i];
      // A remote name or URL: printable ASCII without spaces, at most 1024 bytes; a leading
      // '-' would be read by git as an option.
      const bool printable = std::all_of(r.begin(), r.end(), [](char c) { return c > ' ' && c < 0x7f; });
      if (r.empty() || r[0] == '-' || !printable || r.size() > 1024)
        ck.fail(n["fetch"][i], "nightly.fetch: entry " + std::to_string(i + 1) +
                                   " is not a git remote name or URL (printable ASCII without spaces, "
                                   "not starting with '-', at most 1024 bytes)");
    }
  }
}

/// `cache:` {max_gib}: the cache's disk budget, at least what one kernel build holds.
void parse_cache(Checker& ck, const YAML::Node& cache, Matrix& m) {
  ck.check_map(cache, "cache", {"max_gib"});
  if (const auto g = cache["max_gib"]) {
    m.cache_max_gib = ck.number(g, "cache.max_gib", 0, 1e6);
    if (*m.cache_max_gib < build::kMinBudgetGiB)
      ck.fail(g, fmt::format("cache.max_gib: {} GiB is below what one kernel build holds at once (its git "
                             "tree and objects ~1.7 GiB, ccache's 1 GiB floor, the Image): at least {:.0f} GiB",
                             *m.cache_max_gib, build::kMinBudgetGiB));
  }
}

/// `seed:`, or a random one (63 bits: SQLite integers are signed).
void parse_seed(Checker& ck, const YAML::Node& root, Matrix& m) {
  if (root["seed"]) {
    m.seed = static_cast<std::uint64_t>(ck.integer(root["seed"], "seed", 0, INT64_MAX));
    m.seed_from_file = true;
  } else {
    std::random_device rd;
    m.seed = (static_cast<std::uint64_t>(rd()) << 31) ^ rd();
    m.seed &= static_cast<std::uint64_t>(INT64_MAX);
  }
}

/// The matrix's top-level settings beside kernels, axes and guest: hosts (default: this
/// machine's libvirtd with all its CPUs), results, push, control, gaps, nightly, cache and seed.
void parse_settings(Checker& ck, const YAML::Node& root, const fs::path& base_dir, bool check_paths, Matrix& m) {
  if (root["hosts"]) m.hosts = parse_hosts(ck, root["hosts"]);
  else {
    Host local;
    local.uri = "qemu:///system";
    local.vcpu_budget = local_cpus();
    local.agent_link = default_agent_link(local.uri);
    m.hosts = {local};
  }
  m.results = base_dir / "results" / "rlab.db";
  if (root["results"]) {
    fs::path r = ck.string(root["results"], "results");
    if (r.empty()) ck.fail(root["results"], "results: empty path");
    m.results = (r.is_relative() ? base_dir / r : r).lexically_normal();
  }
  if (root["push"]) {
    std::string u = ck.string(root["push"], "push");
    if (u.rfind("http://", 0) != 0 && u.rfind("https://", 0) != 0)
      ck.fail(root["push"], "push: '" + u + "' is not an http(s) Pushgateway URL");
    m.push_url = u;
  }
  if (root["control"]) {
    std::vector<std::string> ids;
    for (const auto& c : expand_cells(m)) ids.push_back(c.id);
    try {
      m.control = select_cell_id(ids, ck.string(root["control"], "control"));
    } catch (const UsageError& e) {
      ck.fail(root["control"], std::string("control: ") + e.what());
    }
  }
  if (root["gaps"]) m.gaps = detail::parse_gaps(ck, root["gaps"], m);
  if (root["nightly"]) parse_nightly(ck, root["nightly"], base_dir, check_paths, m.nightly);
  if (root["cache"]) parse_cache(ck, root["cache"], m);
  parse_seed(ck, root, m);
}

}  // namespace

Matrix parse_matrix(const std::string& text, const fs::path& path, const LoadOptions& opt) {
  Checker ck(path, text);
  const YAML::Node root = detail::load_one_document(text, path);
  if (!root || root.IsNull()) throw MatrixError(path, 1, 1, "empty matrix: needs kernels and axes");
  ck.check_map(root, "matrix", {"kernels", "axes", "guest", "hosts", "results", "push", "seed", "control",
                                "gaps", "nightly", "cache"});

  Matrix m;
  m.path = fs::absolute(path).lexically_normal();
  m.text = text;
  const fs::path base_dir = m.path.parent_path();
  m.kernels = detail::parse_kernels(ck, ck.required(root, "matrix", "kernels"), base_dir, opt.check_paths);
  parse_axes(ck, ck.required(root, "matrix", "axes"), m, opt.check_paths);
  if (root["guest"]) {
    parse_guest(ck, root["guest"], m.guest);
    detail::parse_guest_clock(ck, root["guest"], m.guest);
  }
  // A clock the file fixes is settled now; `clock: auto` with `accel: auto` by each run.
  if (m.guest.clock == GuestClock::kAuto && m.guest.accel != Accel::kAuto)
    settle_clock(m, m.guest.accel == Accel::kTcg ? GuestClock::kIcount : GuestClock::kRealtime);
  else if (m.guest.clock != GuestClock::kAuto)
    settle_clock(m, m.guest.clock);
  parse_settings(ck, root, base_dir, opt.check_paths, m);
  return m;
}

std::vector<fs::path> fetch_trees(const Matrix& m) {
  std::vector<fs::path> out;
  auto add = [&](const fs::path& t) {
    if (!t.empty() && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  add(m.nightly.tree);
  for (const auto& [name, k] : m.kernels)
    if (k.source.kind == build::KernelSource::Kind::kGitTree) add(k.source.git_tree);
  return out;
}

fs::path store_path(const fs::path& db, const fs::path& matrix) {
  if (!db.empty()) return db;
  LoadOptions lo;
  lo.check_paths = false;  // only `results:` is needed
  return load_matrix(matrix, lo).results;
}

Matrix load_matrix(const fs::path& path, const LoadOptions& opt) {
  std::error_code ec;
  // An ifstream opens a directory fine and reads nothing ("empty matrix" would mislead).
  if (fs::is_directory(path, ec)) throw MatrixError(path, 0, 0, "is a directory, not a matrix file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MatrixError(path, 0, 0, "cannot read the matrix file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw MatrixError(path, 0, 0, "cannot read the matrix file");
  return parse_matrix(ss.str(), path, opt);
}

}  // namespace rlab::matrix

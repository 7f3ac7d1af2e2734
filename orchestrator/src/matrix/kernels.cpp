#include "matrix/kernels.hpp"

#include "build/kernel_build.hpp"  // images_dir
#include "build/prebuilt_kernel.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>

#include <cctype>
#include <set>

namespace rlab::matrix::detail {
namespace {

namespace fs = std::filesystem;

/// A parsed but not yet resolved entry.
struct Entry {
  YAML::Node node;
  YAML::Mark mark;  ///< of the name
  bool has_extends = false;
  std::string extends;
  YAML::Node extends_node;
};

unsigned page_size_kib(const Checker& ck, const YAML::Node& n, const std::string& what) {
  const std::string s = ck.string(n, what);
  if (s == "4k" || s == "4K" || s == "4096") return 4;
  if (s == "16k" || s == "16K" || s == "16384") return 16;
  if (s == "64k" || s == "64K" || s == "65536") return 64;
  ck.fail(n, what + ": '" + s + "' is not an arm64 page size (4k, 16k or 64k)");
}

build::KernelSource parse_source(const Checker& ck, const YAML::Node& n, const std::string& what,
                                 const fs::path& base_dir, bool check) {
  ck.check_map(n, what, {"debian", "suite", "git", "ref", "image", "config"});
  build::KernelSource src;
  const bool deb = static_cast<bool>(n["debian"]);
  const bool git = static_cast<bool>(n["git"]);
  const bool image = static_cast<bool>(n["image"]);
  if (deb + git + image != 1)
    ck.fail(n, what + ": give exactly one of 'debian' (a linux-source version), 'git' (a tree) or "
                      "'image' (a prebuilt arm64 Image)");
  if (n["config"] && !image)
    ck.fail(ck.key_mark(n, "config"), what + ": 'config' belongs to an 'image' source (a full .config to "
                                             "build from is the entry's own 'config:', beside 'source')");
  if (image) {
    for (const char* k : {"suite", "ref"})
      if (n[k]) ck.fail(ck.key_mark(n, k), what + ": '" + k + "' belongs to a '" + (k[0] == 's' ? "debian" : "git") + "' source");
    src.kind = build::KernelSource::Kind::kPrebuiltImage;
    src.image = resolve_path(ck, n["image"], what + ".image", base_dir, check, false);
    if (check)
      if (const auto why = build::arm64_image_problem(src.image); !why.empty()) ck.fail(n["image"], what + ".image: " + why);
    if (n["config"]) src.image_config = resolve_path(ck, n["config"], what + ".config", base_dir, check, false);
  } else if (deb) {
    if (n["ref"]) ck.fail(ck.key_mark(n, "ref"), what + ": 'ref' belongs to a 'git' source");
    src.kind = build::KernelSource::Kind::kDebianPackage;
    src.debian_version = ck.string(ck.required(n, what, "debian"), what + ".debian");
    src.debian_suite = ck.string(ck.required(n, what, "suite"), what + ".suite");
    for (char c : src.debian_version)
      if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.')
        ck.fail(n["debian"], what + ".debian: '" + src.debian_version +
                                 "' is not a linux-source version such as 6.12");
  } else {
    if (n["suite"]) ck.fail(ck.key_mark(n, "suite"), what + ": 'suite' belongs to a 'debian' source");
    src.kind = build::KernelSource::Kind::kGitTree;
    src.git_tree = resolve_path(ck, ck.required(n, what, "git"), what + ".git", base_dir, check,
                                true);
    src.git_ref = ck.string(ck.required(n, what, "ref"), what + ".ref");
    if (src.git_ref.empty() || src.git_ref[0] == '-')
      ck.fail(n["ref"], what + ".ref: '" + src.git_ref + "' is not a git ref");
  }
  return src;
}

/// An entry's `config:` (a full .config to configure from): its path, read and parsed when
/// `check` so that a malformed line is an error here (naming the .config's own line).
fs::path parse_full_config(const Checker& ck, const YAML::Node& n, const std::string& what,
                           const fs::path& base_dir, bool check) {
  fs::path p = resolve_path(ck, n, what, base_dir, check, false);
  if (!check) return p;
  try {
    if (build::parse_fragment(util::read_file(p), p).empty())
      ck.fail(n, what + ": " + p.string() + " sets no option: not a .config");
  } catch (const MatrixError&) {
    throw;
  } catch (const std::exception& x) {
    ck.fail(n, what + ": " + x.what());
  }
  return p;
}

/// What a prebuilt Image entry may not have (fragments, patches, a `config:` to build from:
/// nothing is built), and, when its .config is given and `check`, that the .config's page size
/// agrees with `page_size` (taken from the .config when the entry gives none) and has every
/// option the guest needs built in. Each problem is an error at the node it is about.
void check_prebuilt_entry(const Checker& ck, const YAML::Node& e, const std::string& what, build::KernelSpec& spec,
                          bool check) {
  const YAML::Node src = e["source"] ? e["source"] : e["extends"];
  const char* nothing_built = ": a prebuilt Image ('source.image') is not built, so it takes no ";
  if (!spec.fragments.empty()) ck.fail(e["fragments"] ? e["fragments"] : src, what + nothing_built + "fragments");
  if (!spec.patches.empty()) ck.fail(e["patches"] ? e["patches"] : src, what + nothing_built + "patches");
  if (!spec.base_config.empty())
    ck.fail(e["config"] ? e["config"] : src, what + nothing_built + "'config' to build from (its own .config is 'source.config')");
  if (!check || spec.source.image_config.empty()) return;
  const YAML::Node cfg_node = e["source"] && e["source"]["config"] ? e["source"]["config"] : src;
  const std::string cfg = spec.source.image_config.string();
  build::PrebuiltConfigCheck c;
  try {
    c = build::check_prebuilt_config(spec.source.image_config, build::images_dir());
  } catch (const std::exception& x) {
    ck.fail(cfg_node, what + ".source.config: " + x.what());
  }
  if (c.page_size_kib == 0)
    ck.fail(cfg_node, what + ".source.config: " + cfg + " selects no arm64 page size (CONFIG_ARM64_{4K,16K,64K}_PAGES): not an arm64 .config");
  if (const YAML::Node ps = e["page_size"]; ps && spec.page_size_kib != c.page_size_kib)
    ck.fail(ps, fmt::format("{}.page_size: {}k, but {} builds {}K pages (CONFIG_ARM64_{}K_PAGES=y)", what,
                            spec.page_size_kib, cfg, c.page_size_kib, c.page_size_kib));
  spec.page_size_kib = c.page_size_kib;
  if (!c.missing.empty())
    ck.fail(cfg_node, fmt::format("{}.source.config: {} lacks {} option(s) rlab's guest needs built in (it loads no "
                                  "module): {}", what, cfg, c.missing.size(), build::describe_missing(c.missing)));
}

}  // namespace

fs::path resolve_path(const Checker& ck, const YAML::Node& n, const std::string& what,
                      const fs::path& base_dir, bool check, bool directory) {
  fs::path p = ck.string(n, what);
  if (p.empty()) ck.fail(n, what + ": empty path");
  if (p.is_relative()) p = base_dir / p;
  p = p.lexically_normal();
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();  // "dir/" -> "dir"
  if (check) {
    std::error_code ec;
    if (!fs::exists(p, ec)) ck.fail(n, what + ": " + p.string() + " does not exist");
    if (directory && !fs::is_directory(p, ec))
      ck.fail(n, what + ": " + p.string() + " is not a directory");
    if (!directory && !fs::is_regular_file(p, ec))
      ck.fail(n, what + ": " + p.string() + " is not a regular file");
  }
  return p;
}


bool valid_kernel_name(const std::string& name) {
  if (name.empty() || !std::isalnum(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '+' &&
        c != '-')
      return false;
  return true;
}

namespace {

/// The entries of `kernels:` by name, checked for shape (a mapping, known keys, a `source` or
/// an `extends`) but not yet resolved.
std::map<std::string, Entry> read_entries(const Checker& ck, const YAML::Node& node) {
  if (!node.IsMap()) ck.fail(node, "kernels: expected a mapping of kernel names to entries");
  if (node.size() == 0) ck.fail(node, "kernels: must not be empty");
  std::map<std::string, Entry> entries;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string name = ck.string(it->first, "kernels");
    if (!valid_kernel_name(name))
      ck.fail(it->first, "kernels: '" + name + "' is not a valid kernel name (letters, digits, . _ + -)");
    if (entries.count(name)) ck.fail(it->first, "kernels: duplicate key '" + name + "'");
    const std::string what = "kernels." + name;
    const YAML::Node e = it->second;
    if (!e.IsMap())
      ck.fail(e.IsNull() ? it->first.Mark() : e.Mark(), what + ": expected a mapping (source, page_size, ...)");
    ck.check_map(e, what, {"extends", "source", "page_size", "fragments", "patches", "patchset", "config"});
    Entry en{e, it->first.Mark(), false, "", {}};
    if (e["extends"]) {
      en.has_extends = true;
      en.extends_node = e["extends"];
      en.extends = ck.string(en.extends_node, what + ".extends");
    } else if (!e["source"]) {
      ck.fail(it->first, what + ": needs 'source' (or 'extends' of another kernel)");
    }
    entries.emplace(name, std::move(en));
  }
  return entries;
}

/// Resolves entries into KernelSpecs, each after the kernel it extends (memoized in `done`).
struct Resolver {
  const Checker& ck;
  const std::map<std::string, Entry>& entries;
  const fs::path& base_dir;
  bool check_paths;
  std::map<std::string, build::KernelSpec> done;

  /// The spec of `name`; `chain` holds the kernels being resolved below it (a cycle fails).
  const build::KernelSpec& resolve(const std::string& name, std::set<std::string>& chain) {
    if (auto d = done.find(name); d != done.end()) return d->second;
    const Entry& en = entries.at(name);
    const std::string what = "kernels." + name;
    build::KernelSpec spec;
    if (en.has_extends) {
      if (!entries.count(en.extends)) ck.fail(en.extends_node, what + ".extends: unknown kernel '" + en.extends + "'");
      if (!chain.insert(name).second || en.extends == name)
        ck.fail(en.extends_node, what + ".extends: cycle through '" + en.extends + "'");
      spec = resolve(en.extends, chain);
    }
    spec.name = name;
    apply_fields(en, what, spec);
    chain.erase(name);
    return done.emplace(name, std::move(spec)).first->second;
  }

  /// The paths listed at `l` (`what` names it), resolved against the matrix's directory.
  std::vector<fs::path> paths(const YAML::Node& l, const std::string& what) const {
    ck.strings(l, what);
    std::vector<fs::path> out;
    for (std::size_t i = 0; i < l.size(); ++i)
      out.push_back(resolve_path(ck, l[i], what + "[" + std::to_string(i) + "]", base_dir, check_paths, false));
    return out;
  }

  /// The entry's own keys over what it inherited: source, page size, fragments, patches (and
  /// the patch set named after them), full config, and the prebuilt Image's checks.
  void apply_fields(const Entry& en, const std::string& what, build::KernelSpec& spec) const {
    const YAML::Node& e = en.node;
    const std::string base_patchset = spec.patchset;
    if (e["source"]) spec.source = parse_source(ck, e["source"], what + ".source", base_dir, check_paths);
    if (e["page_size"]) spec.page_size_kib = page_size_kib(ck, e["page_size"], what + ".page_size");
    if (e["fragments"])
      for (auto& f : paths(e["fragments"], what + ".fragments")) spec.fragments.push_back(std::move(f));
    bool own_patches = false;
    if (e["patches"]) {
      auto own = paths(e["patches"], what + ".patches");
      own_patches = !own.empty();
      for (auto& p : own) spec.patches.push_back(std::move(p));
    }
    if (e["patchset"]) {
      spec.patchset = ck.string(e["patchset"], what + ".patchset");
    } else if (own_patches) {
      // "6.12+inline-inactivation" extending "6.12" -> "inline-inactivation".
      std::string own = spec.name;
      if (!en.extends.empty() && own.rfind(en.extends + "+", 0) == 0) own = own.substr(en.extends.size() + 1);
      spec.patchset = base_patchset.empty() ? own : base_patchset + "+" + own;
    }
    if (e["config"]) spec.base_config = parse_full_config(ck, e["config"], what + ".config", base_dir, check_paths);
    if (spec.source.kind == build::KernelSource::Kind::kPrebuiltImage) check_prebuilt_entry(ck, e, what, spec, check_paths);
  }
};

}  // namespace

std::map<std::string, build::KernelSpec> parse_kernels(const Checker& ck, const YAML::Node& node,
                                                       const fs::path& base_dir, bool check_paths) {
  const auto entries = read_entries(ck, node);
  Resolver r{ck, entries, base_dir, check_paths, {}};
  for (const auto& [name, en] : entries) {
    std::set<std::string> chain;
    r.resolve(name, chain);
  }
  return std::move(r.done);
}

}  // namespace rlab::matrix::detail

#include "image/initramfs.hpp"

#include "build/artifact_cache.hpp"
#include "image/cpio.hpp"
#include "image/keep_list.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <fmt/format.h>

#include <fstream>
#include <regex>
#include <sstream>

namespace rlab::image {
namespace fs = std::filesystem;

namespace {

std::string strip(std::string s) {
  if (auto hash = s.find('#'); hash != std::string::npos) s.resize(hash);
  auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

void parse_package_list(std::string_view text, const fs::path& path, RootfsRecipe& recipe) {
  static const std::regex package_re(R"(^[a-z0-9][a-z0-9.+-]+(:arm64|:all)?$)");
  static const std::regex suite_re(R"(^suite:\s*([a-z0-9-]+)$)");
  std::istringstream in{std::string(text)};
  int n = 0;
  bool have_suite = false;
  for (std::string raw; std::getline(in, raw);) {
    ++n;
    std::string line = strip(raw);
    if (line.empty()) continue;
    std::smatch m;
    if (std::regex_match(line, m, suite_re)) {
      if (have_suite)
        throw std::runtime_error(fmt::format("{}:{}: a second `suite:` line", path.string(), n));
      recipe.suite = m[1];
      have_suite = true;
    } else if (std::regex_match(line, package_re)) {
      recipe.packages.push_back(line);
    } else {
      throw std::runtime_error(fmt::format("{}:{}: '{}' is not a Debian package name", path.string(), n, line));
    }
  }
  if (!have_suite) throw std::runtime_error(path.string() + ": no `suite: <name>` line");
  if (recipe.packages.empty()) throw std::runtime_error(path.string() + ": no packages");
}

namespace {

/// The relative paths listed in `file` (one a line, '#' comments); none when it is missing.
std::vector<std::string> read_path_list(const fs::path& file) {
  std::vector<std::string> out;
  if (!fs::exists(file)) return out;
  std::istringstream in(util::read_file(file));
  int n = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++n;
    std::string line = strip(raw);
    if (line.empty()) continue;
    if (line.front() == '/' || line.find("..") != std::string::npos)
      throw std::runtime_error(fmt::format("{}:{}: '{}' must be a relative path inside the image",
                                           file.string(), n, line));
    out.push_back(line);
  }
  return out;
}

}  // namespace

RootfsRecipe load_rootfs_recipe(const fs::path& rootfs_dir) {
  RootfsRecipe r;
  r.dir = rootfs_dir;
  parse_package_list(util::read_file(rootfs_dir / "packages.txt"), rootfs_dir / "packages.txt", r);
  r.prune = read_path_list(rootfs_dir / "prune.txt");
  r.keep = read_path_list(rootfs_dir / "keep.txt");
  r.init_script = util::read_file(rootfs_dir / "init");
  if (r.init_script.rfind("#!", 0) != 0)
    throw std::runtime_error((rootfs_dir / "init").string() + ": must start with #!");
  return r;
}

std::string image_key(const RootfsRecipe& recipe, const fs::path& agent_binary) {
  util::Sha256 h;
  h.update("rlab-initramfs").update(std::to_string(build::kImageRecipeVersion)).update(recipe.suite);
  h.update(std::to_string(recipe.packages.size()));
  for (const auto& p : recipe.packages) h.update(p);
  h.update(std::to_string(recipe.prune.size()));
  for (const auto& p : recipe.prune) h.update(p);
  h.update(std::to_string(recipe.keep.size()));
  for (const auto& p : recipe.keep) h.update(p);
  h.update(recipe.init_script);
  h.update_file(agent_binary);
  return h.hex();
}

bool is_aarch64_elf(std::string_view elf) {
  // e_ident: 7f 'E' 'L' 'F', class 2 (64-bit), data 1 (little endian); e_machine at 18.
  return elf.size() >= 20 && elf.substr(0, 4) == "\x7f" "ELF" && elf[4] == 2 && elf[5] == 1 &&
         static_cast<unsigned char>(elf[18]) == 183 && elf[19] == 0;
}

void extract_userland(const RootfsRecipe& recipe, const std::string& mirror, const fs::path& root) {
  std::string include;
  for (const auto& p : recipe.packages) include += (include.empty() ? "" : ",") + p;
  // chrootless: the packages are only unpacked, which needs no root (and as root gives the
  // same tree as mmdebstrap's root mode, less the /dev nodes the cpio writer adds itself).
  util::run_checked({"mmdebstrap", "--mode=chrootless", "--variant=extract", "--architectures=arm64", "--quiet",
                     "--include=" + include, recipe.suite, root.string(),
                     "deb " + mirror + " " + recipe.suite + " main"},
                    build::run_options(std::chrono::seconds(1800)));
  for (const auto& pattern : recipe.prune) {
    fs::path rel(pattern);
    std::string last = rel.filename().string();
    fs::path parent = root / rel.parent_path();
    if (!last.empty() && last.back() == '*') {
      std::string prefix = last.substr(0, last.size() - 1);
      if (!fs::is_directory(parent)) continue;
      std::vector<fs::path> doomed;
      for (const auto& e : fs::directory_iterator(parent))
        if (e.path().filename().string().rfind(prefix, 0) == 0) doomed.push_back(e.path());
      for (const auto& d : doomed) fs::remove_all(d);
    } else {
      fs::remove_all(root / rel);
    }
  }
  if (!recipe.keep.empty()) remove_all_but(root, kept_paths(root, recipe.keep, kArm64LibDirs, (recipe.dir / "keep.txt").string()));
}

std::uintmax_t pack_initramfs(const RootfsRecipe& recipe, const fs::path& root,
                              const fs::path& agent_binary, const fs::path& out) {
  std::string agent = util::read_file(agent_binary);
  if (!is_aarch64_elf(agent))
    throw std::runtime_error(agent_binary.string() +
                             " is not an aarch64 ELF binary: build the guest agent with "
                             "`cmake --preset aarch64-agent && cmake --build build/aarch64`");
  for (const char* d : {"proc", "sys", "dev", "tmp", "run", "mnt", "root", "usr/bin"})
    fs::create_directories(root / d);
  util::write_file_atomic(root / "init", recipe.init_script);
  fs::permissions(root / "init", fs::perms(0755));
  const fs::path in_guest = root / fs::path(kAgentPath).relative_path();
  util::write_file_atomic(in_guest, agent);
  fs::permissions(in_guest, fs::perms(0755));

  auto entries = entries_from_tree(root);
  // The kernel opens /dev/console for PID 1 before /init can mount devtmpfs.
  std::erase_if(entries, [](const CpioEntry& e) { return e.name.rfind("dev/", 0) == 0; });
  CpioEntry console{"dev/console", CpioEntry::Type::kCharDevice, 0600, "", 5, 1};
  auto pos = std::find_if(entries.begin(), entries.end(), [](const CpioEntry& e) { return e.name > "dev/"; });
  entries.insert(pos, console);

  // Not compressed: the guest kernel then copies the files into its rootfs instead of
  // decompressing them first, which was half its boot under TCG (docs/benchmarks.md "Boot").
  {
    std::ofstream f(out, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + out.string());
    write_newc(f, entries);
    f.flush();
    if (!f) throw std::runtime_error("cannot write " + out.string() + " (disk full?)");
  }
  return fs::file_size(out);
}

}  // namespace rlab::image

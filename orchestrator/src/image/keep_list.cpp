#include "image/keep_list.hpp"

#include "util/process.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace rlab::image {
namespace fs = std::filesystem;

namespace {

bool is_elf(const fs::path& p) {
  char magic[4] = {};
  std::ifstream(p, std::ios::binary).read(magic, sizeof magic);
  return std::string_view(magic, 4) == "\x7f" "ELF";
}

/// `rel` made normal and relative; throws when it leaves the root.
std::string inside(const fs::path& rel, const std::string& from) {
  const fs::path n = rel.lexically_normal();
  if (n.empty() || n.is_absolute() || *n.begin() == "..")
    throw std::runtime_error(fmt::format("{}: '{}' leaves the userland", from, rel.string()));
  return n.generic_string();
}

/// `rel` with each directory symlink on its way replaced by the link's target, each such link
/// added to `kept` (a merged-/usr userland has bin -> usr/bin: "bin/sh" is "usr/bin/sh").
std::string through_dir_links(const fs::path& root, const std::string& rel, std::set<std::string>& kept,
                              const std::string& from) {
  fs::path done;
  const fs::path r(rel);
  for (auto it = r.begin(); it != r.end(); ++it) {
    fs::path next = done / *it;
    if (std::next(it) != r.end() && fs::is_symlink(fs::symlink_status(root / next))) {
      kept.insert(next.generic_string());
      const fs::path t = fs::read_symlink(root / next);
      next = inside(t.is_absolute() ? t.relative_path() : done / t, from);
    }
    done = next;
  }
  return done.generic_string();
}

}  // namespace

ElfNeeds parse_readelf(const std::string& out) {
  static const std::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  static const std::regex interp(R"(\[Requesting program interpreter: ([^\]]+)\])");
  ElfNeeds n;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, needed)) n.libraries.push_back(m[1]);
    else if (std::regex_search(line, m, interp)) n.interpreter = m[1];
  }
  return n;
}

std::set<std::string> kept_paths(const fs::path& root, const std::vector<std::string>& keep,
                                 const std::vector<std::string>& lib_dirs, const std::string& what) {
  std::set<std::string> kept;
  std::vector<std::pair<fs::path, std::string>> to_visit;  // paths still to look at, and who asked for each
  for (const auto& k : keep) to_visit.emplace_back(k, what);
  while (!to_visit.empty()) {
    const auto [asked, from] = to_visit.back();
    to_visit.pop_back();
    const std::string rel = through_dir_links(root, inside(asked, from), kept, from);
    if (kept.count(rel)) continue;
    const fs::path p = root / rel;
    const auto st = fs::symlink_status(p);
    if (!fs::exists(st))
      throw std::runtime_error(fmt::format("{}: '{}' is not in the extracted userland", from, rel));
    kept.insert(rel);
    if (fs::is_symlink(st)) {
      const fs::path t = fs::read_symlink(p);
      to_visit.emplace_back(t.is_absolute() ? t.relative_path() : fs::path(rel).parent_path() / t, rel);
    } else if (fs::is_directory(st)) {
      for (const auto& e : fs::directory_iterator(p)) to_visit.emplace_back(fs::path(rel) / e.path().filename(), rel);
    } else if (is_elf(p)) {
      const ElfNeeds needs = parse_readelf(
          util::run_checked({"readelf", "--dynamic", "--program-headers", "--wide", p.string()}).output);
      if (!needs.interpreter.empty()) to_visit.emplace_back(fs::path(needs.interpreter).relative_path(), rel);
      for (const auto& lib : needs.libraries) {
        auto dir = std::find_if(lib_dirs.begin(), lib_dirs.end(), [&](const std::string& d) {
          return fs::exists(fs::symlink_status(root / d / lib));
        });
        if (dir == lib_dirs.end())
          throw std::runtime_error(fmt::format("{}: {} needs {}, which is in none of {}", what, rel, lib,
                                               fmt::join(lib_dirs, ", ")));
        to_visit.emplace_back(fs::path(*dir) / lib, rel);
      }
    }
  }
  return kept;
}

std::uintmax_t remove_all_but(const fs::path& root, const std::set<std::string>& kept) {
  std::uintmax_t removed = 0;
  std::vector<fs::path> doomed, dirs;  // dirs in pre-order: reversed, children come first
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const auto st = e.symlink_status();
    if (fs::is_directory(st)) {
      dirs.push_back(e.path());
    } else if (!kept.count(e.path().lexically_relative(root).generic_string())) {
      if (fs::is_regular_file(st)) removed += e.file_size();
      doomed.push_back(e.path());
    }
  }
  for (const auto& d : doomed) fs::remove(d);
  for (auto d = dirs.rbegin(); d != dirs.rend(); ++d)
    if (fs::is_empty(*d)) fs::remove(*d);
  return removed;
}

}  // namespace rlab::image

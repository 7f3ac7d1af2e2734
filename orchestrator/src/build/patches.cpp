#include "build/patches.hpp"

#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <sstream>

namespace rlab::build {
namespace fs = std::filesystem;

std::optional<std::pair<std::string, std::string>> first_patch_failure(std::string_view output) {
  std::istringstream in{std::string(output)};
  std::string current;
  for (std::string line; std::getline(in, line);) {
    for (const char* prefix : {"patching file ", "checking file "}) {
      if (line.rfind(prefix, 0) == 0) {
        current = line.substr(std::string_view(prefix).size());
        if (current.size() >= 2 && current.front() == '\'' && current.back() == '\'')
          current = current.substr(1, current.size() - 2);
      }
    }
    if (line.find("FAILED") != std::string::npos ||
        line.find("Reversed (or previously applied) patch detected") != std::string::npos)
      return std::make_pair(current, line);
    if (line.rfind("can't find file to patch", 0) == 0) {
      // The name follows in the "|+++ b/path" header patch printed above: take it from there.
      return std::make_pair(current, std::string("file not found in the tree"));
    }
    if (line.find("No such file") != std::string::npos) return std::make_pair(current, line);
  }
  return std::nullopt;
}

std::vector<std::string> patched_files(std::string_view patch_text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(patch_text)};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) != 0) continue;
    std::string name = line.substr(4);
    if (auto tab = name.find('\t'); tab != std::string::npos) name.resize(tab);
    if (name == "/dev/null") continue;
    if (auto slash = name.find('/'); slash != std::string::npos) name = name.substr(slash + 1);
    out.push_back(name);
  }
  return out;
}

namespace {

// "can't find file to patch" output holds the diff header; recover the wanted name from it.
std::string missing_name(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("|+++ ", 0) == 0) {
      auto files = patched_files(line.substr(1));
      if (!files.empty()) return files.front();
    }
  }
  return "";
}

void unshare(const fs::path& file) {
  if (!fs::is_regular_file(file) || fs::hard_link_count(file) <= 1) return;
  std::string data = util::read_file(file);
  auto perms = fs::status(file).permissions();
  util::write_file_atomic(file, data);
  fs::permissions(file, perms);
}

}  // namespace

void apply_patches(const fs::path& tree, const std::vector<fs::path>& patches) {
  for (const auto& patch : patches) {
    std::string text = util::read_file(patch);
    std::vector<std::string> base{"patch", "-p1", "--forward", "--batch", "--no-backup-if-mismatch",
                                  "-d", tree.string(), "-i", fs::absolute(patch).string()};
    auto dry = base;
    dry.push_back("--dry-run");
    auto r = util::run(dry, run_options(std::chrono::seconds(300)));
    if (!r.ok()) {
      auto failure = first_patch_failure(r.output);
      std::string file = failure ? failure->first : "";
      if (failure && failure->second == "file not found in the tree") file = missing_name(r.output);
      PatchError e("patch " + patch.string() + " does not apply to " + tree.string() + ": " +
                   (file.empty() ? std::string("?") : file) + ": " +
                   (failure ? failure->second : std::string("patch exited ") + std::to_string(r.exit_code)) +
                   "\n" + util::tail(r.output, 20));
      e.patch = patch;
      e.file = file;
      throw e;
    }
    for (const auto& f : patched_files(text)) unshare(tree / f);
    util::run_checked(base, run_options(std::chrono::seconds(300)));
  }
}

}  // namespace rlab::build

#include "build/work_tree.hpp"

#include "build/cache_budget.hpp"
#include "build/patches.hpp"
#include "build/run_options.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace rlab::build {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json read_state(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return json::object();
  try {
    auto j = json::parse(util::read_file(file));
    return j.is_object() ? j : json::object();
  } catch (const std::exception&) {
    return json::object();  // a torn state file: the next move configures again
  }
}

void write_state(const fs::path& file, const json& state) {
  util::write_file_atomic(file, state.dump(2) + "\n");
}

std::string patch_set_hash(const std::vector<fs::path>& patches) {
  std::string all;
  for (const auto& p : patches) all += util::sha256_hex(util::read_file(p)) + "\n";
  return util::sha256_hex(all);
}

std::string short_sha(const std::string& sha) { return sha.substr(0, 12); }

}  // namespace

void WorkTree::give_back_if_full(const std::exception& e) {
  std::error_code ec;
  const auto space = fs::space(dir_, ec);
  if (ec || space.available >= kFullBelowBytes) return;
  // git says "unable to write file" without the errno: name the cause, free what it wrote.
  for (const char* part : {"src", "obj", "index", "state.json"}) fs::remove_all(dir_ / part, ec);
  throw std::runtime_error(fmt::format("{}: checking out into {}: No space left on device ({} MiB free)", e.what(),
                                       src().string(), space.available >> 20));
}

bool affects_config(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return name.rfind("Kconfig", 0) == 0;
}

std::optional<WorkTree> WorkTree::try_open(const fs::path& cache_root, const fs::path& repo,
                                           const std::string& config_key) {
  const auto r = util::run({"git", "-C", repo.string(), "rev-parse", "--absolute-git-dir"});
  if (!r.ok()) throw std::runtime_error("kernel source: " + repo.string() + " is not a git repository: " + r.output);
  const fs::path git_dir = util::trim_end(r.output);
  const std::string name = "tree-" + util::sha256_hex(git_dir.string() + "\n" + config_key).substr(0, 32);
  auto lock = util::FileLock::try_lock(cache_root / "locks" / ("kernel-" + name + ".lock"));
  if (!lock) return std::nullopt;
  const fs::path dir = cache_root / "kbuild" / name;
  fs::create_directories(dir);
  touch_used(dir);
  return WorkTree(dir, git_dir, std::move(*lock));
}

std::string WorkTree::git(std::vector<std::string> args) const {
  std::vector<std::string> argv{"git", "--git-dir", git_dir_.string(), "--work-tree", src().string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return util::run_checked(argv, run_options(std::chrono::seconds(1800), src(), {{"GIT_INDEX_FILE", (dir_ / "index").string()}}))
      .output;
}

bool WorkTree::move_to(const std::string& commit, const std::vector<fs::path>& patches, const Progress& progress) {
  const fs::path file = dir_ / "state.json";
  json state = read_state(file);
  previous_ = state.value("commit", "");
  const bool was_patched = state.value("patched", true);
  // While files move the state names no commit, so an interrupted move is configured again.
  state["commit"] = "";
  state["patched"] = true;
  write_state(file, state);
  fs::create_directories(src());
  report(progress, "checkout",
         previous_.empty() ? fmt::format("checking out {} into {}", short_sha(commit), src().string())
                           : fmt::format("moving {} from {} to {}: only the files that differ", src().string(),
                                         short_sha(previous_), short_sha(commit)));
  try {
    git({"read-tree", "--reset", "-u", commit});
    if (was_patched) git({"clean", "-fdxq"});  // files an earlier patch created
  } catch (const std::exception& e) {
    give_back_if_full(e);
    throw;
  }
  apply_patches(src(), patches);
  state["commit"] = commit;
  state["patched"] = !patches.empty();
  write_state(file, state);

  patches_ = patch_set_hash(patches);
  const json configured = state.value("configured", json::object());
  if (!fs::is_regular_file(obj() / ".config") || configured.value("patches", "") != patches_) return true;
  const std::string at = configured.value("commit", "");
  if (at.empty()) return true;
  std::istringstream changed(git({"diff", "--name-only", "--no-renames", at, commit}));
  for (std::string path; std::getline(changed, path);)
    if (affects_config(path)) return true;
  return false;
}

void WorkTree::configured() {
  const fs::path file = dir_ / "state.json";
  json state = read_state(file);
  state["configured"] = {{"commit", state.value("commit", "")}, {"patches", patches_}};
  write_state(file, state);
}

}  // namespace rlab::build

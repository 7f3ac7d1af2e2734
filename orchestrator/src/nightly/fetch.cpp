#include "nightly/fetch.hpp"

#include "util/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace rlab::nightly {
namespace fs = std::filesystem;

namespace {

/// git's first "fatal:"/"error:" line (the cause; hints follow it), else its last line.
std::string first_complaint(const std::string& output) {
  std::istringstream in(output);
  std::string last;
  for (std::string line; std::getline(in, line);) {
    line = util::trim_end(line);
    if (line.rfind("fatal: ", 0) == 0 || line.rfind("error: ", 0) == 0) return line;
    if (!line.empty()) last = line;
  }
  return last;
}

}  // namespace

std::vector<FetchResult> fetch_remotes(const matrix::Matrix& m, const fs::path& tree,
                                       std::chrono::seconds timeout) {
  std::vector<fs::path> trees = matrix::fetch_trees(m);
  if (!tree.empty() && std::find(trees.begin(), trees.end(), tree) == trees.end())
    trees.insert(trees.begin(), tree);
  std::vector<FetchResult> out;
  if (m.nightly.fetch.empty()) return out;
  if (trees.empty()) {  // --tree can supply the tree, so the matrix alone cannot be refused
    FetchResult f;
    f.remote = m.nightly.fetch.front();
    f.message = "no git tree to fetch in (no --tree or nightly.tree, and no kernel with source.git)";
    out.push_back(std::move(f));
    return out;
  }
  util::ProcessOptions po;
  po.timeout = timeout;
  po.env.emplace("GIT_TERMINAL_PROMPT", std::string("0"));  // unattended: a password prompt fails
  for (const auto& t : trees) {
    for (const auto& remote : m.nightly.fetch) {
      FetchResult f;
      f.tree = t;
      f.remote = remote;
      try {
        const auto r = util::run({"git", "-C", t.string(), "fetch", "--prune", "--quiet", "--", remote}, po);
        f.ok = r.ok();
        f.seconds = r.elapsed.count();
        if (r.timed_out) f.message = fmt::format("no answer within {} s", timeout.count());
        else if (!r.ok()) f.message = first_complaint(r.output);
        if (!r.ok() && f.message.empty()) f.message = fmt::format("git exited {}", r.exit_code);
      } catch (const std::exception& e) {
        f.message = std::string("cannot run git: ") + e.what();
      }
      out.push_back(std::move(f));
    }
  }
  return out;
}

std::string describe(const FetchResult& f) {
  if (f.tree.empty()) return fmt::format("fetch {}: failed: {}", f.remote, f.message);
  if (f.ok) return fmt::format("fetch {} in {}: ok in {:.0f} s", f.remote, f.tree.string(), f.seconds);
  return fmt::format("fetch {} in {}: failed: {}", f.remote, f.tree.string(), f.message);
}

}  // namespace rlab::nightly

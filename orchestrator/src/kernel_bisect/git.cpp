#include "kernel_bisect/git.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <fstream>
#include <regex>
#include <sstream>

namespace rlab::kernel_bisect {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> with_tree(const fs::path& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv{"git", "-C", dir.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

util::ProcessOptions quiet() {
  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(600);
  o.env["LC_ALL"] = "C";
  return o;
}

}  // namespace

BisectOutcome parse_bisect_output(const std::string& output) {
  BisectOutcome out;
  static const std::regex found(R"(([0-9a-f]{40}) is the first bad commit)");
  std::smatch m;
  if (std::regex_search(output, m, found)) {
    out.done = true;
    out.first_bad = m[1];
    return out;
  }
  auto pos = output.find("There are only 'skip'ped commits left to test.");
  if (pos == std::string::npos) return out;
  out.done = true;
  static const std::regex sha(R"(^([0-9a-f]{40})\s*$)");
  std::istringstream in(output.substr(pos));
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, m, sha)) out.candidates.push_back(m[1]);
    if (line.rfind("We cannot bisect more", 0) == 0) break;
  }
  return out;
}

GitTree::GitTree(fs::path dir) : dir_(fs::absolute(std::move(dir)).lexically_normal()) {
  if (!fs::exists(dir_)) throw GitError("git tree " + dir_.string() + " does not exist");
  auto r = util::run(with_tree(dir_, {"rev-parse", "--git-dir"}), quiet());
  if (!r.ok()) throw GitError(dir_.string() + " is not a git repository: " + util::trim_end(r.output));
}

std::string GitTree::git(const std::vector<std::string>& args) const {
  auto argv = with_tree(dir_, args);
  auto r = util::run(argv, quiet());
  if (!r.ok())
    throw GitError(dir_.string() + ": " + util::display_command(argv) + " failed (exit " +
                   std::to_string(r.exit_code) + "): " + util::tail(r.output, 10));
  return r.output;
}

std::string GitTree::resolve(const std::string& ref) const {
  auto r = util::run(with_tree(dir_, {"rev-parse", "--verify", "--quiet", ref + "^{commit}"}), quiet());
  if (!r.ok() || util::trim_end(r.output).empty())
    throw GitError(dir_.string() + ": '" + ref + "' is not a commit in this tree");
  return util::trim_end(r.output);
}

bool GitTree::is_ancestor(const std::string& ancestor, const std::string& descendant) const {
  auto r = util::run(with_tree(dir_, {"merge-base", "--is-ancestor", ancestor, descendant}), quiet());
  if (r.exit_code == 0) return true;
  if (r.exit_code == 1) return false;
  throw GitError(dir_.string() + ": git merge-base --is-ancestor failed: " + util::tail(r.output, 5));
}

std::size_t GitTree::count_between(const std::string& good, const std::string& bad) const {
  return std::stoul(util::trim_end(git({"rev-list", "--count", good + ".." + bad})));
}

std::string GitTree::subject(const std::string& commit) const {
  return util::trim_end(git({"log", "-1", "--format=%s", commit}));
}

std::optional<std::string> GitTree::parent(const std::string& commit) const {
  auto r = util::run(with_tree(dir_, {"rev-parse", "--verify", "--quiet", commit + "^1"}), quiet());
  if (!r.ok()) return std::nullopt;
  return util::trim_end(r.output);
}

bool GitTree::bisecting() const {
  return util::run(with_tree(dir_, {"bisect", "log"}), quiet()).ok();
}

BisectOutcome GitTree::start(const std::string& bad, const std::string& good) const {
  return parse_bisect_output(git({"bisect", "start", "--no-checkout", bad, good}));
}

BisectOutcome GitTree::mark(const std::string& term, const std::string& commit) const {
  if (term != "good" && term != "bad" && term != "skip")
    throw std::invalid_argument("git bisect term '" + term + "': expected good, bad or skip");
  // git ends a bisection that only skipped commits are left in with exit 2 ("We cannot bisect
  // more!") after listing the candidates: an outcome, not a failure.
  const auto argv = with_tree(dir_, {"bisect", term, commit});
  auto r = util::run(argv, quiet());
  auto outcome = parse_bisect_output(r.output);
  if (!r.ok() && !(outcome.done && outcome.first_bad.empty()))
    throw GitError(dir_.string() + ": " + util::display_command(argv) + " failed (exit " +
                   std::to_string(r.exit_code) + "): " + util::tail(r.output, 10));
  return outcome;
}

std::string GitTree::current() const {
  auto r = util::run(with_tree(dir_, {"rev-parse", "--verify", "--quiet", "BISECT_HEAD"}), quiet());
  if (r.ok() && !util::trim_end(r.output).empty()) return util::trim_end(r.output);
  return resolve("HEAD");
}

std::pair<int, BisectOutcome> GitTree::run(const std::vector<std::string>& argv,
                                           const fs::path& log) const {
  std::vector<std::string> args{"bisect", "run"};
  args.insert(args.end(), argv.begin(), argv.end());
  auto o = quiet();
  o.timeout.reset();
  o.log_file = log;
  o.echo = true;
  std::uintmax_t before = fs::exists(log) ? fs::file_size(log) : 0;
  auto r = util::run(with_tree(dir_, args), o);
  std::string text = util::read_file(log);
  return {r.exit_code, parse_bisect_output(text.substr(std::min<std::size_t>(before, text.size())))};
}

std::string GitTree::log() const { return git({"bisect", "log"}); }

void GitTree::reset() const {
  if (bisecting()) git({"bisect", "reset"});
  std::error_code ec;
  fs::remove(owner_file(), ec);
}

std::vector<std::string> GitTree::changed_files(const std::string& parent, const std::string& commit) const {
  std::vector<std::string> out;
  std::istringstream in(git({"diff", "--name-only", parent, commit}));
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

std::optional<std::string> GitTree::revert_onto(const std::string& commit, const std::string& onto,
                                                std::string& why) const {
  const auto from = parent(commit);
  if (!from) throw GitError(dir_.string() + ": " + commit + " has no parent to revert it to");
  // Made before (a resumed session): the same commit, so its kernel and boots are reused.
  const std::string ref = "refs/rlab/reverts/" + commit;
  if (auto r = util::run(with_tree(dir_, {"rev-parse", "--verify", "--quiet", ref + "^{commit}"}), quiet()); r.ok()) {
    const std::string made = util::trim_end(r.output);
    if (parent(made) == onto) return made;
  }
  const fs::path index = fs::temp_directory_path() / fmt::format("rlab-revert-{}.index", ::getpid());
  struct Remove {
    fs::path p;
    ~Remove() { std::error_code ec; fs::remove(p, ec); }
  } remove{index};
  auto o = quiet();
  o.env["GIT_INDEX_FILE"] = index.string();
  auto step = [&](const std::vector<std::string>& args, const std::string& in = "") {
    auto po = o;
    po.stdin_data = in;
    return util::run(with_tree(dir_, args), po);
  };
  if (auto r = step({"read-tree", onto}); !r.ok()) throw GitError(dir_.string() + ": git read-tree " + onto + ": " + util::trim_end(r.output));
  const std::string diff = git({"diff", "--binary", "--no-color", *from, commit});
  if (auto r = step({"apply", "--cached", "-R", "-"}, diff); !r.ok()) {
    std::istringstream in(r.output);
    std::getline(in, why);
    why = util::trim_end(why);
    return std::nullopt;
  }
  const auto tree = step({"write-tree"});
  if (!tree.ok()) throw GitError(dir_.string() + ": git write-tree: " + util::trim_end(tree.output));
  auto c = quiet();
  for (const char* k : {"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"}) c.env[k] = std::string("rlab");
  for (const char* k : {"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"}) c.env[k] = std::string("rlab@localhost");
  const auto made = util::run(with_tree(dir_, {"commit-tree", util::trim_end(tree.output), "-p", onto, "-m",
                                               fmt::format("Revert \"{}\"\n\nThis reverts commit {} (rlab's culprit check).",
                                                           subject(commit), commit)}),
                              c);
  if (!made.ok()) throw GitError(dir_.string() + ": git commit-tree: " + util::trim_end(made.output));
  const std::string sha = util::trim_end(made.output);
  git({"update-ref", ref, sha});
  return sha;
}

fs::path GitTree::owner_file() const {
  fs::path d = util::trim_end(git({"rev-parse", "--git-dir"}));
  if (d.is_relative()) d = dir_ / d;
  return d / "rlab-bisect";
}

void GitTree::mark_owner(std::int64_t session) const {
  util::write_file_atomic(owner_file(), fmt::format("session {} pid {}\n", session, static_cast<long>(::getpid())));
}

std::optional<GitTree::Owner> GitTree::owner() const {
  std::error_code ec;
  const fs::path f = owner_file();
  if (!fs::is_regular_file(f, ec)) return std::nullopt;
  Owner o;
  std::istringstream in(util::read_file(f));
  std::string w1, w2;
  if (!(in >> w1 >> o.session >> w2 >> o.pid) || w1 != "session" || w2 != "pid") return std::nullopt;
  o.alive = o.pid > 0 && (::kill(static_cast<pid_t>(o.pid), 0) == 0 || errno == EPERM);
  return o;
}

bisection::SearchState GitBisecter::state() {
  bisection::SearchState s;
  s.done = outcome_.done;
  s.first_bad = outcome_.first_bad;
  s.candidates = outcome_.candidates;
  if (!s.done) s.next = git_.current();
  return s;
}

void GitBisecter::mark(const std::string& commit, bisection::StepResult result) {
  outcome_ = git_.mark(std::string(bisection::step_result_name(result)), commit);
}

}  // namespace rlab::kernel_bisect

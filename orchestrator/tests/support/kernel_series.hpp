#pragma once
// Test helper: a bare kernel git repository made from Debian's linux-source-6.12 (one base
// commit, the unpacked tree read in place) and commits on top of it, made with git plumbing
// (hash-object, update-index --cacheinfo, write-tree, commit-tree) under fixed identities and
// dates, so the SHAs are the same on every run and a second run finds its kernels cached.
// The busy loop in xfs_inodegc_queue() is the regression both end-to-end tests plant.
#include "build/kernel_source.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace rlab::testing {

class KernelSeries {
 public:
  /// Creates `<work>/linux.git` (bare, branch main) whose one commit is the Debian 6.12 tree.
  explicit KernelSeries(const std::filesystem::path& work)
      : repo_(work / "linux.git"), index_(work / "linux.index") {
    build::KernelSource debian;
    debian.debian_version = "6.12";
    debian.debian_suite = "trixie";
    const auto src = build::fetch_kernel_source(debian, util::cache_dir());
    run({"git", "init", "-q", "--bare", "-b", "main", repo_.string()});  // HEAD must resolve for git bisect
    // Loose objects uncompressed: half the CPU of git's default (9.6 s against 20.9 s for the
    // 6.12 tree, 2026-12-07) for 1.6 GB instead of 550 MB in the test's scratch directory.
    plumb({"-c", "core.looseCompression=0", "add", "-A", "-f", "."}, "", src.dir);
    tip_ = plumb({"commit-tree", plumb({"write-tree"}), "-m", "linux-source " + src.commit});
    plumb({"update-ref", "refs/heads/main", tip_});
    base_ = tip_;
  }

  const std::filesystem::path& repo() const { return repo_; }
  const std::string& base() const { return base_; }  ///< the Debian tree's commit
  const std::string& tip() const { return tip_; }    ///< the newest commit (branch main)

  /// The text of `path` at the tip (as the commits so far left it).
  std::string& content(const std::string& path) {
    if (!text_.count(path)) text_[path] = plumb({"cat-file", "blob", base_ + ":" + path}) + "\n";
    return text_[path];
  }
  /// Commits `body` as `path` on top of the tip with `subject`; main follows. Returns the SHA.
  /// With `lasting` false the next commit of `path` starts again from its text before this one
  /// (a change the next commit undoes, such as one that breaks the build).
  std::string commit(const std::string& path, const std::string& body, const std::string& subject,
                     bool lasting = true) {
    if (lasting) content(path) = body;
    const auto blob = plumb({"hash-object", "-w", "--stdin"}, body);
    plumb({"update-index", "--cacheinfo", "100644," + blob + "," + path});
    tip_ = plumb({"commit-tree", plumb({"write-tree"}), "-p", tip_, "-m", subject});
    plumb({"update-ref", "refs/heads/main", tip_});
    return tip_;
  }
  /// A harmless comment appended to `path`.
  std::string comment(const std::string& path, const std::string& subject) {
    return commit(path, content(path) + "/* rlab test series: " + subject + " */\n", subject);
  }
  /// The regression: every inode queued for inactivation burns `spins` loop iterations (6M:
  /// ~18M instructions, which `clock: icount` counts), i.e. every file shell1 removes.
  std::string slow_inodegc(const std::string& subject, unsigned long spins = 6000000) {
    return insert("fs/xfs/xfs_icache.c", "\ttrace_xfs_inode_set_need_inactive(ip);\n",
                  "\t{\t/* rlab test series: burn CPU in inodegc queueing */\n"
                  "\t\tunsigned long spin;\n"
                  "\t\tfor (spin = 0; spin < " + std::to_string(spins) + "UL; spin++)\n"
                  "\t\t\tbarrier();\n"
                  "\t}\n",
                  subject);
  }

  /// Commits `code` inserted after the first `anchor` of `path` (a test fails when it is not
  /// there). Returns the SHA.
  std::string insert(const std::string& path, const std::string& anchor, const std::string& code,
                     const std::string& subject) {
    return commit(path, insert_after(content(path), anchor, code), subject);
  }

  /// The regression in wall time: every inode queued for inactivation busy-waits `ms`
  /// milliseconds of the guest's own clock (mdelay), however fast its CPU is emulated. Under
  /// KVM on an emulated host a CPU-bound loop costs little next to the exits that dominate
  /// shell1 there; a delay does not.
  std::string delay_inodegc(unsigned ms, const std::string& subject) {
    return insert("fs/xfs/xfs_icache.c", "\ttrace_xfs_inode_set_need_inactive(ip);\n",
                  "\tmdelay(" + std::to_string(ms) + ");\t/* rlab test series: delay inodegc queueing */\n", subject);
  }

  /// git with this repository as GIT_DIR and its own index; fails the test on an error.
  std::string plumb(std::vector<std::string> args, const std::string& stdin_data = "",
                    const std::filesystem::path& work_tree = {}) {
    std::vector<std::string> argv{"git", "--git-dir=" + repo_.string()};
    if (!work_tree.empty()) argv.push_back("--work-tree=" + work_tree.string());
    argv.insert(argv.end(), args.begin(), args.end());
    return run(argv, stdin_data);
  }

  static std::string insert_after(std::string text, const std::string& anchor, const std::string& add) {
    const auto pos = text.find(anchor);
    EXPECT_NE(pos, std::string::npos) << "anchor not found: " << anchor;
    if (pos != std::string::npos) text.insert(pos + anchor.size(), add);
    return text;
  }

 private:
  std::string run(const std::vector<std::string>& argv, const std::string& stdin_data = "") {
    util::ProcessOptions o;
    o.timeout = std::chrono::seconds(600);
    o.env = {{"GIT_AUTHOR_NAME", "rlab test"},     {"GIT_AUTHOR_EMAIL", "test@rlab.invalid"},
             {"GIT_COMMITTER_NAME", "rlab test"},  {"GIT_COMMITTER_EMAIL", "test@rlab.invalid"},
             {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"}, {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"},
             {"LC_ALL", "C"},                      {"GIT_INDEX_FILE", index_.string()}};
    o.stdin_data = stdin_data;
    auto r = util::run(argv, o);
    EXPECT_TRUE(r.ok()) << util::display_command(argv) << ":\n" << util::tail(r.output, 20);
    while (!r.output.empty() && r.output.back() == '\n') r.output.pop_back();
    return r.output;
  }

  std::filesystem::path repo_, index_;
  std::string base_, tip_;
  std::map<std::string, std::string> text_;
};

}  // namespace rlab::testing

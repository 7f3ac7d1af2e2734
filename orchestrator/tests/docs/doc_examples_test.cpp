// The docs' examples against the binary: every marked example in README.md and docs/*.md
// (doc_examples.hpp) is run — the commands that need no guest: help texts, dry runs, and the
// reading commands on stores filled here — and its output's shape compared with the example,
// so the docs cannot drift from what rlab prints. RLAB_UPDATE_DOCS=1 rewrites the examples
// from the output instead (review the diff). Also: docs/usage.md's command table and exit
// codes name every subcommand `rlab --help` lists, and every command's help text is shown.
#include "doc_examples.hpp"

#include "../changepoint/nightly_history.hpp"
#include "../compare/scenario.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;
using namespace rlab::testing;

/// Where the docs say the clone is: the source tree and a fixture's directory print as this.
const std::string kDocRoot = "/root/rlab";

const fs::path kSource = RLAB_SOURCE_DIR;

std::vector<fs::path> doc_files() {
  std::vector<fs::path> files{kSource / "README.md"};
  std::vector<fs::path> docs;
  for (const auto& e : fs::directory_iterator(kSource / "docs"))
    if (e.path().extension() == ".md") docs.push_back(e.path());
  std::sort(docs.begin(), docs.end());
  files.insert(files.end(), docs.begin(), docs.end());
  return files;
}

std::string bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b ? b : "";
}

// ---- fixtures: what a store holds when an example runs a reading command on it -----------

/// The default matrix's cells (2 kernels x XFS, ext4 x 1 vCPU, one 15 s pass) in
/// deterministic mode, 5 repeats.
const char* const kDefaultMatrix = R"(kernels:
  "6.12": {source: {debian: "6.12", suite: trixie}, page_size: 64k}
  6.12+inline-inactivation: {extends: "6.12", patchset: inline-inactivation}
axes:
  kernel: ["6.12", 6.12+inline-inactivation]
  filesystem: [{fs: xfs}, {fs: ext4}]
  vcpus: [1]
  workload: [{type: shell1, copies: vcpus, passes: 1, duration_s: 15}]
  repeats: 5
guest: {clock: icount}
)";

/// A run of the default matrix as a 2-core x86 host gives it under icount (scores of the
/// 2026-12-06 run in docs/benchmarks.md, 0.0005% from boot to boot): the patch changes
/// neither filesystem's score.
void fill_default(const fs::path& dir) {
  std::ofstream(dir / "matrix.yaml") << kDefaultMatrix << "results: results/rlab.db\n";
  auto st = store::Store::open(dir / "results" / "rlab.db");
  const auto run = fill_run(*st, "matrix", [](const std::string& cell, const std::string& kernel, unsigned r) {
    const bool patched = kernel != "6.12", xfs = cell.find("/xfs-") != std::string::npos;
    BootSpec b;
    b.env = tcg_env("[]", patched);
    b.env.fs = xfs ? "xfs" : "ext4";
    b.env.vcpus = b.env.copies = b.env.passes = 1;
    b.env.duration_s = 15;
    const double lpm = xfs ? (patched ? 211.83 : 211.80) : (patched ? 213.21 : 213.20);
    b.score = lpm * (1 + 5e-6 * z(r, patched ? 3 : 1));
    if (xfs) b.tracepoints = {{"xfs:xfs_inodegc_queue", 70}, {"xfs:xfs_inodegc_worker", 9}, {"xfs:xfs_inodegc_throttle", 0}};
    return b;
  }, kDefaultMatrix, "", (dir / "matrix.yaml").string());
  double s = 1.17;
  for (const auto& b : st->boots(run)) st->record_boot_seconds(b.id, s += 0.013);
}

/// compare's scenario (tests/compare/scenario.hpp): run 1 the base, run 2 the new run, run 3
/// the new run's boots under KVM, run 4 three kernels of one row (tests CompareCli*).
void fill_compare(const fs::path& dir) {
  std::ofstream(dir / "matrix.yaml") << kMatrixText << "results: results/rlab.db\n";
  const std::string m = (dir / "matrix.yaml").string();
  auto st = store::Store::open(dir / "results" / "rlab.db");
  fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); }, kMatrixText, "", m);
  fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) { return scenario_boot(1, c, k, r); }, kMatrixText, "", m);
  fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
    auto b = scenario_boot(1, c, k, r);
    b.env.accel = "kvm";
    return b;
  }, kMatrixText, "", m);
  std::string text = kMatrixText;
  text.replace(text.find("axes:"), 0, "  6.12+rebuilt: {extends: \"6.12\", patchset: inline-inactivation}\n");
  const std::string two = "kernel: [\"6.12\", 6.12+inline-inactivation]";
  text.replace(text.find(two), two.size(), "kernel: [\"6.12\", 6.12+inline-inactivation, 6.12+rebuilt]");
  fill_run(*st, "matrix", [](auto& c, auto& k, unsigned r) {
    BootSpec b;
    if (c.find("agcount4") != std::string::npos) return b;  // left pending: one row
    const std::map<std::string, std::pair<double, unsigned>> median_shift = {
        {"6.12", {270.0, 2}}, {"6.12+inline-inactivation", {240.0, 4}}, {"6.12+rebuilt", {270.5, 6}}};
    const auto [median, shift] = median_shift.at(k);
    b.score = median * (1 + 0.003 * z(r, shift));
    b.env = tcg_env("[]", false);
    b.env.kernel_release = "6.12.57+" + k;
    return b;
  }, text, "", m);
}

/// Two nights of compare's scenario, one boot of the second night failed (tests TwoNights).
void fill_nights(const fs::path& dir) {
  std::ofstream(dir / "matrix.yaml") << kMatrixText << "results: results/rlab.db\n";
  const std::string m = (dir / "matrix.yaml").string();
  auto st = store::Store::open(dir / "results" / "rlab.db");
  fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) { return scenario_boot(0, c, k, r); }, kMatrixText, "", m);
  fill_run(*st, "nightly", [](auto& c, auto& k, unsigned r) {
    auto b = scenario_boot(1, c, k, r);
    if (c == kInlineAgcount4 && r == 0) b.fail = true;
    return b;
  }, kMatrixText, "", m);
}

/// 30 nightly runs, XFS 12% slower from the 19th on (tests DetectCli).
void fill_history(const fs::path& dir) {
  auto st = store::Store::open(dir / "results" / "rlab.db");
  fill_nightly_history(*st, (dir / "nightly.yaml").string());
}

const std::map<std::string, std::function<void(const fs::path&)>> kFixtures = {
    {"default", fill_default}, {"compare", fill_compare}, {"nights", fill_nights}, {"history", fill_history}};

// ---- running an example ------------------------------------------------------------------

struct Ran {
  util::ProcessResult result;
  std::vector<std::string> lines;  ///< normalized output, or the file's lines
  std::string error;               ///< why it could not be run or read
};

/// `pattern` under `dir`, one `*` per component matching one name; "" when not exactly one.
fs::path find_file(const fs::path& dir, const fs::path& pattern) {
  std::vector<fs::path> at{dir};
  for (const auto& part : pattern) {
    std::vector<fs::path> next;
    const std::string p = part.string();
    const auto star = p.find('*');
    for (const auto& d : at) {
      if (star == std::string::npos) {
        if (fs::exists(d / part)) next.push_back(d / part);
        continue;
      }
      if (!fs::is_directory(d)) continue;
      for (const auto& e : fs::directory_iterator(d)) {
        const std::string n = e.path().filename().string();
        if (n.size() >= p.size() - 1 && n.compare(0, star, p, 0, star) == 0 &&
            n.compare(n.size() - (p.size() - star - 1), std::string::npos, p, star + 1) == 0)
          next.push_back(e.path());
      }
    }
    at = next;
  }
  return at.size() == 1 ? at[0] : fs::path();
}

Ran run_example(const docs::Example& e, const fs::path& dir) {
  Ran out;
  std::vector<std::string> argv = e.command;
  argv[0] = bin();
  const auto store = e.attrs.find("store");
  if (store != e.attrs.end()) {
    const auto fill = kFixtures.find(store->second);
    if (fill == kFixtures.end()) {
      out.error = "no fixture store=" + store->second;
      return out;
    }
    fs::create_directories(dir / "results");
    fill->second(dir);
    argv.push_back("--db");
    argv.push_back((dir / "results" / "rlab.db").string());
  }
  util::ProcessOptions o;
  o.cwd = dir;
  o.env["RLAB_CACHE_MAX_GIB"] = "";  // the cache's budget as the docs show it: half its filesystem
  o.timeout = std::chrono::seconds(120);
  out.result = util::run(argv, o);
  // The machine's name, where a report names the run's host.
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::map<std::string, std::string> replace = {{bin(), "rlab"},
                                                      {dir.string(), kDocRoot},
                                                      {fs::weakly_canonical(dir).string(), kDocRoot},
                                                      {kSource.string(), kDocRoot},
                                                      {std::string(", host ") + host + "\n", ", host lab\n"}};
  std::string text = out.result.output;
  if (const auto f = e.attrs.find("file"); f != e.attrs.end()) {
    const fs::path p = find_file(dir, f->second);
    if (p.empty()) {
      out.error = "no single file " + f->second + " after the command; its output:\n" + out.result.output;
      return out;
    }
    text = util::read_file(p);
  }
  out.lines = docs::normalize(text, replace);
  return out;
}

bool exit_allowed(const docs::Example& e, int code) {
  const auto it = e.attrs.find("exit");
  const std::string codes = it == e.attrs.end() ? "0" : it->second;
  std::istringstream in(codes);
  for (std::string c; std::getline(in, c, '|');)
    if (c == std::to_string(code)) return true;
  return false;
}

/// Writes `lines` in place of example `e`'s output lines in its file.
void write_back(const docs::Example& e, const std::vector<std::string>& lines) {
  std::ifstream in(e.file);
  std::vector<std::string> all;
  for (std::string l; std::getline(in, l);) all.push_back(l);
  in.close();
  // Output lines are e.first_line + 1 .. e.end_line - 1 (1-based).
  all.erase(all.begin() + static_cast<long>(e.first_line), all.begin() + static_cast<long>(e.end_line - 1));
  all.insert(all.begin() + static_cast<long>(e.first_line), lines.begin(), lines.end());
  std::ofstream outf(e.file, std::ios::trunc);
  for (const auto& l : all) outf << l << "\n";
}

class DocExamples : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(bin().empty()) << "RLAB_BIN is set by ctest to the rlab binary";
    root_ = fs::temp_directory_path() / ("rlab-docs-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  util::ProcessResult rlab(std::vector<std::string> args) {
    args.insert(args.begin(), bin());
    return util::run(args);
  }

  fs::path root_;
};

TEST_F(DocExamples, EveryMarkedExampleHasTheShapeOfWhatTheBinaryPrints) {
  const bool update = std::getenv("RLAB_UPDATE_DOCS") && std::string(std::getenv("RLAB_UPDATE_DOCS")) == "1";
  auto examples = docs::find_examples(doc_files());
  ASSERT_GE(examples.size(), 10u) << "the docs' marked examples were not found";
  // Rewriting goes from the last example of a file up, so that line numbers stay valid.
  std::reverse(examples.begin(), examples.end());
  std::size_t n = 0;
  for (const auto& e : examples) {
    SCOPED_TRACE(e.where() + ": $ " + fmt::format("{}", fmt::join(e.command, " ")));
    const fs::path dir = root_ / std::to_string(n++);
    fs::create_directories(dir);
    const Ran r = run_example(e, dir);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_TRUE(exit_allowed(e, r.result.exit_code)) << "exit code " << r.result.exit_code << "\n" << r.result.output;
    const auto a = docs::match(e, r.lines);
    if (update) {
      const bool excerpt = std::any_of(e.output.begin(), e.output.end(), [](const std::string& l) {
        return l == "…" || l == "...";
      });
      if (!a && excerpt) {
        ADD_FAILURE() << "an excerpt whose lines no longer match: edit it by hand\n"
                      << docs::first_difference(e, r.lines);
        continue;
      }
      write_back(e, docs::rewrite(e, r.lines, a));
      continue;
    }
    EXPECT_TRUE(a.has_value()) << "the example differs from the output (RLAB_UPDATE_DOCS=1 rewrites it):\n"
                               << docs::first_difference(e, r.lines) << "\nwhole output:\n"
                               << fmt::format("{}", fmt::join(r.lines, "\n"));
  }
}

/// The names under "Subcommands:" of a help text.
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> out;
  std::istringstream in(help);
  bool in_list = false;
  for (std::string l; std::getline(in, l);) {
    if (l == "Subcommands:") {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (l.empty()) break;
    std::istringstream words(l);
    std::string name;
    words >> name;
    out.push_back(name);
  }
  return out;
}

/// Every command line `rlab --help` leads to: "run", "images build", ...
std::vector<std::string> all_commands(const std::function<util::ProcessResult(std::vector<std::string>)>& rlab) {
  std::vector<std::string> out;
  for (const auto& c : subcommands(rlab({"--help"}).output)) {
    out.push_back(c);
    for (const auto& s : subcommands(rlab({c, "--help"}).output)) out.push_back(c + " " + s);
  }
  return out;
}

TEST_F(DocExamples, EveryCommandsHelpIsShown) {
  const auto examples = docs::find_examples(doc_files());
  std::set<std::string> shown;
  for (const auto& e : examples)
    if (e.command.size() >= 2 && e.command.back() == "--help")
      shown.insert(fmt::format("{}", fmt::join(e.command.begin() + 1, e.command.end() - 1, " ")));
  EXPECT_TRUE(shown.count("")) << "`rlab --help` is not shown";
  const auto commands = all_commands([&](std::vector<std::string> a) { return rlab(a); });
  ASSERT_GE(commands.size(), 10u);
  for (const auto& c : commands) EXPECT_TRUE(shown.count(c)) << "`rlab " << c << " --help` is shown nowhere in the docs";
}

/// The rows of the Markdown table under the heading `heading` of `file`: their cells.
std::vector<std::vector<std::string>> table_under(const fs::path& file, const std::string& heading) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  bool after = false;
  for (std::string l; std::getline(in, l);) {
    if (!after) {
      after = l == heading;
      continue;
    }
    if (l.rfind("#", 0) == 0) break;
    if (l.rfind("|", 0) != 0) {
      if (!rows.empty()) break;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    bool code = false;
    for (std::size_t i = 1; i < l.size(); ++i) {
      if (l[i] == '`') code = !code;
      if (l[i] == '\\' && i + 1 < l.size() && l[i + 1] == '|') {
        cell += '|';
        ++i;
      } else if (l[i] == '|' && !code) {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += l[i];
      }
    }
    rows.push_back(cells);
  }
  return rows;
}

/// Whether a row's first cell names `rlab <command>` (and, for "images build", "build" in it).
bool names(const std::vector<std::string>& row, const std::string& command) {
  if (row.empty()) return false;
  const auto space = command.find(' ');
  const std::string top = "`rlab " + command.substr(0, space);
  const std::string& c = row[0];
  for (auto at = c.find(top); at != std::string::npos; at = c.find(top, at + 1)) {
    const std::size_t next = at + top.size();
    const char after = next < c.size() ? c[next] : '`';
    if (after != '`' && after != ' ') continue;  // `rlab bisect-step` is not `rlab bisect`
    return space == std::string::npos || c.find(command.substr(space + 1)) != std::string::npos;
  }
  return false;
}

TEST_F(DocExamples, UsageNamesEveryCommandInItsTableAndItsExitCodes) {
  const auto commands = all_commands([&](std::vector<std::string> a) { return rlab(a); });
  const fs::path usage = kSource / "docs" / "usage.md";
  const auto table = table_under(usage, "# Using rlab");
  const auto codes = table_under(usage, "## Exit codes");
  ASSERT_GE(table.size(), 10u);
  ASSERT_GE(codes.size(), 10u);
  for (const auto& c : commands) {
    EXPECT_TRUE(std::any_of(table.begin(), table.end(), [&](const auto& row) { return names(row, c); }))
        << "`rlab " << c << "` is not in docs/usage.md's command table";
    if (c.find(' ') == std::string::npos)
      EXPECT_TRUE(std::any_of(codes.begin(), codes.end(), [&](const auto& row) { return names(row, c); }))
          << "`rlab " << c << "` has no row in docs/usage.md's exit codes";
  }
}

// The comparison itself: what is masked, what an excerpt and a loose section match.
TEST(DocShape, MasksWhatDiffersFromMachineToMachineOnly) {
  EXPECT_EQ(docs::shape("store: /root/rlab/results/rlab.db (not written)", false), "store: <path> (not written)");
  EXPECT_EQ(docs::shape("  6.12  in the cache  key 2bbed547e8183d41, 10 boots", false),
            "# in the cache key <hex>, # boots");
  EXPECT_EQ(docs::shape("estimate: 0s of kernel builds + 6m40s of boots", false), "estimate: <t> of kernel builds + <t> of boots");
  EXPECT_EQ(docs::shape("started 2026-12-06T14:50:31.974Z", false), "started <time>");
  EXPECT_EQ(docs::shape("  --cap UINT=20     Most boots", true), "--cap UINT=20 Most boots");
  EXPECT_NE(docs::shape("  --cap UINT=20", true), docs::shape("  --cap UINT=80", true));
  EXPECT_EQ(docs::shape("qemu:///system  budget 2", false), "qemu:///system budget #");
  EXPECT_EQ(docs::shape("6.12/xfs-defaults/1vcpu/shell1", false), "#/xfs-defaults/#vcpu/shell#");
}

TEST(DocShape, ExcerptsAndLooseSections) {
  docs::Example e;
  e.attrs["loose"] = "hosts (";
  e.output = {"cells (4, 5 boots each = 20 boots):", "…", "hosts (vCPU budget 2 in all):", "  qemu:///system  TCG",
              "store: /x (not written)"};
  const std::vector<std::string> ok = {"cells (4, 10 boots each = 40 boots):", "  a", "  b",
                                       "hosts (vCPU budget 144 in all):", "  qemu:///system  KVM", "    more",
                                       "store: /y (not written)"};
  EXPECT_TRUE(docs::match(e, ok));
  auto missing = ok;
  missing.erase(missing.begin() + 3, missing.begin() + 6);
  EXPECT_FALSE(docs::match(e, missing)) << "a loose section must be there";
  auto changed = ok;
  changed.back() = "store: /y (written)";
  EXPECT_FALSE(docs::match(e, changed));
  const auto a = docs::match(e, ok);
  EXPECT_EQ(docs::rewrite(e, ok, a),
            (std::vector<std::string>{"cells (4, 10 boots each = 40 boots):", "…", "hosts (vCPU budget 144 in all):",
                                      "  qemu:///system  KVM", "    more", "store: /y (not written)"}));
}

}  // namespace

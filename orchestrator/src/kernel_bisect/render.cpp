#include "kernel_bisect/render.hpp"

#include "kernel_bisect/lab.hpp"

#include "attribution/ag_table.hpp"
#include "attribution/flame.hpp"
#include "attribution/render.hpp"
#include "kernel_bisect/culprit.hpp"
#include "compare/compare.hpp"
#include "stats/descriptive.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>

#include <optional>
#include <sstream>

namespace rlab::kernel_bisect {
namespace {

std::string subject_of(const GitTree& git, const std::string& c) {
  try {
    return git.subject(c);
  } catch (const std::exception&) {
    return "";
  }
}

std::string end_line(const SessionDb& db, const Session& s, const char* what, const std::string& c) {
  auto x = db.samples(s.id, c, kEndsPurpose);
  if (x.empty()) return fmt::format("  {:<4} {}  no samples\n", what, c.substr(0, 12));
  return fmt::format("  {:<4} {}  {} boots checking the ends, median {:.1f} lpm, ±{:.1f}%\n", what,
                     c.substr(0, 12),
                     x.size(), stats::median(x),
                     x.size() > 1 ? 100 * stats::relative_stddev(x) : 0.0);
}

std::vector<compare::BootData> boots_of(const SessionDb& db, SessionId id, const std::string& commit) {
  std::vector<compare::BootData> out;
  for (auto run : db.batches(id, commit)) {
    for (auto& b : store::scored_boots(db.store(), run))
      if (b.kernel == commit.substr(0, 12)) out.push_back(std::move(b));  // a batch boots several
  }
  return out;
}

/// The two sides of "where the time went": the first bad commit's boots against its parent's
/// (else the good end's), as profiles; nullopt when either side has no boot.
struct CulpritSides {
  std::string base;
  std::vector<attribution::BootProfile> base_boots, bad_boots;
  std::vector<attribution::BootAgHeaders> base_ags, bad_ags;  ///< XFS AG header figures of the same boots
};

std::optional<CulpritSides> culprit_sides(const SessionDb& db, const Session& s, const GitTree& git) {
  if (s.first_bad.empty()) return std::nullopt;
  CulpritSides c;
  if (auto p = git.parent(s.first_bad); p && !db.samples(s.id, *p).empty()) c.base = *p;
  if (c.base.empty()) c.base = s.spec.good_commit;
  for (const auto& x : boots_of(db, s.id, c.base)) {
    c.base_boots.push_back(attribution::profile_of(x.passes));
    c.base_ags.push_back(attribution::ag_headers_of(x.passes));
  }
  for (const auto& x : boots_of(db, s.id, s.first_bad)) {
    c.bad_boots.push_back(attribution::profile_of(x.passes));
    c.bad_ags.push_back(attribution::ag_headers_of(x.passes));
  }
  if (c.base_boots.empty() || c.bad_boots.empty()) return std::nullopt;
  return c;
}

/// What changed at the first bad commit against its parent (else the nearest good-answered
/// ancestor, else the good end), every counter family ranked (attribution/rank.hpp).
std::string what_changed(const SessionDb& db, const Session& s, const GitTree& git) {
  const auto c = culprit_sides(db, s, git);
  if (!c) return "";
  std::ostringstream out;
  out << fmt::format("\nwhere the time went: {} ({} boots) -> {} ({} boots)\n", c->base.substr(0, 12),
                     c->base_boots.size(), s.first_bad.substr(0, 12), c->bad_boots.size());
  attribution::render_ranking(attribution::rank(c->base_boots, c->bad_boots, {.fdr = 0.05, .top = 15, .context_top = 8}), out);
  if (const auto ag = attribution::ag_compare(c->base_ags, c->bad_ags))
    attribution::render_ag_comparison(*ag, out, "  ", c->base.substr(0, 12), "first bad " + s.first_bad.substr(0, 12));
  return out.str();
}

}  // namespace

std::string render_report(const SessionDb& db, const Session& s, const GitTree& git) {
  std::string out = fmt::format("bisect session {}: {} in {}, cell {}\n", s.id,
                                direction_name(s.spec.direction), s.spec.tree.string(), s.spec.cell_id);
  out += end_line(db, s, "good", s.spec.good_commit);
  out += end_line(db, s, "bad", s.spec.bad_commit);
  auto steps = db.steps(s.id);
  if (!steps.empty()) {
    // Each step boots the commit and both ends in turn; "good"/"bad" are the ends' medians of
    // those boots, "vs good" the commit's change against them.
    out += fmt::format("\n{:>4}  {:<12}  {:<5} {:>5} {:>10} {:>8} {:>8} {:>8} {:>9} {:>9}  {}\n", "step",
                       "commit", "", "boots", "median", "good", "bad", "vs good", "p good", "p bad", "subject");
    auto lpm = [](double v, bool has) { return has ? fmt::format("{:.1f}", v) : std::string("-"); };
    for (const auto& r : steps)
      out += fmt::format("{:>4}  {:<12}  {:<5} {:>5} {:>10} {:>8} {:>8} {:>8} {:>9.2g} {:>9.2g}  {}\n", r.seq,
                         r.commit.substr(0, 12), r.result, r.samples, lpm(r.median, r.samples > 0),
                         lpm(r.good_median, r.reference_samples > 0), lpm(r.bad_median, r.reference_samples > 0),
                         r.samples ? fmt::format("{:+.1f}%", 100 * r.change_vs_good) : std::string("-"),
                         r.p_vs_good, r.p_vs_bad, subject_of(git, r.commit));
    std::size_t boots = 0;
    for (const auto& r : steps) boots += r.samples + r.reference_samples;
    out += fmt::format("{} steps, {} boots in steps (commits and the ends alongside)\n", steps.size(), boots);
  }
  out += "\n";
  if (s.status == SessionState::found) {
    out += fmt::format("first bad commit: {} {}\n", s.first_bad, subject_of(git, s.first_bad));
    if (const auto checks = checks_from_json(s.checks_json))
      out += std::string(checks->suspicious() ? "the culprit is SUSPICIOUS:\n" : "checks of the culprit:\n") +
             render_checks(*checks);
    else
      out += "checks of the culprit: not made yet\n";
    out += what_changed(db, s, git);
  } else if (s.status == SessionState::hidden_by_skips) {
    out += "the first bad commit is one of these (skipped commits hide which):\n";
    for (const auto& c : s.candidates) out += fmt::format("  {} {}\n", c, subject_of(git, c));
  } else {
    out += fmt::format("{}: {}\n", state_name(s.status), s.message);
  }
  for (const auto& r : steps)
    if (r.result == "skip")
      out += fmt::format("skipped {} {}: {}\n", r.commit.substr(0, 12), subject_of(git, r.commit),
                         r.reason);
  return out;
}

std::vector<std::filesystem::path> write_flame_graphs(const SessionDb& db, const Session& s, const GitTree& git,
                                                    const std::filesystem::path& dir) {
  const auto c = culprit_sides(db, s, git);
  if (!c) return {};
  std::vector<std::filesystem::path> written;
  const auto ranked = attribution::rank(c->base_boots, c->bad_boots, {.fdr = 0.05, .top = 1});
  for (const auto f : ranked.families) {
    if (!attribution::has_flame_graph(f)) continue;
    attribution::FlameSvgOptions o;
    o.base_label = c->base.substr(0, 12);
    o.new_label = s.first_bad.substr(0, 12);
    o.title = fmt::format("{}: {} -> first bad commit {}, {}", attribution::family_name(f), o.base_label, o.new_label,
                          s.spec.cell_id);
    std::filesystem::create_directories(dir);
    written.push_back(dir / (std::string(attribution::family_name(f)) + ".svg"));
    util::write_file_atomic(written.back(), attribution::flame_svg(attribution::flame_tree(c->base_boots, c->bad_boots, f), o));
  }
  return written;
}

}  // namespace rlab::kernel_bisect

#include "kernel_bisect/render.hpp"

#include "kernel_bisect/lab.hpp"

#include "attribution/ag_table_render.hpp"
#include "attribution/flame.hpp"
#include "attribution/render.hpp"
#include "kernel_bisect/culprit.hpp"
#include "compare/compare.hpp"
#include "stats/descriptive.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string_view>
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

/// A cell id after its kernel name: the same cell at any commit.
std::string_view cell_tail(std::string_view id) {
  const auto slash = id.find('/');
  return slash == std::string_view::npos ? std::string_view{} : id.substr(slash);
}

std::string end_line(const SessionDb& db, const Session& s, const char* what, const std::string& c) {
  auto x = db.statistic(s, c, kEndsPurpose);
  if (x.empty()) return fmt::format("  {:<4} {}  no samples\n", what, c.substr(0, 12));
  const double spread = x.size() > 1 ? 100 * stats::relative_stddev(x) : 0.0;
  if (!s.spec.gap())
    return fmt::format("  {:<4} {}  {} boots checking the ends, median {:.1f} lpm, ±{:.1f}%\n", what, c.substr(0, 12),
                       x.size(), stats::median(x), spread);
  const auto a = db.samples(s.id, c, kEndsPurpose, s.spec.cell_id);
  const auto b = db.samples(s.id, c, kEndsPurpose, s.spec.against_cell_id);
  return fmt::format("  {:<4} {}  {} rounds checking the ends, median ratio {:.4f}, ±{:.1f}% ({:.1f} / {:.1f} lpm)\n",
                     what, c.substr(0, 12), x.size(), stats::median(x), spread, stats::median(a), stats::median(b));
}

/// The scored boots of `commit` in the session's batches; with `cell_id`, that cell's only.
std::vector<compare::BootData> boots_of(const SessionDb& db, SessionId id, const std::string& commit,
                                        const std::string& cell_id = "") {
  std::vector<compare::BootData> out;
  for (auto run : db.batches(id, commit)) {
    for (auto& b : store::scored_boots(db.store(), run))
      if (b.kernel == commit.substr(0, 12) && (cell_id.empty() || cell_tail(b.cell_id) == cell_tail(cell_id)))
        out.push_back(std::move(b));  // a batch boots several
  }
  return out;
}

/// The two sides of "where the time went" in one cell: the first bad commit's boots against its
/// parent's (else the good end's), as profiles.
struct CulpritSides {
  std::string base;
  std::vector<attribution::BootProfile> base_boots, bad_boots;
  std::vector<attribution::BootAgHeaders> base_ags, bad_ags;  ///< XFS AG header figures of the same boots
  double base_lpm = 0, bad_lpm = 0;                           ///< median scores of the two sides
};

/// The sides in cell `cell_id` ("" every boot of the commits); nullopt when either has no boot.
std::optional<CulpritSides> culprit_sides(const SessionDb& db, const Session& s, const GitTree& git,
                                          const std::string& cell_id = "") {
  if (s.first_bad.empty()) return std::nullopt;
  CulpritSides c;
  if (auto p = git.parent(s.first_bad); p && !db.samples(s.id, *p).empty()) c.base = *p;
  if (c.base.empty()) c.base = s.spec.good_commit;
  const auto collect = [&](const std::string& commit, auto& boots, auto& ags) {
    std::vector<double> lpm;
    for (const auto& x : boots_of(db, s.id, commit, cell_id)) {
      boots.push_back(attribution::profile_of(x.passes));
      ags.push_back(attribution::ag_headers_of(x.passes));
      lpm.push_back(x.score);
    }
    return lpm.empty() ? 0.0 : stats::median(lpm);
  };
  c.base_lpm = collect(c.base, c.base_boots, c.base_ags);
  c.bad_lpm = collect(s.first_bad, c.bad_boots, c.bad_ags);
  if (c.base_boots.empty() || c.bad_boots.empty()) return std::nullopt;
  return c;
}

/// `moved` without the rows that also changed, significantly and the same way, in `other`: what
/// changed in one cell net of what changed alike in the other. Returns how many were dropped.
std::size_t net_of(attribution::Ranking& moved, const attribution::Ranking& other) {
  const auto up = [](const attribution::Mover& m) { return m.new_per_kloop > m.base_per_kloop; };
  const auto before = moved.rows.size();
  std::erase_if(moved.rows, [&](const attribution::Mover& m) {
    if (!m.significant) return false;
    for (const auto& o : other.rows)
      if (o.family == m.family && o.key == m.key) return o.significant && up(o) == up(m);
    return false;
  });
  return before - moved.rows.size();
}

/// What changed at the first bad commit against its parent (else the nearest good-answered
/// ancestor, else the good end), every counter family ranked (attribution/rank.hpp). For a gap
/// session: in the cell whose score moved more, net of what changed alike in the other.
std::string what_changed(const SessionDb& db, const Session& s, const GitTree& git) {
  std::optional<CulpritSides> c, other;
  std::string cell = s.spec.cell_id, other_cell = s.spec.against_cell_id;
  if (s.spec.gap()) {
    c = culprit_sides(db, s, git, cell);
    other = culprit_sides(db, s, git, other_cell);
    const auto change = [](const std::optional<CulpritSides>& x) {
      return x && x->base_lpm > 0 ? std::abs(x->bad_lpm / x->base_lpm - 1) : 0.0;
    };
    if (change(other) > change(c)) {
      std::swap(c, other);
      std::swap(cell, other_cell);
    }
  } else {
    c = culprit_sides(db, s, git);
  }
  if (!c) return "";
  std::ostringstream out;
  out << fmt::format("\nwhere the time went: {} ({} boots) -> {} ({} boots)", c->base.substr(0, 12),
                     c->base_boots.size(), s.first_bad.substr(0, 12), c->bad_boots.size());
  auto ranking = attribution::rank(c->base_boots, c->bad_boots, {.fdr = 0.05, .top = s.spec.gap() ? 0u : 15u, .context_top = 8});
  if (s.spec.gap()) {
    out << fmt::format(" in {} ({:+.1f}%)", cell, 100 * (c->bad_lpm / c->base_lpm - 1));
    std::size_t dropped = 0;
    if (other) {
      out << fmt::format(", net of what changed alike in {} ({:+.1f}%)", other_cell,
                         100 * (other->bad_lpm / other->base_lpm - 1));
      dropped = net_of(ranking, attribution::rank(other->base_boots, other->bad_boots, {.fdr = 0.05, .top = 0}));
    }
    constexpr std::size_t kTop = 15;
    ranking.left_out = ranking.rows.size() > kTop ? ranking.rows.size() - kTop : 0;
    if (ranking.rows.size() > kTop) ranking.rows.resize(kTop);
    out << fmt::format("; {} rows that moved alike in both cells left out", dropped);
  }
  out << "\n";
  attribution::render_ranking(ranking, out);
  if (const auto ag = attribution::ag_compare(c->base_ags, c->bad_ags))
    attribution::render_ag_comparison(*ag, out, "  ", c->base.substr(0, 12), "first bad " + s.first_bad.substr(0, 12));
  return out.str();
}

}  // namespace

std::string render_report(const SessionDb& db, const Session& s, const GitTree& git) {
  std::string out =
      s.spec.gap()
          ? fmt::format("bisect session {}: {} of the gap in {}: cell {} over cell {}, round by round\n", s.id,
                        direction_name(s.spec.direction), s.spec.tree.string(), s.spec.cell_id, s.spec.against_cell_id)
          : fmt::format("bisect session {}: {} in {}, cell {}\n", s.id, direction_name(s.spec.direction),
                        s.spec.tree.string(), s.spec.cell_id);
  out += end_line(db, s, "good", s.spec.good_commit);
  out += end_line(db, s, "bad", s.spec.bad_commit);
  auto steps = db.steps(s.id);
  if (!steps.empty()) {
    // Each step boots the commit and both ends in turn; "good"/"bad" are the ends' medians of
    // those boots (lpm; a gap's: the ratio of its two cells), "vs good" the commit's change
    // against them.
    out += fmt::format("\n{:>4}  {:<12}  {:<5} {:>5} {:>10} {:>8} {:>8} {:>8} {:>9} {:>9}  {}\n", "step",
                       "commit", "", s.spec.gap() ? "rounds" : "boots", s.spec.gap() ? "ratio" : "median", "good",
                       "bad", "vs good", "p good", "p bad", "subject");
    const bool gap = s.spec.gap();
    auto lpm = [gap](double v, bool has) {
      return has ? fmt::format("{:.{}f}", v, gap ? 4 : 1) : std::string("-");
    };
    for (const auto& r : steps)
      out += fmt::format("{:>4}  {:<12}  {:<5} {:>5} {:>10} {:>8} {:>8} {:>8} {:>9.2g} {:>9.2g}  {}\n", r.seq,
                         r.commit.substr(0, 12), bisection::step_result_name(r.result), r.samples, lpm(r.median, r.samples > 0),
                         lpm(r.good_median, r.reference_samples > 0), lpm(r.bad_median, r.reference_samples > 0),
                         r.samples ? fmt::format("{:+.1f}%", 100 * r.change_vs_good) : std::string("-"),
                         r.p_vs_good, r.p_vs_bad, subject_of(git, r.commit));
    std::size_t boots = 0;
    for (const auto& r : steps) boots += r.samples + r.reference_samples;
    out += fmt::format("{} steps, {} {} in steps (commits and the ends alongside)\n", steps.size(), boots,
                       s.spec.gap() ? "rounds of two boots" : "boots");
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
    if (r.result == bisection::StepResult::skip)
      out += fmt::format("skipped {} {}: {}\n", r.commit.substr(0, 12), subject_of(git, r.commit),
                         r.reason);
  return out;
}

std::vector<std::filesystem::path> write_flame_graphs(const SessionDb& db, const Session& s, const GitTree& git,
                                                    const std::filesystem::path& dir) {
  const auto c = culprit_sides(db, s, git, s.spec.cell_id);
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

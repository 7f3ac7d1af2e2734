#include "changepoint/detect.hpp"

#include "util/process.hpp"  // display_command
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

namespace rlab::changepoint {
namespace {

bool is_git_sha(const std::string& s) {
  if (s.size() < 7 || s.size() > 40) return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string kernel_of(const HistoryPoint& p) {
  if (!p.source_commit.empty() && !p.kernel_release.empty())
    return p.kernel_release + " @ " + p.source_commit;
  return !p.source_commit.empty() ? p.source_commit
                                  : (!p.kernel_release.empty() ? p.kernel_release : "?");
}

}  // namespace

std::string environment_change(const HistoryPoint& a, const HistoryPoint& b) {
  for (const auto name : store::kEnvFields) {
    if (name == "kernel_release" || name == "config_sha256") continue;
    const std::string before = store::env_field(a.env, name), after = store::env_field(b.env, name);
    if (before != after) return fmt::format("{}: {} -> {}", name, before, after);
  }
  return "";
}

bool Detection::bisectable() const {
  return is_git_sha(last_before.source_commit) && is_git_sha(first_after.source_commit) &&
         last_before.source_commit != first_after.source_commit;
}

std::vector<std::string> bisect_argv(const std::string& cell_id, const Detection& d) {
  std::vector<std::string> argv{"rlab", "bisect", "--tree", "<linux git tree>", "--good",
                                d.last_before.source_commit, "--bad", d.first_after.source_commit,
                                "--cell", cell_id};
  if (!d.regression()) {
    argv.push_back("--direction");
    argv.push_back("improvement");
  }
  return argv;
}

std::vector<CellDetection> detect(const store::Store& st, const DetectOptions& opt) {
  if (opt.method.alpha < 1.0 / static_cast<double>(opt.method.permutations + 1))
    throw UsageError(fmt::format("alpha {:g} needs at least {} permutations: a permutation test's p is never below "
                                 "1/(permutations + 1) = {:.3g} (give --permutations {} or more)",
                                 opt.method.alpha, static_cast<std::size_t>(std::ceil(1 / opt.method.alpha)) - 1,
                                 1.0 / static_cast<double>(opt.method.permutations + 1),
                                 static_cast<std::size_t>(std::ceil(1 / opt.method.alpha)) - 1));
  if (!(opt.min_effect >= 0 && opt.min_effect < 1))
    throw UsageError(fmt::format("min effect {:g} is not a fraction in [0, 1)", opt.min_effect));
  std::vector<CellDetection> out;
  for (const auto& id : matching_cells(st, opt.selector, opt.kind)) {
    CellDetection c;
    c.history = load_history(st, id, opt.kind);
    const auto& pts = c.history.points;
    if (pts.size() < 2 * opt.method.min_segment) {
      c.note = fmt::format("{} runs: too short to split (needs {})", pts.size(),
                           2 * opt.method.min_segment);
      out.push_back(std::move(c));
      continue;
    }
    std::vector<double> x;
    for (const auto& p : pts) x.push_back(p.score);
    const Segmentation seg = e_divisive(x, opt.method);
    c.rejected_p = seg.rejected_p;
    for (const auto& cp : seg.change_points) {
      if (std::fabs(cp.relative_change) < opt.min_effect) {
        ++c.below_min_effect;
        continue;
      }
      c.detections.push_back({cp, pts[cp.index - 1], pts[cp.index],
                              environment_change(pts[cp.index - 1], pts[cp.index])});
    }
    out.push_back(std::move(c));
  }
  return out;
}

void render_text(const std::vector<CellDetection>& cells, const DetectOptions& opt,
                 bool bisect_plan, bool started, std::ostream& out) {
  out << fmt::format("E-Divisive means, permutation test: alpha {}, {} permutations, "
                     "segments >= {} runs, changes >= {:g}%; runs of kind {}\n",
                     opt.method.alpha, opt.method.permutations, opt.method.min_segment, 100 * opt.min_effect,
                     opt.kind.empty() ? std::string("(any)") : opt.kind);
  if (cells.empty()) {
    out << "no cell with scored runs matches"
        << (opt.selector.empty() ? std::string() : " `" + opt.selector + "`") << "\n";
    return;
  }
  for (const auto& c : cells) {
    out << fmt::format("\n{}  ({} runs)\n", c.history.cell_id, c.history.points.size());
    if (!c.note.empty()) {
      out << "  " << c.note << "\n";
      continue;
    }
    if (c.below_min_effect)
      out << fmt::format("  {} significant change point{} below the minimum effect of {:g}% left out\n", c.below_min_effect,
                         c.below_min_effect == 1 ? "" : "s", 100 * opt.min_effect);
    if (c.detections.empty()) {
      out << fmt::format("  no change point (best candidate p = {:.3f})\n", c.rejected_p);
      continue;
    }
    for (const auto& d : c.detections) {
      out << fmt::format("  {:<11} {:>+7.1f}%  {:>9.2f} -> {:>9.2f} lpm  p {:.4f}  between run {} "
                         "({}) and run {} ({})\n",
                         d.regression() ? "regression" : "improvement",
                         d.change.relative_change * 100.0, d.change.mean_before,
                         d.change.mean_after, d.change.p, d.last_before.run,
                         d.last_before.created_at, d.first_after.run, d.first_after.created_at);
      out << fmt::format("              kernel {} -> {}\n", kernel_of(d.last_before),
                         kernel_of(d.first_after));
      if (!d.environment_change.empty())
        out << "              environment changed too (" << d.environment_change
            << "): the change may not be the kernel's\n";
      if (!bisect_plan) continue;
      if (d.bisectable() && started && d.regression())
        out << "              bisecting (below, if the tree holds both commits): "
            << util::display_command(bisect_argv(c.history.cell_id, d)) << "\n";
      else if (d.bisectable() && started)
        out << "              not bisected (only regressions are started automatically): "
            << util::display_command(bisect_argv(c.history.cell_id, d)) << "\n";
      else if (d.bisectable())
        out << "              would bisect (not started: give --tree <linux git> holding both "
               "commits to start it): "
            << util::display_command(bisect_argv(c.history.cell_id, d)) << "\n";
      else
        out << "              not bisectable: the kernels on either side are not two commits of "
               "a git tree\n";
    }
  }
}

nlohmann::json to_json(const std::vector<CellDetection>& cells, const DetectOptions& opt,
                       bool bisect_plan) {
  using nlohmann::json;
  json arr = json::array();
  for (const auto& c : cells) {
    json cps = json::array();
    for (const auto& d : c.detections) {
      json b = nullptr;
      if (bisect_plan)
        b = {{"bisectable", d.bisectable()},
             {"started", false},
             {"argv", d.bisectable() ? json(bisect_argv(c.history.cell_id, d)) : json(nullptr)}};
      cps.push_back({{"index", d.change.index},
                     {"run_before", d.last_before.run},
                     {"run_after", d.first_after.run},
                     {"created_at", d.first_after.created_at},
                     {"kernel_before", d.last_before.kernel_release},
                     {"kernel_after", d.first_after.kernel_release},
                     {"commit_before", d.last_before.source_commit},
                     {"commit_after", d.first_after.source_commit},
                     {"mean_before", d.change.mean_before},
                     {"mean_after", d.change.mean_after},
                     {"change", d.change.relative_change},
                     {"p", d.change.p},
                     {"q", d.change.q},
                     {"order", d.change.order},
                     {"regression", d.regression()},
                     {"environment_change", d.environment_change.empty()
                                                ? json(nullptr)
                                                : json(d.environment_change)},
                     {"bisect", b}});
    }
    arr.push_back({{"cell_id", c.history.cell_id},
                   {"points", c.history.points.size()},
                   {"note", c.note.empty() ? json(nullptr) : json(c.note)},
                   {"rejected_p", c.note.empty() ? json(c.rejected_p) : json(nullptr)},
                   {"below_min_effect", c.below_min_effect},
                   {"change_points", cps}});
  }
  return {{"options",
           {{"alpha", opt.method.alpha},
            {"permutations", opt.method.permutations},
            {"min_segment", opt.method.min_segment},
            {"min_effect", opt.min_effect},
            {"kind", opt.kind.empty() ? json(nullptr) : json(opt.kind)},
            {"selector", opt.selector.empty() ? json(nullptr) : json(opt.selector)}}},
          {"cells", arr}};
}

}  // namespace rlab::changepoint

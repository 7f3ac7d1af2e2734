#include "compare/compare.hpp"
#include "results/vocabulary.hpp"

#include "rlab/protocol/score.hpp"

#include "stats/descriptive.hpp"
#include "stats/power.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace rlab::compare {
namespace {

/// Pairing key of a boot: its cell id (runs) or the cell without its kernel (kernels), the
/// label `rlab results` names the same row with (results::row_label). A workload's copies
/// follow from its name and the vCPUs within one run, so they need no place in it.
std::string key_of(Mode mode, const BootData& b) {
  if (mode == Mode::runs) return b.cell_id;
  return results::row_label(b.fs, b.mkfs_label, b.vcpus, b.workload);
}

std::map<std::string, std::vector<const BootData*>> group(Mode mode,
                                                          const std::vector<BootData>& boots) {
  std::map<std::string, std::vector<const BootData*>> out;
  for (const auto& b : boots) out[key_of(mode, b)].push_back(&b);
  return out;
}

std::vector<double> scores_of(const std::vector<const BootData*>& side) {
  std::vector<double> s;
  for (const BootData* b : side) s.push_back(b->score);
  return s;
}

void fill_verdict(CellComparison& row, const CompareOptions& opt) {
  try {
    row.result = stats::compare(row.base_scores, row.new_scores, opt.verdict);
  } catch (const std::invalid_argument& e) {
    row.status = RowStatus::error;
    row.error = e.what();
    return;
  }
  const std::size_t n = std::min(row.base_scores.size(), row.new_scores.size());
  const double mean_a = stats::mean(row.base_scores);
  if (n >= 2 && mean_a > 0) {
    const double sa = stats::stddev(row.base_scores), sb = stats::stddev(row.new_scores);
    row.noise = std::sqrt((sa * sa + sb * sb) / 2) / mean_a;
    row.mde = stats::minimum_detectable_effect(*row.noise, static_cast<unsigned>(n), opt.verdict.alpha);
  }
  if (row.result->verdict != stats::Verdict::unknown) return;
  const std::size_t have = std::max(row.base_scores.size(), row.new_scores.size());
  std::size_t next = stats::next_sample_count(have, opt.plan);
  if (row.noise && *row.noise > 0 && next != 0) {
    const double sought = std::max(opt.verdict.min_effect, std::abs(row.result->difference.relative_change));
    const auto need = stats::boots_for_effect(*row.noise, sought, static_cast<unsigned>(opt.plan.cap),
                                              opt.verdict.alpha);
    if (!need) {
      next = 0;
      row.beyond_cap = true;
    } else if (*need > have) {
      next = std::max<std::size_t>(*need, opt.plan.initial);
    }
  }
  row.next_boots_per_side = next;
  if (next == 0) return;  // at the cap: stays unknown
  row.more_base = next - std::min(next, row.base_scores.size());
  row.more_new = next - std::min(next, row.new_scores.size());
}

}  // namespace

std::string_view row_status_name(RowStatus s) {
  switch (s) {
    case RowStatus::compared: return "compared";
    case RowStatus::refused: return "refused";
    case RowStatus::base_only: return "base only";
    case RowStatus::new_only: return "new only";
    case RowStatus::error: return "error";
  }
  return "?";
}

bool CellComparison::regression() const {
  return status == RowStatus::compared && result && result->verdict == stats::Verdict::different &&
         result->difference.relative_change < 0;
}

/// The side's UnixBench index (median score) and mean inode AGs, into `index` and `ags`.
static void side_figures(const std::vector<const BootData*>& side, std::optional<double>& index, std::optional<double>& ags) {
  if (side.empty()) return;
  std::vector<double> scores, placed;
  for (const BootData* b : side) {
    scores.push_back(b->score);
    if (b->inode_ags) placed.push_back(*b->inode_ags);
  }
  index = protocol::unixbench_index(side.front()->env.workload, stats::median(scores));
  if (!placed.empty()) ags = stats::mean(placed);
}

/// The side's boots as profiles of their counted passes.
static std::vector<attribution::BootProfile> profiles(const std::vector<const BootData*>& side) {
  std::vector<attribution::BootProfile> out;
  for (const BootData* x : side) out.push_back(attribution::profile_of(x->passes));
  return out;
}

/// The side's boots' AG header figures.
static std::vector<attribution::BootAgHeaders> ag_headers(const std::vector<const BootData*>& side) {
  std::vector<attribution::BootAgHeaders> out;
  for (const BootData* x : side) out.push_back(attribution::ag_headers_of(x->passes));
  return out;
}

/// The "what changed" ranking of two sides' boots, the flame trees of its stack families, and
/// the per-AG header table.
static void explain(CellComparison& row, const std::vector<const BootData*>& a, const std::vector<const BootData*>& b,
                    const attribution::RankOptions& opt) {
  const auto pa = profiles(a), pb = profiles(b);
  row.movers = attribution::rank(pa, pb, opt);
  for (const auto f : row.movers->families)
    if (attribution::has_flame_graph(f)) row.flames[f] = attribution::flame_tree(pa, pb, f);
  row.ag_headers = attribution::ag_compare(ag_headers(a), ag_headers(b));
}

ComparisonTable compare_boots(Mode mode, const Side& base, const Side& next,
                            const std::vector<BootData>& base_boots,
                            const std::vector<BootData>& new_boots, const CompareOptions& opt) {
  ComparisonTable rep{mode, base, next, opt, {}, std::nullopt};
  const auto a = group(mode, base_boots), b = group(mode, new_boots);
  std::vector<CellComparison> one_sided;
  for (const auto& [key, side_a] : a) {
    CellComparison row;
    row.label = key;
    row.base_cell = side_a.front()->cell_id;
    row.base_scores = scores_of(side_a);
    side_figures(side_a, row.base_index, row.base_inode_ags);
    auto it = b.find(key);
    if (it == b.end()) {
      row.status = RowStatus::base_only;
      one_sided.push_back(std::move(row));
      continue;
    }
    const auto& side_b = it->second;
    row.new_cell = side_b.front()->cell_id;
    row.new_scores = scores_of(side_b);
    side_figures(side_b, row.new_index, row.new_inode_ags);
    if (auto m = find_mismatch(side_a, side_b, opt.axis_fields)) {
      row.status = RowStatus::refused;  // neither the scores nor the counters are comparable
      row.mismatch = std::move(m);
    } else {
      if (opt.what_changed) explain(row, side_a, side_b, opt.movers);
      fill_verdict(row, opt);
    }
    rep.cells.push_back(std::move(row));
  }
  for (const auto& [key, side_b] : b) {
    if (a.count(key)) continue;
    CellComparison row;
    row.label = key;
    row.new_cell = side_b.front()->cell_id;
    row.new_scores = scores_of(side_b);
    side_figures(side_b, row.new_index, row.new_inode_ags);
    row.status = RowStatus::new_only;
    one_sided.push_back(std::move(row));
  }
  for (auto& r : one_sided) rep.cells.push_back(std::move(r));
  return rep;
}

namespace {

/// Applies opt.control to the boots of the base run (`a_all`) and the new run (`b_all`, the
/// same vector in kernels mode), filtered to each side by `keep`.
template <class Keep>
std::optional<DriftCorrection> correct(const CompareOptions& opt, const std::vector<BootData>& a_all,
                                       const std::vector<BootData>& b_all, std::vector<BootData>& a,
                                       std::vector<BootData>& b, Keep keep) {
  auto select = [&](const std::vector<BootData>& all, bool base) {
    std::vector<BootData> out;
    for (const auto& x : all)
      if (keep(x, base)) out.push_back(x);
    return out;
  };
  if (opt.control.empty()) {
    a = select(a_all, true);
    b = select(b_all, false);
    return std::nullopt;
  }
  std::vector<BootData> both = a_all;
  both.insert(both.end(), b_all.begin(), b_all.end());
  DriftCorrection d;
  d.control = resolve_control(both, opt.control);
  const auto ca = control_boots(a_all, d.control), cb = control_boots(b_all, d.control);
  if (ca.empty() || cb.empty())
    throw UsageError(fmt::format("--control {}: no scored boot of it in the {} run", d.control,
                                            ca.empty() ? "base" : "new"));
  std::vector<double> all, sa, sb;
  for (const auto& c : ca) sa.push_back(c.score), all.push_back(c.score);
  if (&a_all != &b_all)
    for (const auto& c : cb) all.push_back(c.score);
  for (const auto& c : cb) sb.push_back(c.score);
  d.reference = stats::mean(all);
  d.base_control_mean = stats::mean(sa);
  d.new_control_mean = stats::mean(sb);
  a = select(a_all, true);
  b = select(b_all, false);
  d.dropped = correct_side(a, ca, d.control, d.reference) + correct_side(b, cb, d.control, d.reference);
  return d;
}

}  // namespace

ComparisonTable compare_runs(const store::Store& st, std::int64_t base_run, std::int64_t new_run,
                           const CompareOptions& opt) {
  for (auto r : {base_run, new_run})
    if (!st.run(r))
      throw store::StoreError(st.path().string() + ": no run " + std::to_string(r));
  const auto a_all = store::scored_boots(st, base_run), b_all = store::scored_boots(st, new_run);
  std::vector<BootData> a, b;
  auto drift = correct(opt, a_all, b_all, a, b, [](const BootData&, bool) { return true; });
  auto rep = compare_boots(Mode::runs, {base_run, ""}, {new_run, ""}, a, b, opt);
  rep.drift = std::move(drift);
  return rep;
}

ComparisonTable compare_kernels(const store::Store& st, std::int64_t run, const std::string& base_kernel,
                              const std::string& new_kernel, const CompareOptions& opt) {
  if (!st.run(run))
    throw store::StoreError(st.path().string() + ": no run " + std::to_string(run));
  const auto boots = store::scored_boots(st, run);
  std::vector<BootData> a, b;
  std::vector<std::string> names;
  for (const auto& x : boots)
    if (std::find(names.begin(), names.end(), x.kernel) == names.end()) names.push_back(x.kernel);
  for (const auto* k : {&base_kernel, &new_kernel})
    if (std::find(names.begin(), names.end(), *k) == names.end())
      throw UsageError(fmt::format("run {} has no scored boot of kernel `{}` (kernels: {})",
                                              run, *k, fmt::join(names, ", ")));
  auto drift = correct(opt, boots, boots, a, b, [&](const BootData& x, bool base) {
    return x.kernel == (base ? base_kernel : new_kernel);
  });
  auto rep = compare_boots(Mode::kernels, {run, base_kernel}, {run, new_kernel}, a, b, opt);
  rep.drift = std::move(drift);
  return rep;
}

}  // namespace rlab::compare

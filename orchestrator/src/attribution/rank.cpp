#include "attribution/rank.hpp"

#include "stats/descriptive.hpp"
#include "stats/mann_whitney.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>

namespace rlab::attribution {
namespace {

/// Events, or nanoseconds, per 1,000 loops below which a key is nothing (1 event; 1 us).
double floor_of(Family f) { return is_time(f) ? 1000.0 : 1.0; }

std::vector<const BootProfile*> with_loops(const std::vector<BootProfile>& side) {
  std::vector<const BootProfile*> out;
  for (const auto& b : side)
    if (b.loops > 0) out.push_back(&b);
  return out;
}

bool collected_by_all(const std::vector<const BootProfile*>& side, Family f) {
  return !side.empty() && std::all_of(side.begin(), side.end(), [f](const BootProfile* b) { return b->collected.count(f) > 0; });
}

bool collected_by_any(const std::vector<const BootProfile*>& side, Family f) {
  return std::any_of(side.begin(), side.end(), [f](const BootProfile* b) { return b->collected.count(f) > 0; });
}

/// Whether `f` applies only to some cells: the AG header family exists only on XFS with its
/// collector loaded, so when no boot of either side has it, it did not apply rather than went
/// missing.
bool applies_only_where_collected(Family f) { return f == Family::agheader; }

/// x per boot of `key` in `f`: 1000 * value / loops (0 where the boot has no such key).
std::vector<double> per_kloop(const std::vector<const BootProfile*>& side, Family f, const std::string& key) {
  std::vector<double> x;
  for (const BootProfile* b : side) {
    double v = 0;
    if (const auto fi = b->values.find(f); fi != b->values.end())
      if (const auto ki = fi->second.find(key); ki != fi->second.end()) v = ki->second;
    x.push_back(1000.0 * v / static_cast<double>(b->loops));
  }
  return x;
}

/// |log(new / base)|, infinite when exactly one side is zero.
double magnitude(const Mover& m) {
  if (m.base_per_kloop <= 0 && m.new_per_kloop <= 0) return 0;
  if (m.base_per_kloop <= 0 || m.new_per_kloop <= 0) return std::numeric_limits<double>::infinity();
  return std::fabs(std::log(m.new_per_kloop / m.base_per_kloop));
}

/// The order of a time row (stack, part, total, pressure), larger first: whether the boots
/// tell the sides apart (the row's own Mann-Whitney p <= fdr, before the family's adjustment),
/// then the time it moved, then significance, then |log(new / base)|.
std::tuple<bool, double, bool, double> by_time(const Mover& m, double fdr) {
  return {m.p && *m.p <= fdr, std::fabs(m.new_per_kloop - m.base_per_kloop), m.significant, magnitude(m)};
}

/// The order of a counter row, larger first: significance, then |log(new / base)|, then the
/// absolute change.
std::tuple<bool, double, double> by_count(const Mover& m) {
  return {m.significant, magnitude(m), std::fabs(m.new_per_kloop - m.base_per_kloop)};
}

/// Where a kind's rows come among the leading rows: stacks, parts, counters (context last).
int lead_order(RowKind k) {
  switch (k) {
    case RowKind::stack: return 0;
    case RowKind::part: return 1;
    case RowKind::counter: return 2;
    case RowKind::total:
    case RowKind::pressure: break;
  }
  return 3;
}

/// Whether `x` comes before `y` among the leading rows: by kind, then in the kind's order.
bool leads(const Mover& x, const Mover& y, double fdr) {
  if (x.kind != y.kind) return lead_order(x.kind) < lead_order(y.kind);
  if (x.kind == RowKind::counter) return by_count(x) > by_count(y);
  return by_time(x, fdr) > by_time(y, fdr);
}

/// The movers of one family, p and q set.
std::vector<Mover> family_movers(Family f, const std::vector<const BootProfile*>& a, const std::vector<const BootProfile*>& b,
                                 double fdr) {
  std::set<std::string> keys;
  for (const auto* side : {&a, &b})
    for (const BootProfile* p : *side)
      if (const auto it = p->values.find(f); it != p->values.end())
        for (const auto& [k, v] : it->second) keys.insert(k);
  std::vector<Mover> out;
  std::vector<double> ps;
  std::vector<std::size_t> tested;
  for (const auto& k : keys) {
    const auto xa = per_kloop(a, f, k), xb = per_kloop(b, f, k);
    const double fl = floor_of(f);
    auto below = [fl](double v) { return std::fabs(v) < fl; };
    if (std::all_of(xa.begin(), xa.end(), below) && std::all_of(xb.begin(), xb.end(), below)) continue;
    Mover m;
    m.family = f;
    m.key = k;
    m.kind = row_kind(f, k);
    m.base_per_kloop = stats::median(xa);
    m.new_per_kloop = stats::median(xb);
    if (m.base_per_kloop != 0) m.change = (m.new_per_kloop - m.base_per_kloop) / std::fabs(m.base_per_kloop);
    if (xa.size() >= 2 && xb.size() >= 2) {
      m.p = stats::mann_whitney_u(xa, xb).p;
      ps.push_back(*m.p);
      tested.push_back(out.size());
    }
    out.push_back(std::move(m));
  }
  const auto q = benjamini_hochberg(ps);
  for (std::size_t i = 0; i < tested.size(); ++i) {
    out[tested[i]].q = q[i];
    out[tested[i]].significant = q[i] <= fdr;
  }
  return out;
}

}  // namespace

std::vector<double> benjamini_hochberg(const std::vector<double>& p) {
  const std::size_t m = p.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> q(m);
  double running = 1;
  for (std::size_t r = m; r-- > 0;) {
    running = std::min(running, p[order[r]] * static_cast<double>(m) / static_cast<double>(r + 1));
    q[order[r]] = std::min(running, 1.0);
  }
  return q;
}

Ranking rank(const std::vector<BootProfile>& base, const std::vector<BootProfile>& next, const RankOptions& o) {
  if (!(o.fdr > 0 && o.fdr < 1)) throw std::invalid_argument("attribution::rank: fdr must be in (0, 1)");
  const auto a = with_loops(base), b = with_loops(next);
  Ranking r;
  r.base_boots = a.size();
  r.new_boots = b.size();
  std::vector<Mover> all;
  for (const Family f : kFamilies) {
    if (!collected_by_all(a, f) || !collected_by_all(b, f)) {
      if (applies_only_where_collected(f) && !collected_by_any(a, f) && !collected_by_any(b, f)) continue;
      r.missing.push_back(f);
      continue;
    }
    r.families.push_back(f);
    for (auto& m : family_movers(f, a, b, o.fdr)) all.push_back(std::move(m));
  }
  std::vector<Mover> lead, context;
  for (auto& m : all) (is_context(m.kind) ? context : lead).push_back(std::move(m));
  std::stable_sort(lead.begin(), lead.end(), [&](const Mover& x, const Mover& y) { return leads(x, y, o.fdr); });
  std::stable_sort(context.begin(), context.end(),
                   [&](const Mover& x, const Mover& y) { return by_time(x, o.fdr) > by_time(y, o.fdr); });
  auto cut = [](std::vector<Mover>& v, std::size_t top, std::size_t& left_out) {
    if (top > 0 && v.size() > top) {
      left_out = v.size() - top;
      v.resize(top);
    }
  };
  cut(lead, o.top, r.left_out);
  cut(context, o.context_top, r.context_left_out);
  r.rows = std::move(lead);
  r.context = std::move(context);
  return r;
}

}  // namespace rlab::attribution

#include "changepoint/e_divisive.hpp"

#include "stats/random.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace rlab::changepoint {
namespace {

struct Segment {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last point
};

void check(std::span<const double> x, const EDivisiveOptions& opt) {
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i]))
      throw std::invalid_argument("changepoint::e_divisive: value " + std::to_string(i) +
                                  " is not finite");
  if (!(opt.alpha > 0 && opt.alpha < 1))
    throw std::invalid_argument("changepoint::e_divisive: alpha must be in (0, 1)");
  if (opt.permutations < 19)
    throw std::invalid_argument("changepoint::e_divisive: permutations must be >= 19");
  if (opt.alpha < 1.0 / static_cast<double>(opt.permutations + 1))
    throw std::invalid_argument("changepoint::e_divisive: alpha below 1 / (permutations + 1) can never be reached");
  if (opt.min_segment < 2)
    throw std::invalid_argument("changepoint::e_divisive: min_segment must be >= 2");
}

/// The largest best-split Q over `segs` of `x`, and where it is.
struct Candidate {
  std::size_t segment = 0;
  Split split;
};

Candidate best_over(std::span<const double> x, const std::vector<Segment>& segs,
                    std::size_t min_segment) {
  Candidate best;
  for (std::size_t s = 0; s < segs.size(); ++s) {
    const Split sp = best_split(x.subspan(segs[s].begin, segs[s].end - segs[s].begin), min_segment);
    if (sp.tau != 0 && (best.split.tau == 0 || sp.q > best.split.q)) best = {s, sp};
  }
  return best;
}

double mean_of(std::span<const double> x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

}  // namespace

Split best_split(std::span<const double> seg, std::size_t min_segment) {
  const std::size_t n = seg.size();
  if (min_segment < 1) min_segment = 1;
  if (n < 2 * min_segment || n < 4) return {};
  // left[t] = sum_{k<t} |x_t - x_k|, right[t] = sum_{k>t} |x_t - x_k|.
  std::vector<double> left(n, 0.0), right(n, 0.0);
  double total = 0;
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = t + 1; k < n; ++k) {
      const double d = std::fabs(seg[t] - seg[k]);
      right[t] += d;
      left[k] += d;
      total += d;
    }
  // within_left(tau) = sum_{t<tau} left[t]; within_right(tau) = sum_{t>=tau} right[t].
  std::vector<double> suffix_right(n + 1, 0.0);
  for (std::size_t t = n; t-- > 0;) suffix_right[t] = suffix_right[t + 1] + right[t];
  double within_left = 0;
  Split best;
  const std::size_t lo = std::max<std::size_t>(min_segment, 2);
  for (std::size_t tau = 1; tau < n; ++tau) {
    within_left += left[tau - 1];
    if (tau < lo || n - tau < lo) continue;
    const double m = static_cast<double>(tau), k = static_cast<double>(n - tau);
    const double within_right = suffix_right[tau];
    const double between = total - within_left - within_right;
    const double e = 2.0 * between / (m * k) - 2.0 * within_left / (m * (m - 1)) -
                     2.0 * within_right / (k * (k - 1));
    const double q = m * k / (m + k) * e;
    if (best.tau == 0 || q > best.q) best = {tau, q};
  }
  return best;
}

Segmentation e_divisive(std::span<const double> x, const EDivisiveOptions& opt) {
  check(x, opt);
  Segmentation out;
  std::vector<Segment> segs{{0, x.size()}};
  stats::Rng rng(opt.seed);
  std::vector<double> perm(x.begin(), x.end());
  for (std::size_t round = 0;; ++round) {
    if (opt.max_change_points != 0 && out.change_points.size() >= opt.max_change_points) break;
    const Candidate cand = best_over(x, segs, opt.min_segment);
    if (cand.split.tau == 0) break;  // no segment is long enough to split
    std::size_t at_least = 0;
    for (std::size_t r = 0; r < opt.permutations; ++r) {
      for (const Segment& s : segs)  // Fisher-Yates inside every segment
        for (std::size_t i = s.end - s.begin; i > 1; --i)
          std::swap(perm[s.begin + i - 1], perm[s.begin + rng.index(i)]);
      const Candidate pc = best_over(perm, segs, opt.min_segment);
      if (pc.split.tau != 0 && pc.split.q >= cand.split.q) ++at_least;
    }
    const double p = static_cast<double>(at_least + 1) / static_cast<double>(opt.permutations + 1);
    if (p > opt.alpha) {
      out.rejected_p = p;
      break;
    }
    const Segment s = segs[cand.segment];
    const std::size_t cut = s.begin + cand.split.tau;
    out.change_points.push_back({cut, cand.split.q, p, round, 0, 0, 0});
    segs[cand.segment] = {s.begin, cut};
    segs.insert(segs.begin() + static_cast<std::ptrdiff_t>(cand.segment) + 1, {cut, s.end});
    std::copy(x.begin(), x.end(), perm.begin());  // permute from the observed order again
  }
  std::sort(out.change_points.begin(), out.change_points.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  for (std::size_t i = 0; i < out.change_points.size(); ++i) {
    ChangePoint& c = out.change_points[i];
    const std::size_t from = i == 0 ? 0 : out.change_points[i - 1].index;
    const std::size_t to = i + 1 == out.change_points.size() ? x.size() : out.change_points[i + 1].index;
    c.mean_before = mean_of(x.subspan(from, c.index - from));
    c.mean_after = mean_of(x.subspan(c.index, to - c.index));
    c.relative_change =
        c.mean_before == 0 ? 0 : (c.mean_after - c.mean_before) / std::fabs(c.mean_before);
  }
  return out;
}

}  // namespace rlab::changepoint

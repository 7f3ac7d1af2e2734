#include "results/fidelity.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>

namespace rlab::results {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

constexpr const char* kRlab = "rlab-shell1";
constexpr const char* kUnixbench = "unixbench-shell1";
constexpr const char* kBare = "bare-shell1";

}  // namespace

std::string fidelity_matrix(const FidelitySpec& s) {
  YAML::Emitter y;
  y << YAML::BeginMap;
  y << YAML::Key << "kernels" << YAML::Value << YAML::BeginMap << YAML::Key << s.debian_kernel << YAML::Value
    << YAML::BeginMap << YAML::Key << "source" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
    << "debian" << YAML::Value << YAML::DoubleQuoted << s.debian_kernel << YAML::Key << "suite" << YAML::Value
    << s.suite << YAML::EndMap << YAML::Key << "page_size" << YAML::Value << "64k" << YAML::EndMap << YAML::EndMap;
  y << YAML::Key << "axes" << YAML::Value << YAML::BeginMap;
  y << YAML::Key << "kernel" << YAML::Value << YAML::Flow << YAML::BeginSeq << YAML::DoubleQuoted << s.debian_kernel
    << YAML::EndSeq;
  y << YAML::Key << "filesystem" << YAML::Value << YAML::BeginSeq;
  for (const auto& f : s.filesystems) y << YAML::Flow << YAML::BeginMap << YAML::Key << "fs" << YAML::Value << f << YAML::EndMap;
  y << YAML::EndSeq;
  y << YAML::Key << "vcpus" << YAML::Value << YAML::Flow << s.vcpus;
  y << YAML::Key << "workload" << YAML::Value << YAML::BeginSeq;
  const auto input = (s.unixbench / "testdir" / "sort.src").string();
  y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "shell1" << YAML::Key << "name" << YAML::Value << kRlab
    << YAML::Key << "passes" << YAML::Value << 1 << YAML::Key << "duration_s" << YAML::Value << s.duration_s
    << YAML::Key << "input" << YAML::Value << input << YAML::EndMap;
  y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "shell1" << YAML::Key << "name" << YAML::Value
    << kUnixbench << YAML::Key << "runner" << YAML::Value << "unixbench" << YAML::Key << "unixbench" << YAML::Value
    << s.unixbench.string() << YAML::Key << "passes" << YAML::Value << 1 << YAML::Key << "duration_s"
    << YAML::Value << s.duration_s << YAML::EndMap;
  if (s.bare)
    y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << "shell1" << YAML::Key << "name" << YAML::Value
      << kBare << YAML::Key << "runner" << YAML::Value << "bare" << YAML::Key << "unixbench" << YAML::Value
      << s.unixbench.string() << YAML::Key << "passes" << YAML::Value << 1 << YAML::Key << "duration_s"
      << YAML::Value << s.duration_s << YAML::EndMap;
  y << YAML::EndSeq;
  y << YAML::Key << "repeats" << YAML::Value << s.boots << YAML::EndMap;
  y << YAML::Key << "guest" << YAML::Value << YAML::BeginMap << YAML::Key << "memory_mib" << YAML::Value << 1024
    << YAML::Key << "clock" << YAML::Value << s.clock;
  if (s.clock == "icount") y << YAML::Key << "accel" << YAML::Value << "tcg";
  y << YAML::EndMap;
  y << YAML::Key << "results" << YAML::Value << s.results.string();
  y << YAML::EndMap;
  return std::string("# rlab fidelity benchmark: rlab's shell1 and UnixBench's own, side by side, and UnixBench's in "
                     "the bare guest.\n") + y.c_str() + "\n";
}

FidelityRatio fidelity_ratio(const std::vector<std::pair<unsigned, double>>& num,
                             const std::vector<std::pair<unsigned, double>>& den) {
  FidelityRatio r;
  std::vector<double> n, d;
  for (const auto& [repeat, lpm] : num) n.push_back(lpm);
  for (const auto& [repeat, lpm] : den) d.push_back(lpm);
  if (n.empty() || d.empty() || median(d) <= 0) return r;
  r.ratio = median(n) / median(d);
  std::map<unsigned, double> by_repeat(den.begin(), den.end());
  for (const auto& [repeat, lpm] : num) {
    auto it = by_repeat.find(repeat);
    if (it == by_repeat.end() || it->second <= 0) continue;
    const double x = lpm / it->second;
    r.low = r.low ? std::min(*r.low, x) : x;
    r.high = r.high ? std::max(*r.high, x) : x;
    ++r.pairs;
  }
  return r;
}

std::vector<FidelityRow> fidelity_rows(const std::vector<store::BootResult>& boots) {
  using Scores = std::vector<std::pair<unsigned, double>>;  // (repeat, lpm)
  std::map<std::pair<std::string, unsigned>, std::map<std::string, Scores>> cells;
  for (const auto& b : boots) {
    if (b.status != store::BootStatus::done || !b.score) continue;
    if (b.workload != kRlab && b.workload != kUnixbench && b.workload != kBare) continue;
    cells[{b.fs, b.vcpus}][b.workload].emplace_back(b.repeat, *b.score);
  }
  std::vector<FidelityRow> out;
  for (auto& [key, w] : cells) {
    for (auto& [name, scores] : w) std::sort(scores.begin(), scores.end());
    FidelityRow r;
    r.fs = key.first;
    r.vcpus = key.second;
    for (const auto& [repeat, lpm] : w[kRlab]) r.rlab_lpm.push_back(lpm);
    for (const auto& [repeat, lpm] : w[kUnixbench]) r.unixbench_lpm.push_back(lpm);
    for (const auto& [repeat, lpm] : w[kBare]) r.bare_lpm.push_back(lpm);
    const FidelityRatio ub = fidelity_ratio(w[kRlab], w[kUnixbench]);
    r.ratio = ub.ratio;
    r.low = ub.low;
    r.high = ub.high;
    r.pairs = ub.pairs;
    r.rlab_bare = fidelity_ratio(w[kRlab], w[kBare]);
    r.unixbench_bare = fidelity_ratio(w[kUnixbench], w[kBare]);
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

std::string median_text(const std::vector<double>& v) {
  return v.empty() ? std::string("-") : fmt::format("{:.1f} ({})", median(v), v.size());
}

std::string ratio_text(const std::optional<double>& r) { return r ? fmt::format("{:.3f}", *r) : "-"; }

std::string range_text(const FidelityRatio& r) {
  return r.pairs ? fmt::format("{:.3f}..{:.3f} ({})", *r.low, *r.high, r.pairs) : "-";
}

}  // namespace

void render_fidelity(const std::vector<FidelityRow>& rows, double lo, double hi, std::ostream& out) {
  const bool bare = std::any_of(rows.begin(), rows.end(), [](const FidelityRow& r) { return !r.bare_lpm.empty(); });
  out << fmt::format("{:<6} {:>5}  {:>16}  {:>21}  {:>7}  {:>17}  {:<11}", "fs", "vCPUs", "rlab lpm (boots)",
                     "UnixBench lpm (boots)", "ratio", "paired range", fmt::format("in [{}, {}]", lo, hi));
  if (bare)
    out << fmt::format("  {:>16}  {:>9}  {:>17}  {:>14}  {:>17}", "bare lpm (boots)", "rlab/bare", "paired range",
                       "UnixBench/bare", "paired range");
  out << "\n";
  for (const auto& r : rows) {
    const FidelityRatio ub{r.ratio, r.low, r.high, r.pairs};
    const std::string verdict = !r.ratio ? "no ratio" : (*r.ratio >= lo && *r.ratio <= hi) ? "yes" : "NO";
    out << fmt::format("{:<6} {:>5}  {:>16}  {:>21}  {:>7}  {:>17}  {:<11}", r.fs, r.vcpus, median_text(r.rlab_lpm),
                       median_text(r.unixbench_lpm), ratio_text(r.ratio), range_text(ub), verdict);
    if (bare)
      out << fmt::format("  {:>16}  {:>9}  {:>17}  {:>14}  {:>17}", median_text(r.bare_lpm),
                         ratio_text(r.rlab_bare.ratio), range_text(r.rlab_bare), ratio_text(r.unixbench_bare.ratio),
                         range_text(r.unixbench_bare));
    out << "\n";
  }
}

nlohmann::json fidelity_json(const std::vector<FidelityRow>& rows) {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  auto ratio = [&](const FidelityRatio& r) {
    return nlohmann::json{{"ratio", opt(r.ratio)}, {"low", opt(r.low)}, {"high", opt(r.high)}, {"pairs", r.pairs}};
  };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"fs", r.fs}, {"vcpus", r.vcpus}, {"rlab_lpm", r.rlab_lpm}, {"unixbench_lpm", r.unixbench_lpm},
                   {"bare_lpm", r.bare_lpm}, {"ratio", opt(r.ratio)}, {"low", opt(r.low)}, {"high", opt(r.high)},
                   {"pairs", r.pairs}, {"rlab_bare", ratio(r.rlab_bare)}, {"unixbench_bare", ratio(r.unixbench_bare)}});
  return out;
}

}  // namespace rlab::results

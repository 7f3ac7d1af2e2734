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
  y << YAML::EndSeq;
  y << YAML::Key << "repeats" << YAML::Value << s.boots << YAML::EndMap;
  y << YAML::Key << "guest" << YAML::Value << YAML::BeginMap << YAML::Key << "memory_mib" << YAML::Value << 1024
    << YAML::Key << "clock" << YAML::Value << s.clock;
  if (s.clock == "icount") y << YAML::Key << "accel" << YAML::Value << "tcg";
  y << YAML::EndMap;
  y << YAML::Key << "results" << YAML::Value << s.results.string();
  y << YAML::EndMap;
  return std::string("# rlab fidelity benchmark: rlab's shell1 and UnixBench's own, side by side.\n") + y.c_str() + "\n";
}

std::vector<FidelityRow> fidelity_rows(const std::vector<store::BootResult>& boots) {
  std::map<std::pair<std::string, unsigned>, FidelityRow> rows;
  std::map<std::pair<std::string, unsigned>, std::map<unsigned, std::pair<std::optional<double>, std::optional<double>>>> paired;
  for (const auto& b : boots) {
    if (b.status != store::BootStatus::done || !b.score || (b.workload != kRlab && b.workload != kUnixbench)) continue;
    const auto key = std::make_pair(b.fs, b.vcpus);
    auto& r = rows[key];
    r.fs = b.fs;
    r.vcpus = b.vcpus;
    auto& pair = paired[key][b.repeat];
    if (b.workload == kRlab) r.rlab_lpm.push_back(*b.score), pair.first = b.score;
    else r.unixbench_lpm.push_back(*b.score), pair.second = b.score;
  }
  std::vector<FidelityRow> out;
  for (auto& [key, r] : rows) {
    if (!r.rlab_lpm.empty() && !r.unixbench_lpm.empty() && median(r.unixbench_lpm) > 0)
      r.ratio = median(r.rlab_lpm) / median(r.unixbench_lpm);
    for (const auto& [repeat, p] : paired[key]) {
      if (!p.first || !p.second || *p.second <= 0) continue;
      const double x = *p.first / *p.second;
      r.low = r.low ? std::min(*r.low, x) : x;
      r.high = r.high ? std::max(*r.high, x) : x;
      ++r.pairs;
    }
    out.push_back(std::move(r));
  }
  return out;
}

void render_fidelity(const std::vector<FidelityRow>& rows, double lo, double hi, std::ostream& out) {
  out << fmt::format("{:<6} {:>5}  {:>22}  {:>22}  {:>7}  {:>17}  {}\n", "fs", "vCPUs", "rlab lpm (boots)",
                     "UnixBench lpm (boots)", "ratio", "paired range", fmt::format("in [{}, {}]", lo, hi));
  auto med = [](const std::vector<double>& v) {
    return v.empty() ? std::string("-") : fmt::format("{:.1f} ({})", median(v), v.size());
  };
  for (const auto& r : rows) {
    const std::string range = r.pairs ? fmt::format("{:.3f}..{:.3f} ({})", *r.low, *r.high, r.pairs) : "-";
    const std::string verdict = !r.ratio ? "no ratio" : (*r.ratio >= lo && *r.ratio <= hi) ? "yes" : "NO";
    out << fmt::format("{:<6} {:>5}  {:>22}  {:>22}  {:>7}  {:>17}  {}\n", r.fs, r.vcpus, med(r.rlab_lpm),
                       med(r.unixbench_lpm), r.ratio ? fmt::format("{:.3f}", *r.ratio) : "-", range, verdict);
  }
}

nlohmann::json fidelity_json(const std::vector<FidelityRow>& rows) {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows)
    out.push_back({{"fs", r.fs}, {"vcpus", r.vcpus}, {"rlab_lpm", r.rlab_lpm}, {"unixbench_lpm", r.unixbench_lpm},
                   {"ratio", opt(r.ratio)}, {"low", opt(r.low)}, {"high", opt(r.high)}, {"pairs", r.pairs}});
  return out;
}

}  // namespace rlab::results

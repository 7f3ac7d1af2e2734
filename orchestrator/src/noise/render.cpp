#include "noise/render.hpp"

#include "stats/descriptive.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace rlab::noise {
using nlohmann::json;

namespace {

BootPoint point(const store::BootTiming& b) {
  BootPoint p;
  p.t_s = b.started_unix_s.value_or(0);
  p.score = *b.score;
  for (std::size_t i = 0; i < b.pass_lpm.size(); ++i) {
    if (i < b.warmup_passes) {
      if (i == 0) p.warmup_lpm = b.pass_lpm[i];
    } else {
      p.counted_lpm.push_back(b.pass_lpm[i]);
      p.counted_vcpu_share.push_back(i < b.pass_vcpu_share.size() ? b.pass_vcpu_share[i] : std::nullopt);
      p.counted_host_steal.push_back(i < b.pass_host_steal.size() ? b.pass_host_steal[i] : std::nullopt);
    }
  }
  if (b.host) {
    p.busy = b.host->busy_fraction;
    p.load1 = b.host->load1_before;
  }
  return p;
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
std::optional<double> get_opt(const json& j, const char* k) {
  if (!j.contains(k) || j.at(k).is_null()) return std::nullopt;
  return j.at(k).get<double>();
}

json figures_json(const CellFigures& f) {
  json j = {{"boots", f.boots},
            {"mean_lpm", f.mean},
            {"median_lpm", f.median},
            {"boot_rel_stddev", opt(f.boot_rel_stddev)},
            {"pass_rel_stddev", opt(f.pass_rel_stddev)},
            {"warmup_offset", opt(f.warmup_offset)},
            {"load_correlation", opt(f.load_correlation)},
            {"load_correlation_p", opt(f.load_correlation_p)},
            {"load1_correlation", opt(f.load1_correlation)},
            {"mean_busy", opt(f.mean_busy)},
            {"mean_load1", opt(f.mean_load1)},
            {"mean_vcpu_share", opt(f.mean_vcpu_share)},
            {"vcpu_share_correlation", opt(f.vcpu_share_correlation)},
            {"vcpu_share_correlation_p", opt(f.vcpu_share_correlation_p)},
            {"mean_host_steal", opt(f.mean_host_steal)},
            {"host_steal_correlation", opt(f.host_steal_correlation)},
            {"host_steal_correlation_p", opt(f.host_steal_correlation_p)},
            {"normalised_boot_rel_stddev", opt(f.normalised_boot_rel_stddev)},
            {"mde", {{"4", opt(f.mde_4)}, {"8", opt(f.mde_8)}, {"16", opt(f.mde_16)}}}};
  j["drift_per_hour"] = f.drift ? json{{"slope", f.drift->slope},
                                       {"ci95_low", f.drift->ci_low},
                                       {"ci95_high", f.drift->ci_high},
                                       {"n", f.drift->n}}
                                : json(nullptr);
  return j;
}

CellFigures figures_from(const json& j) {
  CellFigures f;
  f.boots = j.at("boots").get<unsigned>();
  f.mean = j.at("mean_lpm").get<double>();
  f.median = j.at("median_lpm").get<double>();
  f.boot_rel_stddev = get_opt(j, "boot_rel_stddev");
  f.pass_rel_stddev = get_opt(j, "pass_rel_stddev");
  f.warmup_offset = get_opt(j, "warmup_offset");
  f.load_correlation = get_opt(j, "load_correlation");
  f.load_correlation_p = get_opt(j, "load_correlation_p");
  f.load1_correlation = get_opt(j, "load1_correlation");
  f.mean_busy = get_opt(j, "mean_busy");
  f.mean_load1 = get_opt(j, "mean_load1");
  f.mean_vcpu_share = get_opt(j, "mean_vcpu_share");  // absent in reports before the vCPU share
  f.vcpu_share_correlation = get_opt(j, "vcpu_share_correlation");
  f.vcpu_share_correlation_p = get_opt(j, "vcpu_share_correlation_p");
  f.mean_host_steal = get_opt(j, "mean_host_steal");  // absent in reports before the host steal
  f.host_steal_correlation = get_opt(j, "host_steal_correlation");
  f.host_steal_correlation_p = get_opt(j, "host_steal_correlation_p");
  f.normalised_boot_rel_stddev = get_opt(j, "normalised_boot_rel_stddev");
  const json& m = j.at("mde");
  f.mde_4 = get_opt(m, "4");
  f.mde_8 = get_opt(m, "8");
  f.mde_16 = get_opt(m, "16");
  if (const json& d = j.at("drift_per_hour"); !d.is_null())
    f.drift = Slope{d.at("slope").get<double>(), d.at("ci95_low").get<double>(),
                    d.at("ci95_high").get<double>(), d.at("n").get<unsigned>()};
  return f;
}

std::string pct(const std::optional<double>& v, int prec = 1) {
  return v ? fmt::format("{:.{}f}%", *v * 100, prec) : std::string("n/a");
}

std::string figures_text(const CellFigures& f, const std::string& name) {
  std::string out = fmt::format("{}: {} boots, median {:.1f} lpm, mean {:.1f} lpm\n", name,
                                f.boots, f.median, f.mean);
  out += fmt::format("  boot-to-boot relative stddev   {}\n", pct(f.boot_rel_stddev));
  out += fmt::format("  pass-to-pass relative stddev   {}{}\n", pct(f.pass_rel_stddev),
                     f.pass_rel_stddev ? "" : " (needs 2+ counted passes per boot)");
  if (f.warmup_offset)
    out += fmt::format("  warm-up pass vs counted passes {:+.1f}%\n", *f.warmup_offset * 100);
  if (f.drift)
    out += fmt::format("  drift                          {:+.1f}%/h (95% CI {:+.1f} .. {:+.1f}%/h, {} boots)\n",
                       f.drift->slope * 100, f.drift->ci_low * 100, f.drift->ci_high * 100, f.drift->n);
  else
    out += "  drift                          n/a (needs 3+ boots)\n";
  if (f.load_correlation)
    out += fmt::format("  correlation with host load     r = {:+.2f} (p = {:.3f}) against busy CPU share (mean {:.0f}%)\n",
                       *f.load_correlation, f.load_correlation_p.value_or(1), f.mean_busy.value_or(0) * 100);
  else
    out += "  correlation with host load     n/a (needs 3+ boots with varying host load)\n";
  if (f.load1_correlation)
    out += fmt::format("                                 r = {:+.2f} against the load average before the boot (mean {:.2f})\n",
                       *f.load1_correlation, f.mean_load1.value_or(0));
  if (f.mean_vcpu_share)
    out += fmt::format("  vCPU share (CPU the host gave) mean {} of the guest's vCPU time (its steal {})\n",
                       pct(f.mean_vcpu_share), pct(1 - *f.mean_vcpu_share));
  else
    out += "  vCPU share (CPU the host gave) n/a (no sample carried one)\n";
  if (f.vcpu_share_correlation)
    out += fmt::format("  pass lpm vs vCPU share         r = {:+.2f} (p = {:.3f})\n", *f.vcpu_share_correlation,
                       f.vcpu_share_correlation_p.value_or(1));
  if (f.mean_host_steal)
    out += fmt::format("  host steal (the neighbours')   mean {} of the host's CPU time went to other guests of its hypervisor\n",
                       pct(f.mean_host_steal));
  else
    out += "  host steal (the neighbours')   n/a (no sample carried one)\n";
  if (f.host_steal_correlation) {
    out += fmt::format("  pass lpm vs host steal         r = {:+.2f} (p = {:.3f})\n", *f.host_steal_correlation,
                       f.host_steal_correlation_p.value_or(1));
    if (*f.host_steal_correlation <= -0.5 && f.host_steal_correlation_p.value_or(1) < 0.05)
      out += "                                 slower passes had more steal: this noise is the neighbours', not the kernel's\n";
  }
  if (f.normalised_boot_rel_stddev)
    out += fmt::format("  diagnostic: boot-to-boot relative stddev of score / vCPU share {} (not the verdict's score)\n",
                       pct(f.normalised_boot_rel_stddev));
  return out;
}

}  // namespace

CellNoise noise_from_run(const store::Store& st, store::RunId run, const std::string& cell_id,
                            const std::string& control_id, double alpha, double power) {
  CellNoise r;
  r.cell_id = cell_id;
  r.control_id = control_id;
  r.run = run;
  r.alpha = alpha;
  r.power = power;
  const auto boots = st.boot_timings(run);
  std::vector<BootPoint> cell, control;
  std::map<unsigned, double> cell_by_repeat, control_by_repeat;
  double t0 = 0;
  bool have_t0 = false;
  for (const auto& b : boots)
    if (b.started_unix_s && (!have_t0 || *b.started_unix_s < t0)) t0 = *b.started_unix_s, have_t0 = true;
  bool any = false;
  for (const auto& b : boots) {
    const bool is_cell = b.cell_id == cell_id, is_control = b.cell_id == control_id;
    if (!is_cell && !is_control) continue;
    if (is_cell) {
      any = true;
      r.warmup_passes = b.warmup_passes;
    }
    TimelineBoot tb{b.cell_id, b.repeat, b.started_unix_s ? *b.started_unix_s - t0 : 0, b.score, {}, {}, {}};
    if (b.host) tb.busy = b.host->busy_fraction, tb.load1 = b.host->load1_before;
    for (std::size_t i = 0; i < b.pass_lpm.size(); ++i)
      tb.passes.push_back({b.pass_lpm[i], i < b.pass_vcpu_share.size() ? b.pass_vcpu_share[i] : std::nullopt,
                           i < b.pass_host_steal.size() ? b.pass_host_steal[i] : std::nullopt});
    r.timeline.push_back(tb);
    if (!b.score || !b.started_unix_s) {
      if (is_cell) ++r.failed;
      continue;
    }
    if (is_cell) cell.push_back(point(b)), cell_by_repeat[b.repeat] = *b.score;
    if (is_control && !is_cell) control.push_back(point(b)), control_by_repeat[b.repeat] = *b.score;
  }
  if (!any)
    throw UsageError(fmt::format("run {} has no boot of cell '{}'", run, cell_id));
  r.cell = cell_figures(cell, alpha, power);
  if (control_id != cell_id) {
    r.control = cell_figures(control, alpha, power);
    std::vector<double> ratios;
    for (const auto& [rep, s] : cell_by_repeat)
      if (auto it = control_by_repeat.find(rep); it != control_by_repeat.end() && it->second > 0)
        ratios.push_back(s / it->second);
    if (ratios.size() >= 2) r.control_corrected_rel_stddev = stats::relative_stddev(ratios);
  }
  return r;
}

store::NoiseReportRow to_row(const CellNoise& r) {
  store::NoiseReportRow row;
  row.run = r.run;
  row.cell_id = r.cell_id;
  row.control_id = r.control_id;
  row.created_at = r.created_at;
  row.boots = r.cell.boots;
  row.boot_rel_stddev = r.cell.boot_rel_stddev;
  row.pass_rel_stddev = r.cell.pass_rel_stddev;
  if (r.cell.drift) {
    row.drift_per_hour = r.cell.drift->slope;
    row.drift_ci_low = r.cell.drift->ci_low;
    row.drift_ci_high = r.cell.drift->ci_high;
  }
  row.load_correlation = r.cell.load_correlation;
  row.mde_4 = r.cell.mde_4;
  row.mde_8 = r.cell.mde_8;
  row.mde_16 = r.cell.mde_16;
  row.vcpu_share_mean = r.cell.mean_vcpu_share;
  row.vcpu_share_correlation = r.cell.vcpu_share_correlation;
  row.report_json = to_json(r).dump();
  return row;
}

json to_json(const CellNoise& r) {
  json j = {{"cell", r.cell_id},
            {"control", r.control_id},
            {"run", r.run ? json(*r.run) : json(nullptr)},
            {"created_at", r.created_at},
            {"alpha", r.alpha},
            {"power", r.power},
            {"failed_boots", r.failed},
            {"warmup_passes", r.warmup_passes},
            {"figures", figures_json(r.cell)},
            {"control_figures", r.control ? figures_json(*r.control) : json(nullptr)},
            {"control_corrected_rel_stddev", opt(r.control_corrected_rel_stddev)}};
  json tl = json::array();
  for (const auto& b : r.timeline) {
    json passes = json::array();
    for (const auto& p : b.passes)
      passes.push_back({{"lpm", p.lpm}, {"vcpu_share", opt(p.vcpu_share)}, {"host_steal", opt(p.host_steal)}});
    tl.push_back({{"cell", b.cell_id}, {"repeat", b.repeat}, {"t_s", b.t_s}, {"score", opt(b.score)},
                  {"busy", opt(b.busy)}, {"load1", opt(b.load1)}, {"passes", passes}});
  }
  j["timeline"] = tl;
  return j;
}

CellNoise from_json(const json& j) {
  CellNoise r;
  r.cell_id = j.at("cell").get<std::string>();
  r.control_id = j.at("control").get<std::string>();
  if (!j.at("run").is_null()) r.run = j.at("run").get<store::RunId>();
  r.created_at = j.at("created_at").get<std::string>();
  r.alpha = j.at("alpha").get<double>();
  r.power = j.at("power").get<double>();
  r.failed = j.at("failed_boots").get<unsigned>();
  r.warmup_passes = j.at("warmup_passes").get<unsigned>();
  r.cell = figures_from(j.at("figures"));
  if (!j.at("control_figures").is_null()) r.control = figures_from(j.at("control_figures"));
  r.control_corrected_rel_stddev = get_opt(j, "control_corrected_rel_stddev");
  for (const auto& b : j.at("timeline")) {
    TimelineBoot tb{b.at("cell").get<std::string>(), b.at("repeat").get<unsigned>(),
                    b.at("t_s").get<double>(), get_opt(b, "score"), get_opt(b, "busy"),
                    get_opt(b, "load1"), {}};
    if (b.contains("passes"))  // absent in reports before the vCPU share
      for (const auto& p : b.at("passes"))  // host_steal absent in reports before it
        tb.passes.push_back({p.at("lpm").get<double>(), get_opt(p, "vcpu_share"), get_opt(p, "host_steal")});
    r.timeline.push_back(std::move(tb));
  }
  return r;
}

std::string render_text(const CellNoise& r) {
  std::string out = fmt::format("noise of {}{}{}\n", r.cell_id,
                                r.run ? fmt::format(" (run {})", *r.run) : "",
                                r.created_at.empty() ? "" : ", " + r.created_at);
  out += fmt::format("control: {}\n", r.control_id == r.cell_id ? "the cell itself" : r.control_id);
  out += fmt::format("method: {} warm-up pass(es) per boot, left out of the score\n", r.warmup_passes);
  if (r.failed) out += fmt::format("{} boot(s) of the cell failed and are left out\n", r.failed);
  out += figures_text(r.cell, "cell");
  out += fmt::format("  minimum detectable effect (alpha = {}, power = {}):\n", r.alpha, r.power);
  out += fmt::format("    4 + 4 boots: {}   8 + 8 boots: {}   16 + 16 boots: {}\n", pct(r.cell.mde_4),
                     pct(r.cell.mde_8), pct(r.cell.mde_16));
  if (r.control) {
    out += figures_text(*r.control, "control");
    out += fmt::format("  minimum detectable effect: 4+4 {}, 8+8 {}, 16+16 {}\n", pct(r.control->mde_4),
                       pct(r.control->mde_8), pct(r.control->mde_16));
    out += fmt::format("cell / control of the same repeat: relative stddev {}\n",
                       pct(r.control_corrected_rel_stddev));
  }
  out += "timeline (s after the first boot, lpm, host busy, load average before; per pass: lpm @ vCPU share / host steal):\n";
  for (const auto& b : r.timeline) {
    std::string passes;
    for (const auto& p : b.passes)
      passes += fmt::format("  {:.1f}@{}/{}", p.lpm, p.vcpu_share ? fmt::format("{:.0f}%", *p.vcpu_share * 100) : "n/a",
                            pct(p.host_steal));
    out += fmt::format("  {:7.0f}  {}#{}  {}  {}  {}{}\n", b.t_s, b.cell_id, b.repeat,
                       b.score ? fmt::format("{:9.1f}", *b.score) : std::string("   failed"),
                       b.busy ? fmt::format("{:3.0f}%", *b.busy * 100) : std::string(" n/a"),
                       b.load1 ? fmt::format("{:.2f}", *b.load1) : std::string("n/a"),
                       passes.empty() ? "" : " |" + passes);
  }
  return out;
}

std::string render_history(const std::vector<store::NoiseReportRow>& rows) {
  if (rows.empty()) return "no noise reports stored\n";
  std::string out = fmt::format("{:<4} {:<24} {:<40} {:>5} {:>8} {:>8} {:>9} {:>7} {:>7}\n", "id",
                                "time", "cell", "boots", "boot sd", "pass sd", "drift/h", "MDE 8",
                                "load r");
  for (const auto& r : rows)
    out += fmt::format("{:<4} {:<24} {:<40} {:>5} {:>8} {:>8} {:>9} {:>7} {:>7}\n", r.id, r.created_at,
                       r.cell_id, r.boots, pct(r.boot_rel_stddev), pct(r.pass_rel_stddev),
                       r.drift_per_hour ? fmt::format("{:+.1f}%", *r.drift_per_hour * 100) : "n/a",
                       pct(r.mde_8), r.load_correlation ? fmt::format("{:+.2f}", *r.load_correlation) : "n/a");
  return out;
}

}  // namespace rlab::noise

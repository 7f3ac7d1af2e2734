// kcidb.json: KCIDB I/O schema v5.3 (kernelci/kcidb-io, its LATEST schema). Facts used: top-level
// "version" {"major": 5, "minor": 3} is required; checkouts need id and origin, builds id,
// origin and checkout_id, tests id, origin and build_id; ids are "<origin>:<text>"; origin
// matches ^[a-z0-9_]+$; a test path is dot-separated words of [a-zA-Z0-9_-]; build and test
// status is one of FAIL, ERROR, MISS, PASS, DONE, SKIP (a build has no "valid" in v5, a
// checkout still has); a test's numerical output is "number" {value, unit}; git_commit_hash
// is 40 lowercase hex digits; no property may be null and no object may carry properties the
// schema does not name ("misc" is free-form). The tests validate the output against the
// schema itself with a draft-07 validator.
#include "nightly/report_dirs.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace rlab::nightly {
namespace {

using nlohmann::json;

constexpr const char* kOrigin = "rlab";

std::string checkout_id(const NightAnalysis& r, const std::string& kernel) {
  return std::string(kOrigin) + ":" + std::to_string(r.run.id) + ":" + kernel;
}

bool is_sha1(const std::string& s) {
  return s.size() == 40 && std::all_of(s.begin(), s.end(), [](unsigned char c) {
           return std::isdigit(c) || (c >= 'a' && c <= 'f');
         });
}

json comparison_misc(const compare::CellComparison& c, const store::RunInfo& base,
                     const compare::ComparisonTable& rep) {
  json j = {{"base_run", base.id}, {"status", std::string(compare::row_status_name(c.status))}};
  if (rep.drift)
    j["drift_corrected"] = {{"control", rep.drift->control},
                            {"base_control_mean_lpm", rep.drift->base_control_mean},
                            {"new_control_mean_lpm", rep.drift->new_control_mean}};
  if (c.result) {
    j["verdict"] = std::string(stats::verdict_name(c.result->verdict));
    j["change"] = c.result->difference.relative_change;
    j["p"] = c.result->difference.p_min;
    j["base_median_lpm"] = c.result->difference.median_a;
    j["regression"] = c.regression();
  }
  if (c.mismatch) j["refused"] = c.mismatch->message();
  return j;
}

/// A kernel whose every boot failed in the build phase did not build.
bool kernel_built(const NightAnalysis& r, const std::string& kernel) {
  for (const auto& c : r.cells)
    if (c.kernel == kernel && (c.done > 0 || c.failure.rfind("build", 0) != 0)) return true;
  return false;
}

}  // namespace

std::string kcidb_path(const CellOutcome& c) {
  std::string fs = c.fs;
  if (c.mkfs_label != "defaults" && !c.mkfs_label.empty()) {
    std::string m;
    for (char ch : c.mkfs_label)
      if (std::isalnum(static_cast<unsigned char>(ch))) m += ch;
    fs += "-" + m;
  }
  std::string path = "unixbench." + c.workload + "." + fs + ".vcpus" + std::to_string(c.vcpus);
  for (char& ch : path)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') ch = '_';
  return path;
}

namespace {

/// The KCIDB test object of cell `c`: its status, the median score as the test's number, and
/// in misc the boots, scores, comparisons and change points.
json kcidb_test(const NightAnalysis& r, const CellOutcome& c) {
  json misc = {{"cell_id", c.cell_id}, {"kernel", c.kernel}, {"fs", c.fs},
               {"mkfs", c.mkfs_label}, {"vcpus", c.vcpus}, {"copies", c.copies},
               {"workload", c.workload}, {"boots", c.boots}, {"boots_done", c.done},
               {"boots_failed", c.failed}, {"scores_lpm", c.scores}};
  if (c.median) misc["median_lpm"] = *c.median;
  if (c.vs_previous && r.previous && r.vs_previous)
    misc["vs_previous"] = comparison_misc(*c.vs_previous, *r.previous, *r.vs_previous);
  if (c.vs_baseline && r.baseline && r.vs_baseline)
    misc["vs_baseline"] = comparison_misc(*c.vs_baseline, *r.baseline, *r.vs_baseline);
  if (c.cell_id == r.control) misc["drift_control"] = true;  // not compared: it measures the host
  json cps = json::array();
  for (const auto& m : c.change_points)
    cps.push_back({{"run_before", m.detection.last_before.run},
                   {"run_after", m.detection.first_after.run},
                   {"change", m.detection.change.relative_change},
                   {"p", m.detection.change.p},
                   {"new", m.is_new}});
  misc["change_points"] = cps;
  if (!c.failure.empty()) misc["failure"] = c.failure;
  json t = {{"id", std::string(kOrigin) + ":" + std::to_string(r.run.id) + ":" + c.cell_id},
            {"origin", kOrigin},
            {"build_id", checkout_id(r, c.kernel) + ":build"},
            {"path", kcidb_path(c)},
            {"status", c.status()},
            {"start_time", c.started_at},
            {"comment", c.cell_id + (c.status() == "PASS" ? "" : ": " + c.reason())},
            {"environment", {{"comment", "host " + r.run.hostname},
                             {"misc", {{"host", r.run.hostname}, {"run", r.run.id}}}}},
            {"misc", misc}};
  // The performance figure: the cell's median score tonight (a test that ran).
  if (c.median) t["number"] = {{"value", *c.median}, {"unit", "lpm"}};
  return t;
}

json gap_comparison_misc(const GapComparison& c) {
  json j = {{"base_run", c.base_run}};
  if (c.result) {
    const auto& d = c.result->difference;
    j["verdict"] = std::string(stats::verdict_name(c.result->verdict));
    j["change"] = d.relative_change;
    j["p"] = d.p_min;
    j["base_ratio"] = d.median_a;
    j["regression"] = c.regression();
  } else {
    j["not_compared"] = c.note;
  }
  return j;
}

/// The KCIDB test object of gap `g`: its status, tonight's ratio as the test's (dimensionless)
/// number, and in misc the two cells, the ratios, comparisons, change points and bisection.
json kcidb_gap_test(const NightAnalysis& r, const GapOutcome& g) {
  json misc = {{"gap", true}, {"cell_id", g.cell_id}, {"against_cell_id", g.against_cell_id}, {"kernel", g.kernel},
               {"nights", g.nights.size()}};
  if (g.tonight) {
    misc["ratio"] = g.tonight->point.score;
    misc["method"] = g.tonight->method;
    misc["ratios"] = g.tonight->ratios;
  }
  if (g.vs_previous) misc["vs_previous"] = gap_comparison_misc(*g.vs_previous);
  if (g.vs_baseline) misc["vs_baseline"] = gap_comparison_misc(*g.vs_baseline);
  json cps = json::array();
  for (const auto& m : g.change_points)
    cps.push_back({{"run_before", m.detection.last_before.run},
                   {"run_after", m.detection.first_after.run},
                   {"ratio_before", m.detection.change.mean_before},
                   {"ratio_after", m.detection.change.mean_after},
                   {"change", m.detection.change.relative_change},
                   {"p", m.detection.change.p},
                   {"new", m.is_new}});
  misc["change_points"] = cps;
  if (const auto* b = r.gap_bisect(g))
    misc["bisection"] = {{"good", b->good_commit}, {"bad", b->bad_commit}, {"state", b->state()}};
  if (!g.tonight) misc["failure"] = g.note;
  json t = {{"id", std::string(kOrigin) + ":" + std::to_string(r.run.id) + ":gap:" + g.name()},
            {"origin", kOrigin},
            {"build_id", checkout_id(r, g.kernel) + ":build"},
            {"path", kcidb_gap_path(r, g)},
            {"status", g.status()},
            {"start_time", r.run.created_at},
            {"comment", "gap " + g.name() + (g.status() == "PASS" ? "" : ": " + g.reason())},
            {"environment", {{"comment", "host " + r.run.hostname},
                             {"misc", {{"host", r.run.hostname}, {"run", r.run.id}}}}},
            {"misc", misc}};
  if (g.tonight) t["number"] = {{"value", g.tonight->point.score}};  // a ratio: dimensionless, no unit
  return t;
}

}  // namespace

std::string kcidb_gap_path(const NightAnalysis& r, const GapOutcome& g) {
  const CellOutcome* a = nullptr;
  const CellOutcome* b = nullptr;
  for (const auto& c : r.cells) {
    if (c.cell_id == g.cell_id) a = &c;
    if (c.cell_id == g.against_cell_id) b = &c;
  }
  const auto words = [](const std::string& path) {
    std::vector<std::string> out;
    for (std::size_t from = 0;;) {
      const auto dot = path.find('.', from);
      out.push_back(path.substr(from, dot == std::string::npos ? std::string::npos : dot - from));
      if (dot == std::string::npos) return out;
      from = dot + 1;
    }
  };
  std::string first, differs;
  if (a && b) {
    first = kcidb_path(*a);
    const auto wa = words(first), wb = words(kcidb_path(*b));
    for (std::size_t i = 0; i < wb.size(); ++i)
      if (i >= wa.size() || wa[i] != wb[i]) differs += (differs.empty() ? "" : "_") + wb[i];
  } else {  // a cell not in tonight's run: the ids themselves
    first = "unixbench." + g.cell_id;
    differs = g.against_cell_id;
  }
  std::string path = first + ".gap_" + differs;
  for (char& ch : path)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') ch = '_';
  return path;
}

json to_kcidb(const NightAnalysis& r) {
  json checkouts = json::array(), builds = json::array(), tests = json::array();
  std::map<std::string, const CellOutcome*> kernels;  // first cell with an identity wins
  for (const auto& c : r.cells) {
    auto [it, fresh] = kernels.emplace(c.kernel, &c);
    if (!fresh && it->second->source_commit.empty() && !c.source_commit.empty()) it->second = &c;
  }
  for (const auto& [kernel, c] : kernels) {
    const bool built = kernel_built(r, kernel);
    json misc = {{"kernel", kernel}, {"patchset", c->patchset.empty() ? "none" : c->patchset}};
    if (!c->source_commit.empty()) misc["source_commit"] = c->source_commit;
    json co = {{"id", checkout_id(r, kernel)},
               {"origin", kOrigin},
               {"comment", "kernel " + kernel + (c->source_commit.empty() ? "" : " at " + c->source_commit)},
               {"start_time", r.run.created_at},
               {"valid", built},
               {"misc", misc}};
    if (is_sha1(c->source_commit)) co["git_commit_hash"] = c->source_commit;
    checkouts.push_back(co);
    json bmisc = {{"kernel", kernel}};
    if (!c->kernel_release.empty()) bmisc["kernel_release"] = c->kernel_release;
    if (!c->config_sha256.empty()) bmisc["config_sha256"] = c->config_sha256;
    builds.push_back({{"id", checkout_id(r, kernel) + ":build"},
                      {"origin", kOrigin},
                      {"checkout_id", checkout_id(r, kernel)},
                      {"architecture", "arm64"},
                      {"start_time", r.run.created_at},
                      {"status", built ? "PASS" : "FAIL"},
                      {"misc", bmisc}});
  }
  for (const auto& c : r.cells) tests.push_back(kcidb_test(r, c));
  for (const auto& g : r.gaps) tests.push_back(kcidb_gap_test(r, g));
  return {{"version", {{"major", 5}, {"minor", 3}}},
          {"checkouts", checkouts},
          {"builds", builds},
          {"tests", tests}};
}

}  // namespace rlab::nightly

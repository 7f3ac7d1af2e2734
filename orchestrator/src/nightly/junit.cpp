// junit.xml: one <testcase> per cell (classname "rlab.<kernel>", name = the cell id) and one
// per gap (classname "rlab.<kernel>.gap", name "<cell> ÷ <against>"); a significant regression
// is a <failure type="regression">, a cell with a failed boot an <error type="boot">, a gap
// without a ratio tonight an <error type="no-ratio">; the figures go to <system-out>.
#include "nightly/report_dirs.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

namespace rlab::nightly {

namespace {

std::string figures(const CellOutcome& c) {
  std::string out = fmt::format("boots {} done {} failed {}", c.boots, c.done, c.failed);
  if (c.median) out += fmt::format("; median {:.2f} lpm", *c.median);
  if (!c.scores.empty()) {
    out += "; scores";
    for (double s : c.scores) out += fmt::format(" {:.2f}", s);
  }
  return out;
}

void write_properties(util::XmlWriter& x, const NightAnalysis& r) {
  const auto property = [&x](std::string_view name, const std::string& value) {
    x.open("property").attr("name", name).attr("value", value).close();
  };
  x.open("properties");
  property("run", std::to_string(r.run.id));
  property("matrix", r.run.matrix_path);
  if (r.previous) property("previous_run", std::to_string(r.previous->id));
  if (r.baseline) property("baseline_run", std::to_string(r.baseline->id));
  if (!r.control.empty()) property("drift_control", r.control);
  if (r.vs_previous) property("drift_vs_previous", r.drift_text("previous"));
  if (r.vs_baseline) property("drift_vs_baseline", r.drift_text("baseline"));
  x.close();
}

void write_testcase(util::XmlWriter& x, const CellOutcome& c) {
  x.open("testcase").attr("classname", "rlab." + c.kernel).attr("name", c.cell_id);
  const auto s = c.status();
  if (s == "FAIL")
    x.open("failure").attr("type", "regression").attr("message", c.reason()).text(figures(c)).close();
  else if (s == "ERROR")
    x.open("error").attr("type", "boot").attr("message", c.reason()).text(c.failure).close();
  x.leaf("system-out", figures(c));
  x.close();
}

std::string gap_figures(const GapOutcome& g) {
  std::string out = fmt::format("{} nights", g.nights.size());
  if (g.tonight) {
    out += fmt::format("; ratio tonight {:.4f} ({})", g.tonight->point.score, g.tonight->method);
    if (!g.tonight->ratios.empty()) {
      out += "; per round";
      for (double x : g.tonight->ratios) out += fmt::format(" {:.4f}", x);
    }
  }
  return out;
}

/// A gap's testcase: classname "rlab.<kernel>.gap", name "<cell> ÷ <against>".
void write_gap_testcase(util::XmlWriter& x, const GapOutcome& g) {
  x.open("testcase").attr("classname", "rlab." + g.kernel + ".gap").attr("name", g.name());
  const auto s = g.status();
  if (s == "FAIL")
    x.open("failure").attr("type", "regression").attr("message", g.reason()).text(gap_figures(g)).close();
  else if (s == "ERROR")
    x.open("error").attr("type", "no-ratio").attr("message", g.reason()).text(g.note).close();
  x.leaf("system-out", gap_figures(g));
  x.close();
}

}  // namespace

std::string render_junit(const NightAnalysis& r) {
  std::size_t failures = 0, errors = 0;
  for (const auto& c : r.cells) {
    const auto s = c.status();
    failures += s == "FAIL";
    errors += s == "ERROR";
  }
  for (const auto& g : r.gaps) {
    const auto s = g.status();
    failures += s == "FAIL";
    errors += s == "ERROR";
  }
  const std::size_t tests = r.cells.size() + r.gaps.size();
  util::XmlWriter x({.quote = '"', .declaration = true});
  x.open("testsuites").attr("name", "rlab nightly").attr("tests", tests)
      .attr("failures", failures).attr("errors", errors);
  x.open("testsuite").attr("name", fmt::format("rlab nightly run {}", r.run.id))
      .attr("tests", tests).attr("failures", failures).attr("errors", errors)
      .attr("skipped", 0).attr("timestamp", r.run.created_at.substr(0, 19))
      .attr("hostname", r.run.hostname);
  write_properties(x, r);
  for (const auto& c : r.cells) write_testcase(x, c);
  for (const auto& g : r.gaps) write_gap_testcase(x, g);
  return x.finish();
}

}  // namespace rlab::nightly

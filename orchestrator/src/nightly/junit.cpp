// junit.xml: one <testcase> per cell (classname "rlab.<kernel>", name = the cell id); a
// significant regression is a <failure type="regression">, a cell with a failed boot an
// <error type="boot">; the figures go to <system-out>.
#include "nightly/report_dirs.hpp"

#include "util/xml.hpp"

#include <fmt/format.h>

namespace rlab::nightly {

using util::xml_escape;

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

}  // namespace

std::string render_junit(const NightAnalysis& r) {
  std::size_t failures = 0, errors = 0;
  for (const auto& c : r.cells) {
    const auto s = c.status();
    failures += s == "FAIL";
    errors += s == "ERROR";
  }
  const std::string suite = fmt::format("rlab nightly run {}", r.run.id);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format(R"(<testsuites name="rlab nightly" tests="{}" failures="{}" errors="{}">)" "\n",
                     r.cells.size(), failures, errors);
  out += fmt::format(R"(  <testsuite name="{}" tests="{}" failures="{}" errors="{}" skipped="0" )"
                     R"(timestamp="{}" hostname="{}">)" "\n",
                     xml_escape(suite), r.cells.size(), failures, errors,
                     xml_escape(r.run.created_at.substr(0, 19)), xml_escape(r.run.hostname));
  out += "    <properties>\n";
  out += fmt::format(R"(      <property name="run" value="{}"/>)" "\n", r.run.id);
  out += fmt::format(R"(      <property name="matrix" value="{}"/>)" "\n", xml_escape(r.run.matrix_path));
  if (r.previous)
    out += fmt::format(R"(      <property name="previous_run" value="{}"/>)" "\n", r.previous->id);
  if (r.baseline)
    out += fmt::format(R"(      <property name="baseline_run" value="{}"/>)" "\n", r.baseline->id);
  if (!r.control.empty())
    out += fmt::format(R"(      <property name="drift_control" value="{}"/>)" "\n", xml_escape(r.control));
  for (const char* which : {"previous", "baseline"})
    if (which == std::string_view("previous") ? r.vs_previous.has_value() : r.vs_baseline.has_value())
      out += fmt::format(R"(      <property name="drift_vs_{}" value="{}"/>)" "\n", which,
                         xml_escape(r.drift_text(which)));
  out += "    </properties>\n";
  for (const auto& c : r.cells) {
    out += fmt::format(R"(    <testcase classname="rlab.{}" name="{}">)" "\n", xml_escape(c.kernel),
                       xml_escape(c.cell_id));
    const auto s = c.status();
    if (s == "FAIL")
      out += fmt::format(R"(      <failure type="regression" message="{}">{}</failure>)" "\n",
                         xml_escape(c.reason()), xml_escape(figures(c)));
    else if (s == "ERROR")
      out += fmt::format(R"(      <error type="boot" message="{}">{}</error>)" "\n",
                         xml_escape(c.reason()), xml_escape(c.failure));
    out += fmt::format("      <system-out>{}</system-out>\n", xml_escape(figures(c)));
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace rlab::nightly

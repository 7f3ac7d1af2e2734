#include "nightly/night.hpp"

#include "bisect_driver/culprit.hpp"
#include "bisect_driver/driver.hpp"
#include "bisect_driver/vm_lab.hpp"
#include "matrix/matrix.hpp"
#include "metrics/push.hpp"
#include "nightly/reports.hpp"
#include "run/interrupts.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>

namespace rlab::nightly {
namespace fs = std::filesystem;
namespace bd = rlab::bisect_driver;

namespace {

void start_bisects(NightOutcome& out, const NightOptions& o, const Say& say) {
  auto& r = out.analysis;
  for (auto& b : r.bisects) {
    if (run::Interrupts::instance().stopped()) break;
    try {
      bd::SessionDb db(r.db);
      bd::StartOptions so;
      so.tree = fs::absolute(o.tree);
      so.good = b.good_commit;
      so.bad = b.bad_commit;
      so.cell = b.cell_id;
      so.matrix = r.run.matrix_path;
      b.session = bd::create_session(db, so);
      say(fmt::format("bisect session {}: {} between {} and {} ({})", b.session, b.cell_id,
                      b.good_commit, b.bad_commit, b.why));
      auto stored = *db.get(b.session);
      bd::VmLab lab(db, stored, o.agent, [&](std::string_view l) { say(l); });
      const auto s = bd::drive(db, b.session, lab, false, [&](std::string_view l) { say(l); });
      b.outcome = s.status + (s.first_bad.empty() ? "" : ": first bad commit " + s.first_bad);
      if (const auto checks = bd::checks_from_json(s.checks_json); checks && checks->suspicious())
        b.outcome += checks->no_op.value_or(false) ? " (SUSPICIOUS: its kernel text equals its parent's)"
                                                   : " (SUSPICIOUS: it changes nothing this kernel builds)";
    } catch (const std::exception& e) {
      b.outcome = std::string("not finished: ") + e.what();
      ++out.bisect_errors;
    }
    say(fmt::format("bisect of {}: {}", b.cell_id, b.outcome));
  }
}

}  // namespace

NightOutcome run_night(const NightOptions& o, run::Progress& progress, const Say& say_in) {
  const Say say = say_in ? say_in : [](std::string_view) {};
  NightOutcome out;
  std::string push_url = o.push;
  fs::path db;
  store::RunId run_id = 0;
  AnalyseOptions analyse_options = o.analyse;
  // --control, else the matrix's `control:` (validated when the matrix was loaded).
  auto take_matrix_control = [&](const matrix::Matrix& m) {
    if (analyse_options.compare.control.empty() && m.control) analyse_options.compare.control = *m.control;
  };
  if (o.report_only) {
    db = matrix::store_path(o.db, o.matrix);
    if (!fs::exists(db)) throw UsageError(db.string() + ": no results store");
    run_id = *o.report_only;
    matrix::LoadOptions lo;
    lo.check_paths = false;
    take_matrix_control(matrix::load_matrix(o.matrix, lo));
  } else {
    const matrix::Matrix m = matrix::load_matrix(o.matrix);
    if (push_url.empty()) push_url = m.push_url.value_or("");
    if (!o.analyse.compare.control.empty()) {  // refuse a control that is no single cell before booting
      std::vector<std::string> ids;
      for (const auto& c : matrix::expand_cells(m)) ids.push_back(c.id);
      resolve_night_control(ids, o.analyse.compare.control);
    }
    take_matrix_control(m);
    if (!push_url.empty()) metrics::parse_push_url(push_url);  // refuse a bad URL before booting
    if (o.analyse.baseline) {  // refuse an unknown baseline before booting
      const auto path = matrix::store_path(o.db, o.matrix);
      if (!fs::exists(path) || !store::Store::open(path)->run(*o.analyse.baseline))
        throw UsageError(
            fmt::format("{}: no baseline run {}", path.string(), *o.analyse.baseline));
    }
    run::RunOptions ro;
    ro.matrix = o.matrix;
    ro.db = o.db;
    ro.agent_binary = o.agent;
    ro.kind = kNightlyKind;
    out.run = run::execute(ro, progress);
    db = out.run->db;
    run_id = out.run->run;
    if (out.run->interrupted) {
      out.interrupted = true;
      out.analysis.run.id = run_id;
      return out;
    }
  }
  out.analysis = analyse(db, run_id, analyse_options);
  const fs::path root = o.out.empty() ? db.parent_path() / "reports" : o.out;
  out.report_dir = write_reports(out.analysis, root);
  say(fmt::format("reports of run {} in {}", run_id, out.report_dir.string()));
  if (!push_url.empty()) {
    try {
      auto st = store::Store::open(db);
      const auto p = metrics::push_run(*st, run_id, push_url);
      for (const auto& e : p.errors) say("push to " + push_url + ": " + e);
      out.push_errors = p.errors.size();
      if (p.ok()) say(fmt::format("pushed {} groups to {}", p.groups_pushed, push_url));
    } catch (const std::exception& e) {
      say("push to " + push_url + ": " + e.what());
      out.push_errors = 1;
    }
  }
  if (!o.tree.empty() && !out.analysis.bisects.empty()) {
    start_bisects(out, o, say);
    write_reports(out.analysis, root);  // now with the bisections' outcome
  }
  return out;
}

}  // namespace rlab::nightly

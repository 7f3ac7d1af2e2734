// `rlab bisect`: finds the commit of a kernel git tree that made a cell slower (or faster,
// --direction improvement), or with `--against` the commit that opened the gap between two
// cells, measuring adaptively and driving `git bisect`; `--resume S`
// continues a session. `rlab bisect-step --session S`: answers the commit git bisect has
// checked out, for `git bisect run rlab bisect-step --session S`. docs/bisect.md.
#include "kernel_bisect/driver.hpp"
#include "kernel_bisect/render.hpp"
#include "kernel_bisect/vm_lab.hpp"
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"
#include "matrix/matrix.hpp"
#include "run/interrupts.hpp"
#include "util/paths.hpp"
#include "util/usage_error.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>

namespace rlab::cli {
namespace {
namespace bd = rlab::kernel_bisect;

/// `git bisect run` aborts on exit codes above 127: bisect-step's code for "the lab failed".
constexpr int kStepAbort = 128;

struct BisectArgs {
  bd::StartOptions o = [] {  ///< bound to the options
    bd::StartOptions s;
    s.matrix = util::source_dir() / "matrix.yaml";
    return s;
  }();
  std::string direction = "regression", db, agent;
  std::int64_t resume = 0;
  std::int64_t session = 0;  ///< bisect-step
};

bd::ProgressLine progress_lines() {
  return [](std::string_view line) { spdlog::info("{}", line); };
}

int bisect_main(const BisectArgs& a) {
  run::Interrupts::instance().install();
  std::unique_ptr<bd::SessionDb> db;
  bd::SessionId id = a.resume;
  try {
    const auto path = matrix::store_path(a.db, a.o.matrix);
    if (a.resume > 0 && !std::filesystem::exists(path))
      throw UsageError(path.string() + ": no results store to resume from");
    db = std::make_unique<bd::SessionDb>(path);
    if (a.resume > 0) {
      if (!db->get(a.resume))
        throw UsageError(fmt::format("{}: no bisect session {}", path.string(), a.resume));
    } else {
      if (a.o.tree.empty() || a.o.good.empty() || a.o.bad.empty() || a.o.cell.empty())
        throw UsageError("rlab bisect: give --tree, --good, --bad and --cell (or --resume S)");
      bd::StartOptions o = a.o;
      o.direction = bd::parse_direction(a.direction);
      id = bd::create_session(*db, o);
      spdlog::info("bisect session {} in {} (resume with `rlab bisect --resume {} --db {}`)", id,
                   path.string(), id, path.string());
    }
  } catch (...) {
    return exit_code_of_current_exception();
  }
  bd::Session s;
  try {
    auto stored = *db->get(id);
    bd::VmLab lab(*db, stored, a.agent, progress_lines());
    s = bd::drive(*db, id, lab, a.resume > 0, [](std::string_view l) { spdlog::info("{}", l); });
  } catch (...) {
    const int code = exit_code_of_current_exception();
    spdlog::error("the session is kept: continue with `rlab bisect --resume {} --db {}`", id,
                  db->path().string());
    run::Interrupts::instance().destroy_domains();
    return run::Interrupts::instance().stopped() ? kInterrupted : code;
  }
  const bd::GitTree git(s.spec.tree);
  std::cout << bd::render_report(*db, s, git);
  try {
    const auto flames = bd::write_flame_graphs(*db, s, git, db->path().parent_path() / fmt::format("bisect-{}-flames", s.id));
    for (const auto& f : flames) std::cout << "differential flame graph: " << f.string() << "\n";
  } catch (const std::exception& e) {
    spdlog::warn("bisect session {}: the flame graphs could not be written: {}", s.id, e.what());
  }
  return s.status == kernel_bisect::SessionState::found ? kOk : kFailure;
}

int step_main(const BisectArgs& a) {
  run::Interrupts::instance().install();
  if (a.session <= 0) {
    // Not a usage exit code: under `git bisect run` anything in 1..127 would mean "bad".
    spdlog::error("rlab bisect-step: give --session S (the id `rlab bisect` printed)");
    return kStepAbort;
  }
  try {
    bd::SessionDb db(matrix::store_path(a.db, a.o.matrix));
    auto s = db.get(a.session);
    if (!s) {
      spdlog::error("{}: no bisect session {}", db.path().string(), a.session);
      return kStepAbort;
    }
    bd::GitTree git(s->spec.tree);
    const std::string commit = git.current();
    bd::VmLab lab(db, *s, a.agent, progress_lines());
    auto row = bd::answer_commit(db, *s, lab, commit);
    spdlog::info("{} {}: {} ({} boots): {}", commit.substr(0, 12), git.subject(commit),
                 bisection::step_result_name(row.result),
                 row.samples, row.reason);
    return bd::exit_code_for(row.result);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    run::Interrupts::instance().destroy_domains();
    return kStepAbort;
  }
}

void add_common(CLI::App* cmd, BisectArgs& a) {
  cmd->add_option("--matrix", a.o.matrix, "Matrix file (default: the project's matrix.yaml)");
  cmd->add_option("--db", a.db, "Results store (default: the matrix's `results:`)");
  cmd->add_option("--agent", a.agent,
                  "Static aarch64 rlab-agent to pack (default: $RLAB_AGENT_BINARY or build/aarch64)")
      ->check(CLI::ExistingFile);
}

Registrar bisect_registrar(40, [](CLI::App& app, int* exit_code) {
  auto args = std::make_shared<BisectArgs>();
  auto* cmd = app.add_subcommand("bisect", "Find the commit that changed a cell's score (git bisect)");
  cmd->add_option("--tree", args->o.tree, "Kernel git repository");
  cmd->add_option("--good", args->o.good, "Ref without the change (older)");
  cmd->add_option("--bad", args->o.bad, "Ref with the change (newer)");
  cmd->add_option("--cell", args->o.cell, "Cell id of the matrix, or a unique part of one");
  cmd->add_option("--against", args->o.against,
                  "A second cell of the same kernel: bisect the gap, --cell's score over this one's "
                  "(each commit booted in both, round by round)");
  cmd->add_option("--direction", args->direction, "regression (bad is slower) or improvement")
      ->check(CLI::IsMember({"regression", "improvement"}))
      ->capture_default_str();
  cmd->add_option("--resume", args->resume, "Continue bisect session S after a crash or signal");
  cmd->add_option("--alpha", args->o.alpha, "Significance level of the ends (steps: Bonferroni share)")
      ->capture_default_str();
  cmd->add_option("--min-effect", args->o.min_effect, "Smallest relative change that counts (0.02 = 2%)")
      ->capture_default_str();
  cmd->add_option("--initial", args->o.initial, "Boots of each end before the first verdict on the ends (steps: from the ends' noise)")
      ->capture_default_str();
  cmd->add_option("--cap", args->o.cap, "Most boots per commit (doubling from --initial)")->capture_default_str();
  add_common(cmd, *args);
  cmd->final_callback([args, exit_code] { *exit_code = bisect_main(*args); });

  auto sargs = std::make_shared<BisectArgs>();
  auto* step = app.add_subcommand(
      "bisect-step",
      "Answer the commit under test for `git bisect run`: exit 0 good, 1 bad, 125 skip, 128 abort");
  step->add_option("--session", sargs->session, "Bisect session id (from `rlab bisect`)");
  add_common(step, *sargs);
  step->final_callback([sargs, exit_code] { *exit_code = step_main(*sargs); });
});

}  // namespace
}  // namespace rlab::cli

#include "kernel_bisect/culprit.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace rlab::kernel_bisect {
namespace {
/// The stored result of a revert check that could not be made.
constexpr std::string_view kDoesNotApply = "does not apply";

std::string list(const std::vector<std::string>& files, std::size_t most = 5) {
  std::string s;
  for (std::size_t i = 0; i < files.size() && i < most; ++i) s += (i ? ", " : "") + files[i];
  if (files.size() > most) s += fmt::format(" and {} more", files.size() - most);
  return s;
}

nlohmann::json opt(const std::optional<bool>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

}  // namespace

bool build_file(const std::string& p) {
  const auto slash = p.rfind('/');
  const std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
  if (name.rfind("Kconfig", 0) == 0 || name.rfind("Makefile", 0) == 0 || name.rfind("Kbuild", 0) == 0) return true;
  if (p.rfind("scripts/", 0) == 0) return true;
  return p.rfind("arch/", 0) == 0 && p.find("/configs/") != std::string::npos;
}

CulpritChecks check_culprit(const GitTree& git, Lab& lab, const std::string& culprit) {
  CulpritChecks c;
  c.culprit = culprit;
  const auto parent = git.parent(culprit);
  if (!parent) throw GitError(git.dir().string() + ": " + culprit + " has no parent to check it against");
  c.parent = *parent;
  c.changed = git.changed_files(c.parent, culprit);
  const auto mine = lab.kernel_facts(culprit);
  const auto theirs = lab.kernel_facts(c.parent);
  std::vector<std::string> why;
  if (!mine || !theirs) {
    why.push_back(fmt::format("the kernel of {} did not build", (!mine ? culprit : c.parent).substr(0, 12)));
  } else if (mine->text_sha256.empty() || theirs->text_sha256.empty()) {
    why.push_back("a kernel's cache entry has no text hash (built by an older rlab)");
  } else {
    c.no_op = mine->text_sha256 == theirs->text_sha256;
  }
  if (mine && !mine->sources.empty()) {
    for (const auto& f : c.changed)
      if (mine->sources.count(f) || build_file(f)) c.compiled.push_back(f);
    c.unrelated = c.compiled.empty();
  } else if (mine) {
    why.push_back("the culprit's kernel has no source list (built by an older rlab)");
  }
  for (const auto& w : why) c.note += (c.note.empty() ? "" : "; ") + w;
  return c;
}

std::string render_checks(const CulpritChecks& c) {
  std::string o;
  if (!c.no_op) o += "  no-op check: not made (" + c.note + ")\n";
  else if (*c.no_op)
    o += fmt::format("  no-op check: SUSPICIOUS -- the kernel text of {} is byte for byte its parent {}'s: the "
                     "measurement moved, not the code\n", c.culprit.substr(0, 12), c.parent.substr(0, 12));
  else o += fmt::format("  no-op check: passed -- the kernel text differs from its parent {}'s\n", c.parent.substr(0, 12));
  if (!c.unrelated) o += "  unrelated check: not made (" + c.note + ")\n";
  else if (*c.unrelated)
    o += fmt::format("  unrelated check: SUSPICIOUS -- it changes only {}, nothing this kernel compiles or includes\n",
                     c.changed.empty() ? std::string("no file") : list(c.changed));
  else o += fmt::format("  unrelated check: passed -- it changes {} (in this kernel's build)\n", list(c.compiled));
  if (!c.revert) o += "  revert check: not made\n";
  else if (!c.revert->result)
    o += fmt::format("  revert check: not made -- reverting {} does not apply on the bad end: {}\n",
                     c.culprit.substr(0, 12), c.revert->reason);
  else if (c.revert->result == bisection::StepResult::good)
    o += fmt::format("  revert check: passed -- the bad end with it reverted ({}) scores like the good end "
                     "({:+.1f}% against it): the regression goes away; {}\n",
                     c.revert->commit.substr(0, 12), c.revert->change_vs_good * 100, c.revert->reason);
  else if (c.revert->result == bisection::StepResult::bad)
    o += fmt::format("  revert check: SUSPICIOUS -- the bad end with it reverted ({}) still scores like the bad "
                     "end: the regression stays; {}\n", c.revert->commit.substr(0, 12), c.revert->reason);
  else
    o += fmt::format("  revert check: undecided -- the bad end with it reverted ({}): {}\n",
                     c.revert->commit.substr(0, 12), c.revert->reason);
  return o;
}

std::string CulpritChecks::suspicion() const {
  if (no_op.value_or(false)) return "its kernel text equals its parent's";
  if (unrelated.value_or(false)) return "it changes nothing this kernel builds";
  if (revert && revert->result == bisection::StepResult::bad) return "reverting it leaves the regression";
  return "";
}

nlohmann::json checks_json(const CulpritChecks& c) {
  return {{"culprit", c.culprit}, {"parent", c.parent},   {"no_op", opt(c.no_op)}, {"unrelated", opt(c.unrelated)},
          {"changed", c.changed}, {"compiled", c.compiled}, {"note", c.note},       {"suspicious", c.suspicious()},
          {"revert", c.revert ? nlohmann::json{{"commit", c.revert->commit}, {"result", c.revert->result ? std::string(bisection::step_result_name(*c.revert->result))
                                                                                     : std::string(kDoesNotApply)},
                                               {"reason", c.revert->reason},
                                               {"change_vs_good", c.revert->change_vs_good}}
                              : nlohmann::json(nullptr)}};
}

std::optional<CulpritChecks> checks_from_json(const std::string& text) {
  if (text.empty()) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(text);
    CulpritChecks c;
    c.culprit = j.at("culprit");
    c.parent = j.at("parent");
    if (!j.at("no_op").is_null()) c.no_op = j.at("no_op").get<bool>();
    if (!j.at("unrelated").is_null()) c.unrelated = j.at("unrelated").get<bool>();
    c.changed = j.at("changed").get<std::vector<std::string>>();
    c.compiled = j.at("compiled").get<std::vector<std::string>>();
    c.note = j.at("note");
    if (j.contains("revert") && !j.at("revert").is_null()) {  // absent before the revert check
      const auto& r = j.at("revert");
      const std::string result = r.at("result");
      c.revert = RevertCheck{r.at("commit"), std::nullopt, r.at("reason"), r.at("change_vs_good")};
      if (result != kDoesNotApply) c.revert->result = bisection::step_result_from_name(result);
    }
    return c;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace rlab::kernel_bisect

// Comparability (DESIGN "Comparability"): environments must agree outside the axis.
#include "compare/compare.hpp"

#include <algorithm>

namespace rlab::compare {

namespace {

/// The guest clock a `cpu_options` value records: "icount shift=N" or "real time"
/// (vm::cpu_options writes "icount=shift=N,sleep=off" in deterministic mode).
std::string guest_clock(const std::string& cpu_options) {
  const auto at = cpu_options.find("icount=shift=");
  if (at == std::string::npos) return "real time";
  const auto from = at + 7, end = cpu_options.find(',', from);
  return "icount " + cpu_options.substr(from, end == std::string::npos ? end : end - from);
}

}  // namespace

std::string EnvMismatch::message() const {
  auto show = [](const std::string& v) { return v.empty() ? std::string("(empty)") : v; };
  std::string m = "environment field `" + field + "` differs (" + where + "): " + show(first) +
                  " vs " + show(second);
  // Guest seconds of the two clocks are different units: say so in the field's terms.
  if (field == "cpu_options" && guest_clock(first) != guest_clock(second))
    m += " (guest clock: " + guest_clock(first) + " vs " + guest_clock(second) + ")";
  return m;
}

std::optional<EnvMismatch> find_mismatch(const std::vector<const BootData*>& base,
                                         const std::vector<const BootData*>& next,
                                         const std::vector<std::string>& axis_fields) {
  auto within = [](const std::vector<const BootData*>& side,
                   const char* name) -> std::optional<EnvMismatch> {
    for (std::size_t f = 0; f < kEnvFields.size(); ++f)
      for (const BootData* b : side)
        if (b->env[f] != side.front()->env[f])
          return EnvMismatch{std::string(kEnvFields[f]),
                             std::string(name) + " boots, repeat " +
                                 std::to_string(side.front()->repeat) + " vs repeat " +
                                 std::to_string(b->repeat),
                             side.front()->env[f], b->env[f]};
    return std::nullopt;
  };
  if (base.empty() || next.empty()) return std::nullopt;
  if (auto m = within(base, "base")) return m;
  if (auto m = within(next, "new")) return m;
  for (std::size_t f = 0; f < kEnvFields.size(); ++f) {
    const std::string field(kEnvFields[f]);
    if (std::find(axis_fields.begin(), axis_fields.end(), field) != axis_fields.end()) continue;
    if (base.front()->env[f] != next.front()->env[f])
      return EnvMismatch{field, "base vs new", base.front()->env[f], next.front()->env[f]};
  }
  return std::nullopt;
}

}  // namespace rlab::compare

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
    for (const auto field : kEnvFields) {
      const std::string first = store::env_field(side.front()->env, field);
      for (const BootData* b : side)
        if (auto v = store::env_field(b->env, field); v != first)
          return EnvMismatch{std::string(field),
                             std::string(name) + " boots, repeat " +
                                 std::to_string(side.front()->repeat) + " vs repeat " +
                                 std::to_string(b->repeat),
                             first, v};
    }
    return std::nullopt;
  };
  if (base.empty() || next.empty()) return std::nullopt;
  if (auto m = within(base, "base")) return m;
  if (auto m = within(next, "new")) return m;
  for (const auto name : kEnvFields) {
    const std::string field(name);
    if (std::find(axis_fields.begin(), axis_fields.end(), field) != axis_fields.end()) continue;
    const std::string a = store::env_field(base.front()->env, field), b = store::env_field(next.front()->env, field);
    if (a != b) return EnvMismatch{field, "base vs new", a, b};
  }
  return std::nullopt;
}

}  // namespace rlab::compare

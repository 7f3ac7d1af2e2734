// Store: a result's environment by field name, and its columns (kEnvFields; docs/store.md).
#include "store/environment_columns.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>

namespace rlab::store {
namespace {

/// Calls f(name, field) for every field of `e`, in kEnvFields order: the one place the names
/// meet the struct's members.
template <class E, class F>
void each_field(E& e, F&& f) {
  f("host", e.host);
  f("accel", e.accel);
  f("cpu_model", e.cpu_model);
  f("cpu_options", e.cpu_options);
  f("memory_mib", e.memory_mib);
  f("vcpus", e.vcpus);
  f("page_size", e.page_size);
  f("kernel_release", e.kernel_release);
  f("config_sha256", e.config_sha256);
  f("fs", e.fs);
  f("mkfs_options", e.mkfs_options);
  f("mount_options", e.mount_options);
  f("agent_version", e.agent_version);
  f("workload", e.workload);
  f("copies", e.copies);
  f("passes", e.passes);
  f("duration_s", e.duration_s);
  f("locale", e.locale);
  f("layout", e.layout);
  f("input", e.input);
  f("drop_caches", e.drop_caches);
  f("runner", e.runner);
  f("disk", e.disk);
  f("attribution", e.attribution);
  f("sample_interval_s", e.sample_interval_s);
}

std::string as_text(const std::string& v) { return v; }
std::string as_text(unsigned v) { return std::to_string(v); }
std::string as_text(bool v) { return v ? "1" : "0"; }
/// As SQLite writes a REAL ("%!.15g"): always with a decimal point, "20.0", "1.0e-05".
std::string as_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  std::string s = buf;
  if (s.find_first_of(".ni") != std::string::npos) return s;  // a fraction, nan, inf
  const auto e = s.find('e');
  return e == std::string::npos ? s + ".0" : s.insert(e, ".0");
}

void read_column(const detail::Stmt& st, int col, std::string& v) { v = st.text(col); }
void read_column(const detail::Stmt& st, int col, unsigned& v) { v = static_cast<unsigned>(st.i64(col)); }
void read_column(const detail::Stmt& st, int col, bool& v) { v = st.i64(col) != 0; }
void read_column(const detail::Stmt& st, int col, double& v) { v = st.real(col); }

void bind_value(detail::Stmt& st, int i, const std::string& v) { st.bind(i, v); }
void bind_value(detail::Stmt& st, int i, unsigned v) { st.bind(i, static_cast<std::int64_t>(v)); }
void bind_value(detail::Stmt& st, int i, bool v) { st.bind(i, static_cast<std::int64_t>(v)); }
void bind_value(detail::Stmt& st, int i, double v) { st.bind(i, v); }

}  // namespace

std::string env_field(const Environment& e, std::string_view name) {
  std::optional<std::string> out;
  each_field(e, [&](std::string_view n, const auto& v) {
    if (n == name) out = as_text(v);
  });
  if (!out) throw std::out_of_range("no environment field '" + std::string(name) + "'");
  return *out;
}

namespace detail {

std::string env_columns(std::string_view alias) {
  std::string out;
  const Environment e;
  each_field(e, [&](std::string_view name, const auto&) {
    out += fmt::format("{}{}{}env_{}", out.empty() ? "" : ", ", alias, alias.empty() ? "" : ".", name);
  });
  return out;
}

std::string env_column_names() { return env_columns(""); }

Environment read_env(const Stmt& st, int first) {
  Environment e;
  int col = first;
  each_field(e, [&](std::string_view, auto& v) { read_column(st, col++, v); });
  return e;
}

void bind_env(Stmt& st, int first, const Environment& e) {
  int i = first;
  each_field(e, [&](std::string_view, const auto& v) { bind_value(st, i++, v); });
}

}  // namespace detail
}  // namespace rlab::store

// Store: the agent's samples with the host side of each sample's interval (docs/store.md).
#include "store/sqlite.hpp"
#include "store/store.hpp"

namespace rlab::store {

using detail::Stmt;
using Lock = std::lock_guard<std::mutex>;

namespace {
std::optional<double> opt_real(const Stmt& st, int col) {
  return st.is_null(col) ? std::nullopt : std::optional<double>(st.real(col));
}
void bind_opt(Stmt& st, int i, const std::optional<double>& v) {
  if (v) st.bind(i, *v);
  else st.bind_null(i);
}
}  // namespace

void Store::record_sample(BootId boot, const Sample& s) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT INTO samples (boot_id, pass, t_s, loops, failures, counters_json,"
          " host_s, host_busy, host_steal, host_mhz, vcpu_share) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
  st.bind(1, boot).bind(2, static_cast<std::int64_t>(s.pass)).bind(3, s.t_s)
      .bind(4, static_cast<std::int64_t>(s.loops)).bind(5, static_cast<std::int64_t>(s.failures))
      .bind(6, s.counters_json);
  bind_opt(st, 7, s.host_s);
  bind_opt(st, 8, s.host_busy);
  bind_opt(st, 9, s.host_steal);
  bind_opt(st, 10, s.host_mhz);
  bind_opt(st, 11, s.vcpu_share);
  st.run();
}

std::vector<Sample> Store::samples(BootId boot) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT pass, t_s, loops, failures, counters_json, host_s, host_busy, host_steal,"
          " host_mhz, vcpu_share FROM samples WHERE boot_id = ? ORDER BY pass, t_s, id");
  st.bind(1, boot);
  std::vector<Sample> out;
  while (st.step()) {
    Sample s;
    s.pass = static_cast<unsigned>(st.i64(0));
    s.t_s = st.real(1);
    s.loops = static_cast<std::uint64_t>(st.i64(2));
    s.failures = static_cast<std::uint64_t>(st.i64(3));
    s.counters_json = st.text(4);
    s.host_s = opt_real(st, 5);
    s.host_busy = opt_real(st, 6);
    s.host_steal = opt_real(st, 7);
    s.host_mhz = opt_real(st, 8);
    s.vcpu_share = opt_real(st, 9);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace rlab::store

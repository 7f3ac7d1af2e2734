// Store: the agent's samples with the host side of each sample's interval (docs/store.md).
#include "store/sqlite.hpp"
#include "store/store.hpp"

namespace rlab::store {

using detail::Lock;
using detail::Stmt;

void Store::record_sample(BootId boot, const Sample& s) {
  Lock l(mu_);
  Stmt st(db_,
          "INSERT INTO samples (boot_id, pass, t_s, loops, failures, counters_json,"
          " host_s, host_busy, host_steal, host_mhz, vcpu_share) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
  st.binds(boot, s.pass, s.t_s, s.loops, s.failures, s.counters_json, s.host_s, s.host_busy,
           s.host_steal, s.host_mhz, s.vcpu_share).run();
}

std::vector<Sample> Store::samples(BootId boot) const {
  Lock l(mu_);
  Stmt st(db_,
          "SELECT pass, t_s, loops, failures, counters_json, host_s, host_busy, host_steal,"
          " host_mhz, vcpu_share FROM samples WHERE boot_id = ? ORDER BY pass, t_s, id");
  return st.bind(1, boot).rows<Sample>([](const Stmt& row) {
    Sample s;
    row.columns(0, s.pass, s.t_s, s.loops, s.failures, s.counters_json, s.host_s, s.host_busy,
                s.host_steal, s.host_mhz, s.vcpu_share);
    return s;
  });
}

Thinning Store::thin(const std::string& before_iso) {
  Lock l(mu_);
  Thinning out;
  {
    detail::Tx tx(db_);
    Stmt runs(db_,
              "SELECT id FROM runs WHERE status <> 'running' AND finished_at IS NOT NULL"
              " AND finished_at < ? ORDER BY id");
    runs.bind(1, before_iso);
    while (runs.step()) out.old_runs.push_back(runs.i64(0));
    Stmt del(db_,
             "DELETE FROM samples WHERE boot_id IN (SELECT b.id FROM boots b JOIN cells c ON"
             " c.id = b.cell_id JOIN runs r ON r.id = c.run_id WHERE r.status <> 'running'"
             " AND r.finished_at IS NOT NULL AND r.finished_at < ?)");
    del.bind(1, before_iso).run();
    out.samples_deleted = static_cast<std::uint64_t>(sqlite3_changes(db_));
    tx.commit();
  }
  // VACUUM when rows went now, or when an earlier VACUUM failed and left 8 MiB or more free.
  auto pragma = [&](const char* sql) {
    Stmt st(db_, sql);
    return st.step() ? st.i64(0) : 0;
  };
  const bool free_space = pragma("PRAGMA freelist_count") * pragma("PRAGMA page_size") >= (8 << 20);
  if (out.samples_deleted == 0 && !free_space) return out;
  // In WAL mode VACUUM writes the new file into the WAL; the checkpoint moves it back and
  // truncates the WAL, so both files end small.
  if (sqlite3_exec(db_, "VACUUM; PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr) == SQLITE_OK)
    out.vacuumed = true;
  else
    out.vacuum_error = sqlite3_errmsg(db_);
  return out;
}

}  // namespace rlab::store

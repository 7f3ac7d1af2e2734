#include "run/owner.hpp"

#include "run/run.hpp"
#include "util/usage_error.hpp"
#include "vm/domain_xml.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

namespace rlab::run {
namespace fs = std::filesystem;

namespace {

std::string this_host() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

}  // namespace

fs::path run_lock_path(const fs::path& db, store::RunId run) {
  return fs::path(db.string() + ".locks") / fmt::format("run-{}.lock", run);
}

util::FileLock own_run(const fs::path& db, store::RunId run) {
  auto lock = util::FileLock::try_lock(run_lock_path(db, run));
  if (!lock)
    throw UsageError(fmt::format("{}: run {} is being run by another rlab process (it holds {})",
                                 db.string(), run, run_lock_path(db, run).string()));
  return std::move(*lock);
}

Swept sweep_dead_runs(store::Store& st, const std::vector<LabHost*>& hosts) {
  Swept out;
  const std::string host = this_host();
  for (const auto& r : st.runs()) {
    if (r.status != store::RunStatus::running || r.hostname != host) continue;
    auto lock = util::FileLock::try_lock(run_lock_path(st.path(), r.id));
    if (!lock) continue;  // its owner is alive
    const std::string prefix = vm::domain_name(run_label(r.id, st.path()), "") + "-";
    for (auto* h : hosts) {
      try {
        for (const auto& name : h->conn->active_domains(prefix)) {
          spdlog::warn("run {} died with guest {} running on {}: destroying it", r.id, name, h->uri());
          if (h->conn->destroy_by_name(name)) ++out.domains;
        }
      } catch (const vm::LibvirtError& e) {
        spdlog::warn("cannot check {} for guests of dead run {}: {}", h->uri(), r.id, e.what());
      }
      if (!h->files) continue;  // its pool is unusable: nothing of ours can be there
      if (const auto n = h->files->sweep(prefix))
        spdlog::warn("run {}: removed {} volumes it left on {}", r.id, n, h->uri());
    }
    remove_staged_images(st.path(), r.id);  // `--resume` stages them again
    st.finish_run(r.id, store::RunStatus::interrupted);
    out.runs.push_back(r.id);
  }
  return out;
}

}  // namespace rlab::run

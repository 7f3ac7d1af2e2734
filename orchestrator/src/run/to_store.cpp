// Protocol messages as store rows (to_store.hpp).
#include "run/to_store.hpp"

#include "rlab/protocol/json.hpp"

#include <nlohmann/json.hpp>

namespace rlab::run {

using nlohmann::json;

store::Hello to_store(const protocol::Hello& hello) {
  store::Hello h;
  h.page_size = static_cast<unsigned>(hello.page_size);
  h.nr_cpus = hello.nr_cpus;
  h.kernel_release = hello.kernel_release;
  h.agent_version = hello.agent_version;
  h.mem_total_kib = hello.mem_total_kib;
  h.tracepoints_json = json(hello.tracepoints).dump();
  h.init_s = hello.init_uptime_s;
  h.agent_s = hello.agent_uptime_s;
  h.hello_s = hello.uptime_s;
  return h;
}

store::Sample to_store(const protocol::Sample& s) {
  store::Sample row;
  row.pass = s.pass;
  row.t_s = s.t_s;
  row.loops = s.loops;
  row.failures = s.failures;
  row.counters_json = json(s.counters).dump();
  return row;
}

store::Pass to_store(const protocol::PassReport& p) {
  store::Pass row;
  row.index = p.pass;
  row.loops = p.loops;
  row.failures = p.failures;
  row.duration_s = p.duration_s;
  row.window_s = p.window_s;
  row.lpm = p.lpm;
  row.latency_json = json(p.latency).dump();
  row.counters_json = json(p.counters).dump();
  if (p.placement) {
    row.inode_ags = p.placement->ags;
    row.agcount = p.placement->agcount;
    row.inodes_seen = p.placement->inodes;
  }
  if (p.attribution) row.attribution_json = json(*p.attribution).dump();
  return row;
}

store::Result to_store(const protocol::Result& result, double score) {
  store::Result r;
  r.score = score;
  r.failures = result.failures;
  r.failure_examples_json = json(result.failure_examples).dump();
  return r;
}

}  // namespace rlab::run

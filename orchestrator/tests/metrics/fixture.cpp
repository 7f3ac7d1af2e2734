// Realistic store contents for the metrics tests (see fixture.hpp).
#include "fixture.hpp"

#include "util/hash.hpp"
#include "util/paths.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace rlab::metrics::test {

std::vector<matrix::Cell> cells(const std::vector<std::string>& kernels) {
  std::vector<matrix::Cell> out;
  for (const auto& k : kernels) {
    build::KernelSpec spec;
    spec.name = k;
    spec.source.debian_version = "6.12";
    spec.source.debian_suite = "trixie";
    spec.page_size_kib = 64;
    if (auto plus = k.find('+'); plus != std::string::npos) spec.patchset = k.substr(plus + 1);
    matrix::Filesystem xfs{matrix::Fs::kXfs, {"-d", "agcount=4"}, "", "agcount=4"};
    matrix::Filesystem ext4{matrix::Fs::kExt4, {}, "", "defaults"};
    for (const auto& fs : {xfs, ext4}) {
      for (unsigned v : {1u, 2u}) {
        matrix::Cell c;
        c.kernel = spec;
        c.filesystem = fs;
        c.vcpus = v;
        c.workload = {"shell1", "shell1", 1, std::nullopt, 3, 30.0};
        c.copies = v;
        c.page_size = 65536;
        c.id = k + "/" + fs.id() + "/" + std::to_string(v) + "vcpu/shell1";
        out.push_back(c);
      }
    }
  }
  return out;
}

double fill_boot(store::Store& st, store::BootId boot, const matrix::Cell& cell,
                 const std::string& commit, std::uint64_t seed, const std::string& host_uri) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(1.0, 0.11);
  st.start_boot(boot, host_uri, "rlab-" + std::to_string(boot), "/tmp/console.log");
  store::KernelIdentity k;
  k.kernel_key = std::string(64, 'a' + static_cast<char>(cell.kernel.name.size() % 20));
  k.kernel_key.replace(0, commit.size(), commit);
  k.name = cell.kernel.name;
  k.kernel_release = "6.12.9-rlab-64k";
  k.source_commit = commit;
  k.config_sha256 = std::string(64, 'c');
  k.page_size_kib = 64;
  k.patchset = cell.kernel.patchset;
  st.record_images(boot, k, "image-" + commit);
  store::Hello h;
  h.page_size = 65536;
  h.nr_cpus = cell.vcpus;
  h.kernel_release = k.kernel_release;
  h.agent_version = "0.1.0";
  h.mem_total_kib = 2 * 1024 * 1024;
  h.tracepoints_json =
      R"(["xfs:xfs_inodegc_queue","xfs:xfs_inodegc_worker","xfs:xfs_inodegc_throttle",)"
      R"("xfs:xfs_inodegc_flush","xfs:xfs_inodegc_push","xfs:xfs_inode_set_need_inactive"])";
  st.record_hello(boot, h);
  // Domain start -> hello: ~4-6 s under TCG, a little more with more vCPUs (docs/benchmarks.md).
  st.record_boot_seconds(boot, 3.5 + 0.8 * cell.vcpus + std::uniform_real_distribution<double>(0, 1.5)(rng));

  const double per_vcpu = cell.vcpus == 1 ? 145.0 : 135.0;
  const bool xfs = cell.filesystem.fs == matrix::Fs::kXfs;
  std::vector<double> lpms;
  for (unsigned p = 0; p < cell.workload.passes; ++p) {
    const double lpm = per_vcpu * cell.vcpus * noise(rng);
    const double dur = cell.workload.duration_s + 0.05 * p;
    const auto loops = static_cast<std::uint64_t>(std::llround(lpm * dur / 60.0));
    store::Pass pass;
    pass.index = p;
    pass.loops = loops;
    pass.duration_s = dur;
    pass.lpm = static_cast<double>(loops) * 60.0 / dur;
    lpms.push_back(pass.lpm);
    // Loop latency: copies loopers share the window, so one loop takes ~copies*60/lpm s.
    const double mean = cell.copies * 60.0 / pass.lpm;
    nlohmann::json lat{{"bounds_s", {0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0}}};
    std::vector<std::uint64_t> counts(9, 0);
    std::lognormal_distribution<double> one(std::log(mean), 0.25);
    double sum = 0;
    const std::vector<double> bounds = lat["bounds_s"];
    for (std::uint64_t i = 0; i < loops; ++i) {
      double d = one(rng);
      sum += d;
      std::size_t b = 0;
      while (b < bounds.size() && d > bounds[b]) ++b;
      ++counts[b];
    }
    lat["counts"] = counts;
    lat["sum_s"] = sum;
    lat["max_s"] = sum > 0 ? mean * 2 : 0;
    pass.latency_json = lat.dump();
    nlohmann::json ctr{{"cpu", {{"user", 1200 * cell.vcpus}, {"system", 900 * cell.vcpus}, {"idle", 30}}},
                       {"ctxt", 52000 * loops / 100},
                       {"forks", 31 * loops}};
    if (xfs) {
      const std::uint64_t inodes = 4 * loops;  // sort, od, grep, wc temporaries per loop
      ctr["tracepoints"] = {{"xfs:xfs_inodegc_queue", inodes},
                            {"xfs:xfs_inodegc_worker", inodes / 40 + 3},
                            {"xfs:xfs_inodegc_throttle", inodes / 500 + cell.vcpus},
                            {"xfs:xfs_inodegc_flush", loops / 10 + 1},
                            {"xfs:xfs_inodegc_push", loops / 25 + 1},
                            {"xfs:xfs_inode_set_need_inactive", inodes}};
      ctr["xfs_stats"] = {{"dir.0", 12 * loops}, {"dir.1", inodes}, {"dir.2", inodes},
                          {"trans.1", 9 * loops}, {"ig.0", 3 * loops}, {"ig.3", inodes},
                          {"log.0", loops / 3}, {"vnodes.1", inodes}, {"vnodes.5", inodes},
                          {"vnodes.7", inodes}, {"extent_alloc.0", inodes}};
    }
    pass.counters_json = ctr.dump();
    st.record_pass(boot, pass);
  }
  // UnixBench aggregation: drop the worst int(passes/3), geometric mean of the rest.
  std::sort(lpms.begin(), lpms.end());
  double logsum = 0;
  const std::size_t drop = lpms.size() / 3;
  for (std::size_t i = drop; i < lpms.size(); ++i) logsum += std::log(lpms[i]);
  store::Result r;
  r.score = std::exp(logsum / static_cast<double>(lpms.size() - drop));
  store::Environment env;
  env.host = host_uri;
  env.accel = "tcg";
  env.cpu_model = "max";
  env.cpu_options = "pauth-impdef=on";
  env.memory_mib = 2048;
  env.vcpus = cell.vcpus;
  env.page_size = 65536;
  env.kernel_release = k.kernel_release;
  env.config_sha256 = k.config_sha256;
  env.fs = matrix::to_string(cell.filesystem.fs);
  env.mkfs_options = nlohmann::json(cell.filesystem.mkfs_options).dump();
  env.agent_version = "0.1.0";
  env.workload = cell.workload.kind;
  env.copies = cell.copies;
  env.passes = cell.workload.passes;
  env.duration_s = cell.workload.duration_s;
  st.record_result(boot, r, env);
  return r.score;
}

store::RunId fill_run(store::Store& st, const RunShape& shape) {
  store::NewRun nr;
  nr.matrix_path = "matrix.yaml";
  nr.matrix_text = "# test matrix\n";
  nr.seed = shape.seed;
  nr.kind = shape.kind;
  const auto run = st.create_run(nr);
  st.add_cells(run, matrix::cell_rows(shape.cells), shape.repeats);
  std::uint64_t seed = shape.seed * 1000;
  for (std::size_t i = 0; i < shape.cells.size(); ++i) {
    const auto& c = shape.cells[i];
    const std::string commit = "4f1c2d3e" + shape.commit_suffix + std::to_string(c.kernel.name.size());
    for (unsigned r = 0; r < shape.repeats; ++r) {
      const auto boot = st.boot_id(run, c.id, r);
      if (shape.fail_one && i + 1 == shape.cells.size() && r == 0) {
        st.start_boot(boot, shape.host_uri, "rlab-fail", "/tmp/console.log");
        st.record_failure(boot, rlab::store::FailurePhase::hello, "no hello from the agent within 300 s",
                          "[    2.1] Run /init as init process\n");
        continue;
      }
      fill_boot(st, boot, c, commit, ++seed, shape.host_uri);
    }
  }
  if (shape.finish) st.finish_run(run, shape.fail_one ? rlab::store::RunStatus::failed : rlab::store::RunStatus::done);
  return run;
}

std::unique_ptr<store::Store> load_recorded(const std::filesystem::path& db) {
  ::rlab::test::sql_exec(db, util::read_file(std::filesystem::path(RLAB_TEST_DATA) / "real-run.sql"));
  return store::Store::open(db);
}

std::vector<matrix::Cell> recorded_cells() {
  return matrix::expand_cells(matrix::load_matrix(std::filesystem::path(RLAB_TEST_DATA) / "real-run.yaml"));
}

store::RunId replay_run(store::Store& st, store::RunId from, const std::string& commit) {
  const auto db = st.path();
  const auto info = st.run(from);
  if (!info) throw std::runtime_error("replay_run: no run " + std::to_string(from));
  const auto m = matrix::parse_matrix(info->matrix_text, RLAB_TEST_DATA "/replayed.yaml");
  const auto run = st.create_run({info->matrix_path, info->matrix_text, info->seed + 1, info->kind, "replay"});
  const auto cells = matrix::expand_cells(m);
  st.add_cells(run, matrix::cell_rows(cells), 1);
  auto one = [&](const std::string& sql) {
    auto v = sql_column(db, sql);
    if (v.size() != 1) throw std::runtime_error("replay_run: " + sql + ": " + std::to_string(v.size()) + " rows");
    return v[0];
  };
  for (const auto& c : cells) {
    const std::string b = one(fmt::format(
        "SELECT b.id FROM boots b JOIN cells c ON c.id = b.cell_id JOIN results r ON r.boot_id = b.id"
        " WHERE c.run_id = {} AND c.cell_key = '{}' AND b.status = 'done'"
        " ORDER BY r.recorded_at DESC LIMIT 1", from, c.id));
    auto col = [&](const char* expr, const char* from_where) {
      return one(fmt::format("SELECT {} FROM {} WHERE {} = {}", expr, from_where,
                             std::string(from_where) == "results" ? "boot_id" : "id", b));
    };
    const std::string uri = col("host_uri", "boots");
    const std::string host = one(fmt::format("SELECT r.hostname FROM runs r WHERE r.id = {}", from));
    const std::string replay_uri = uri.find("://") != std::string::npos && uri.find(":///") == std::string::npos
                                       ? uri : "qemu+ssh://" + host + "/system";
    const auto boot = st.boot_id(run, c.id, 0);
    st.start_boot(boot, replay_uri, "rlab-replay", "/dev/null");
    store::KernelIdentity k;
    k.kernel_key = util::sha256_hex(col("kernel_key", "boots") + commit);
    k.name = c.kernel.name;
    k.kernel_release = col("guest_kernel_release", "boots");
    k.source_commit = commit;
    k.config_sha256 = std::string(64, 'c');
    k.page_size_kib = c.page_size / 1024;
    k.patchset = c.kernel.patchset;
    st.record_images(boot, k, col("image_key", "boots"));
    store::Hello h;
    h.page_size = static_cast<unsigned>(std::stoul(col("guest_page_size", "boots")));
    h.nr_cpus = static_cast<unsigned>(std::stoul(col("guest_nr_cpus", "boots")));
    h.kernel_release = k.kernel_release;
    h.agent_version = col("agent_version", "boots");
    h.mem_total_kib = std::stoull(col("guest_mem_total_kib", "boots"));
    h.tracepoints_json = col("guest_tracepoints", "boots");
    st.record_hello(boot, h);
    st.record_boot_seconds(boot, std::stod(col("boot_s", "boots")));
    const auto passes = sql_column(db, fmt::format(
        "SELECT json_array(pass, loops, failures, duration_s, lpm, latency_json, counters_json)"
        " FROM passes WHERE boot_id = {} ORDER BY pass", b));
    for (const auto& row : passes) {
      const auto j = nlohmann::json::parse(row);
      store::Pass p;
      p.index = j[0];
      p.loops = j[1];
      p.failures = j[2];
      p.duration_s = j[3];
      p.lpm = j[4];
      p.latency_json = j[5];
      p.counters_json = j[6];
      st.record_pass(boot, p);
    }
    store::Result r;
    r.score = std::stod(col("score", "results"));
    store::Environment env;
    env.host = replay_uri;
    env.vcpus = c.vcpus;
    env.page_size = h.page_size;
    env.fs = matrix::to_string(c.filesystem.fs);
    st.record_result(boot, r, env);
  }
  st.finish_run(run, rlab::store::RunStatus::done);
  return run;
}

}  // namespace rlab::metrics::test

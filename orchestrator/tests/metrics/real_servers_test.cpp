// Against the real servers: Debian's prometheus and prometheus-pushgateway and `rlab serve`,
// on free loopback ports with temporary storage, over the store recorded from real runs
// (data/real-run.sql, data/README.md). Later nights, a second kind of run and a run in
// progress are added on top through the Store API where a test needs them.
#include "fixture.hpp"
#include "metrics/live.hpp"
#include "metrics/push.hpp"
#include "servers.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <thread>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class RealMetricsServers : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("rlab-metrics-real-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    store_ = test::load_recorded(dir_ / "rlab.db").release();
    // The recorded matrix run (the run with the most cells; the other one is the bad-mkfs run).
    run_ = std::stoll(sql("SELECT run_id FROM cells GROUP BY run_id ORDER BY count(*) DESC LIMIT 1").at(0));
    ASSERT_EQ(store_->run(run_)->status, rlab::store::RunStatus::done) << "the recorded matrix run must have finished every boot";
    last_recorded_ = *store_->latest_run();

    gateway_port_ = test::free_port();
    // Debian's pushgateway persists to /var/lib/prometheus/pushgateway.data by default: the
    // test's gateway keeps its own file, so it neither sees earlier runs' groups nor writes
    // into the machine's gateway state.
    gateway_ = new test::Daemon({"prometheus-pushgateway",
                                 fmt::format("--web.listen-address=127.0.0.1:{}", gateway_port_),
                                 "--persistence.file=" + (dir_ / "pushgateway.data").string()},
                                dir_ / "pushgateway.log");
    gateway_->wait_ready(fmt::format("http://127.0.0.1:{}/-/ready", gateway_port_));

    const char* bin = std::getenv("RLAB_BIN");
    ASSERT_NE(bin, nullptr) << "RLAB_BIN (the rlab binary) is not set";
    serve_port_ = test::free_port();
    serve_ = new test::Daemon({bin, "serve", "--listen", fmt::format("127.0.0.1:{}", serve_port_),
                               "--db", (dir_ / "rlab.db").string()},
                              dir_ / "serve.log");
    serve_->wait_ready(serve_url());

    prom_ = new test::Prometheus(dir_ / "prometheus",
                                 {{"rlab-serve", fmt::format("127.0.0.1:{}", serve_port_)},
                                  {"pushgateway", fmt::format("127.0.0.1:{}", gateway_port_)}});
  }
  static void TearDownTestSuite() {
    delete prom_;
    delete serve_;
    delete gateway_;
    delete store_;
    fs::remove_all(dir_);
  }

  static std::string serve_url() { return fmt::format("http://127.0.0.1:{}/metrics", serve_port_); }
  static std::string gateway_url() { return fmt::format("http://127.0.0.1:{}", gateway_port_); }

  static std::vector<std::string> sql(const std::string& q) { return test::sql_column(dir_ / "rlab.db", q); }
  static double sql_num(const std::string& q) { return std::stod(sql(q).at(0)); }
  // The cells' labels as the recorded store gives them (host: the recording machine's name).
  static CellLabels labels_of(const matrix::Cell& c) {
    auto l = cell_labels(c, "qemu:///system");
    l.host = sql("SELECT hostname FROM runs ORDER BY id LIMIT 1").at(0);
    return l;
  }
  // The process-level metrics a real run and bisect would have observed.
  static LiveMetrics& live() {
    static LiveMetrics m = [] {
      LiveMetrics l;
      l.build_cache_lookup("kernel", false);
      l.build_cache_lookup("kernel", true);
      l.build_cache_lookup("initramfs", true);
      l.observe_kernel_build("6.12", 612.0);
      auto cell = labels_of(test::recorded_cells().front());
      l.bisect_started(cell, 15);
      l.bisect_step(cell, BisectVerdict::kGood, 7);
      l.bisect_step(cell, BisectVerdict::kSkip, 7);
      l.bisect_step(cell, BisectVerdict::kBad, 3);
      return l;
    }();
    return m;
  }
  // The Pushgateway's own exposition lines starting with `prefix` (failure diagnostics).
  static std::string gateway_lines(const std::string& prefix) {
    std::string out;
    std::istringstream in(test::http_get(gateway_url() + "/metrics").body);
    for (std::string line; std::getline(in, line);)
      if (line.rfind(prefix, 0) == 0) out += line + "\n";
    return out;
  }
  static double num(const nlohmann::json& sample) { return std::stod(sample["value"][1].get<std::string>()); }

  static fs::path dir_;
  static store::Store* store_;
  static store::RunId run_;
  static store::RunId last_recorded_;  ///< the newest run of the recorded store
  static int gateway_port_, serve_port_;
  static test::Daemon* gateway_;
  static test::Daemon* serve_;
  static test::Prometheus* prom_;
};
fs::path RealMetricsServers::dir_;
store::Store* RealMetricsServers::store_ = nullptr;
store::RunId RealMetricsServers::run_ = 0;
store::RunId RealMetricsServers::last_recorded_ = 0;
int RealMetricsServers::gateway_port_ = 0;
int RealMetricsServers::serve_port_ = 0;
test::Daemon* RealMetricsServers::gateway_ = nullptr;
test::Daemon* RealMetricsServers::serve_ = nullptr;
test::Prometheus* RealMetricsServers::prom_ = nullptr;

TEST_F(RealMetricsServers, PromtoolChecksServeAndLiveMetrics) {
  auto reply = test::http_get(serve_url());
  ASSERT_EQ(reply.status, 200);
  ASSERT_NE(reply.body.find("rlab_cell_score_lpm{"), std::string::npos);
  ASSERT_NE(reply.body.find("rlab_store_up 1"), std::string::npos);
  ASSERT_NE(reply.body.find("rlab_guest_boot_seconds_bucket{"), std::string::npos);
  util::ProcessOptions o;
  o.stdin_data = reply.body;
  auto check = util::run({"promtool", "check", "metrics"}, o);
  EXPECT_TRUE(check.ok()) << check.output;
  EXPECT_EQ(check.output, "") << check.output;

  o.stdin_data = prometheus::TextSerializer().Serialize(live().registry()->Collect());
  ASSERT_NE(o.stdin_data.find("rlab_bisect_steps_total{"), std::string::npos);
  check = util::run({"promtool", "check", "metrics"}, o);
  EXPECT_TRUE(check.ok()) << check.output;
  EXPECT_EQ(check.output, "") << check.output;
}

TEST_F(RealMetricsServers, PrometheusScrapesServeAndSeesTheStoresLatestResults) {
  const auto cells = test::recorded_cells();
  ASSERT_EQ(cells.size(), 8u);
  auto r = prom_->wait_for("count(rlab_cell_score_lpm{job=\"rlab-serve\"}) == 8");
  ASSERT_EQ(r.size(), 1u) << "8 cells never appeared";
  for (const auto& c : cells) {  // every cell's score is its newest stored result
    const double stored = sql_num("SELECT score FROM latest_cell_results WHERE cell_key = '" + c.id + "'");
    r = prom_->wait_for(fmt::format("rlab_cell_score_lpm{{job=\"rlab-serve\", kernel=\"{}\", fs=\"{}\", vcpus=\"{}\"}}",
                                 c.kernel.name, matrix::to_string(c.filesystem.fs), c.vcpus));
    ASSERT_EQ(r.size(), 1u) << c.id;
    EXPECT_NEAR(num(r[0]), stored, 1e-6) << c.id;
  }
  r = prom_->wait_for("rlab_kernel_info{job=\"rlab-serve\", kernel=\"6.12\"}");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["metric"]["commit"], sql("SELECT source_commit FROM latest_cell_results WHERE kernel = '6.12'"
                                          " ORDER BY recorded_at DESC LIMIT 1").at(0));
  // The recorded bad-mkfs boot: failed after its hello, so it has boot seconds too.
  const double failed = sql_num("SELECT count(*) FROM boots WHERE status = 'failed'");
  ASSERT_GE(failed, 1);
  r = prom_->wait_for("sum(rlab_cells_total{job=\"rlab-serve\", status=\"failed\"})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), failed);
  const std::string with_hello = " FROM boots WHERE boot_s IS NOT NULL AND status IN ('done', 'failed')";
  r = prom_->wait_for("sum(rlab_guest_boot_seconds_count{job=\"rlab-serve\"})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), sql_num("SELECT count(*)" + with_hello));
  r = prom_->wait_for("sum(rlab_guest_boot_seconds_sum{job=\"rlab-serve\"})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_NEAR(num(r[0]), sql_num("SELECT sum(boot_s)" + with_hello), 1e-6);
}

TEST_F(RealMetricsServers, PushReadsBackThroughPrometheusAndRunsDoNotEraseEachOther) {
  auto out = push_run(*store_, run_, gateway_url(), &live());
  ASSERT_TRUE(out.ok()) << fmt::format("{}", fmt::join(out.errors, "\n"));
  EXPECT_EQ(out.groups_pushed, 9u);  // 8 cells + the run's group
  const double pushed_at = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();

  const auto cell = test::recorded_cells().front();
  auto r = prom_->wait_for("rlab_cell_score_lpm{job=\"rlab\", cell=\"" + cell.id + "\"}");
  ASSERT_EQ(r.size(), 1u);
  const double stored = sql_num(fmt::format(
      "SELECT score FROM boot_results WHERE run_id = {} AND cell_key = '{}' AND score IS NOT NULL"
      " ORDER BY recorded_at DESC LIMIT 1", run_, cell.id));
  EXPECT_NEAR(num(r[0]), stored, 1e-6);
  EXPECT_EQ(r[0]["metric"]["instance"], local_hostname());
  r = prom_->wait_for("rlab_run_last_success_timestamp_seconds{job=\"rlab\", kind=\"matrix\"}");
  ASSERT_EQ(r.size(), 1u) << gateway_lines("rlab_run");
  EXPECT_NEAR(num(r[0]), pushed_at, 30);
  r = prom_->wait_for("rlab_bisect_revisions_left{job=\"rlab\"}");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), 3);
  // Score series of the per-cell groups (kind="": not series of the run's group).
  r = prom_->wait_for("count(rlab_cell_score_lpm{job=\"rlab\", kind=\"\"})");
  ASSERT_EQ(r.size(), 1u);
  const double before = num(r[0]);
  EXPECT_EQ(before, static_cast<double>(test::recorded_cells().size()));

  // Another run with other cells (a nightly of a newer kernel) keeps the first run's cells.
  test::RunShape nightly;
  nightly.kind = "nightly";
  nightly.cells = test::cells({"6.13"});
  nightly.fail_one = false;
  nightly.seed = 9;
  const auto other = test::fill_run(*store_, nightly);
  out = push_run(*store_, other, gateway_url());
  ASSERT_TRUE(out.ok()) << fmt::format("{}", fmt::join(out.errors, "\n"));
  EXPECT_EQ(out.groups_pushed, 5u);
  // The nightly's cells arrive, and every series of the first push is still there.
  r = prom_->wait_for(fmt::format("count(rlab_cell_score_lpm{{job=\"rlab\", kernel=\"6.13\"}}) == {}",
                                  nightly.cells.size()));
  ASSERT_EQ(r.size(), 1u) << prom_->query("rlab_cell_score_lpm{job=\"rlab\"}").dump();
  r = prom_->wait_for("count(rlab_cell_score_lpm{job=\"rlab\", kind=\"\", kernel!=\"6.13\"})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), before) << "the second push erased some of the first run's cells";
  r = prom_->wait_for("count(rlab_cell_score_lpm{job=\"rlab\", kind=\"\"})");
  ASSERT_EQ(r.size(), 1u);
  const double expected = num(r[0]);
  EXPECT_EQ(expected, before + static_cast<double>(nightly.cells.size()));
  r = prom_->wait_for("rlab_run_last_success_timestamp_seconds{job=\"rlab\", kind=\"nightly\"}");
  EXPECT_EQ(r.size(), 1u);
  r = prom_->wait_for("rlab_run_last_success_timestamp_seconds{job=\"rlab\", kind=\"matrix\"}");
  EXPECT_EQ(r.size(), 1u);

  // Pushing the same run again replaces its groups: no new series.
  const double repushed_at = std::floor(
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
  out = push_run(*store_, run_, gateway_url(), &live());
  ASSERT_TRUE(out.ok());
  std::this_thread::sleep_for(3s);
  r = prom_->wait_for("count(rlab_cell_score_lpm{job=\"rlab\", kind=\"\"})");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), expected);

  // A later matrix run whose only boot of a cell failed: the cell keeps its pushed result
  // (POST of rlab_cells_total only) and the kind keeps its last success time.
  // The success time the re-push set, once Prometheus has scraped it (a scrape can fail on a
  // loaded machine: its timeout is the 1 s interval).
  const auto success = prom_->wait_for(fmt::format(
      "rlab_run_last_success_timestamp_seconds{{job=\"rlab\", kind=\"matrix\"}} >= {}", repushed_at));
  ASSERT_EQ(success.size(), 1u);
  store::NewRun nr{"matrix.yaml", "", 11, "matrix", ""};
  const auto failed_run = store_->create_run(nr);
  store_->add_cells(failed_run, matrix::cell_rows({cell}), 1);
  const auto boot = store_->boot_id(failed_run, cell.id, 0);
  store_->start_boot(boot, "qemu:///system", "rlab-x", "/tmp/console");
  store_->record_failure(boot, rlab::store::FailurePhase::boot, "guest did not boot", "");
  store_->finish_run(failed_run, rlab::store::RunStatus::failed);
  out = push_run(*store_, failed_run, gateway_url());
  ASSERT_TRUE(out.ok()) << fmt::format("{}", fmt::join(out.errors, "\n"));
  const std::string sel = fmt::format("job=\"rlab\", cell=\"{}\"", cell.id);
  r = prom_->wait_for("rlab_cells_total{" + sel + ", status=\"failed\"} == 1");
  ASSERT_EQ(r.size(), 1u) << gateway_lines("rlab_cells_total");
  r = prom_->wait_for("rlab_cell_score_lpm{" + sel + "}");
  ASSERT_EQ(r.size(), 1u) << "the failed run's push erased the cell's result";
  EXPECT_NEAR(num(r[0]), stored, 1e-6);
  r = prom_->wait_for("rlab_run_boots{job=\"rlab\", kind=\"matrix\", state=\"failed\"} == 1");
  ASSERT_EQ(r.size(), 1u) << gateway_lines("rlab_run");
  r = prom_->wait_for("rlab_run_last_success_timestamp_seconds{job=\"rlab\", kind=\"matrix\"}");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(num(r[0]), num(success[0]));
}

TEST_F(RealMetricsServers, FailedPushIsReportedAndLosesNothingFromTheStore) {
  const auto before = store_->boot_results(run_);
  const auto runs_before = store_->runs().size();
  // Nothing listens on this port.
  auto out = push_run(*store_, run_, fmt::format("http://127.0.0.1:{}", test::free_port()));
  EXPECT_FALSE(out.ok());
  EXPECT_EQ(out.groups_pushed, 0u);
  ASSERT_EQ(out.errors.size(), 9u);
  EXPECT_NE(out.errors[0].find("transfer failed"), std::string::npos) << out.errors[0];
  EXPECT_NE(out.errors[0].find("/metrics/job/rlab/"), std::string::npos) << out.errors[0];
  // A server that is not a Pushgateway answers with an HTTP error.
  out = push_run(*store_, run_, fmt::format("http://127.0.0.1:{}", prom_->port()));
  EXPECT_FALSE(out.ok());
  ASSERT_FALSE(out.errors.empty());
  EXPECT_NE(out.errors[0].find("HTTP 4"), std::string::npos) << out.errors[0];

  const auto after = store_->boot_results(run_);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].status, before[i].status);
    EXPECT_EQ(after[i].score, before[i].score);
    EXPECT_EQ(after[i].loops, before[i].loops);
  }
  EXPECT_EQ(store_->runs().size(), runs_before);
  EXPECT_THROW(push_run(*store_, run_, "127.0.0.1:9091"), PushUrlError);
  EXPECT_THROW(push_run(*store_, 999999, gateway_url()), store::StoreError);
}

// Replaces Grafana's variables the way an "All" selection does (allValue ".*"), and the
// built-in interval variables by fixed durations.
// `selected` overrides variables with a selection (Grafana's regex form of a multi-value pick).
std::string substitute(std::string expr, const nlohmann::json& templating,
                       const std::map<std::string, std::string>& selected = {}) {
  for (const auto& v : templating["list"]) {
    const std::string name = v["name"];
    const auto pick = selected.find(name);
    const std::string value = pick != selected.end() ? pick->second : v.value("allValue", ".*");
    for (const std::string& pat : {"${" + name + "}", "$" + name})
      for (auto at = expr.find(pat); at != std::string::npos; at = expr.find(pat))
        expr.replace(at, pat.size(), value);
  }
  for (const auto& [k, v] : {std::pair<std::string, std::string>{"$__rate_interval", "1m"},
                             {"$__interval", "15s"}, {"$__range", "1h"}})
    for (auto at = expr.find(k); at != std::string::npos; at = expr.find(k)) expr.replace(at, k.size(), v);
  return expr;
}

void collect_exprs(const nlohmann::json& panels, std::vector<std::pair<std::string, std::string>>& out) {
  for (const auto& p : panels) {
    if (p.contains("panels")) collect_exprs(p["panels"], out);
    if (!p.contains("targets")) continue;
    for (const auto& t : p["targets"])
      if (t.contains("expr")) out.emplace_back(p["title"], t["expr"]);
  }
}

TEST_F(RealMetricsServers, EveryDashboardQueryReturnsDataFromServeAndThePushgateway) {
  auto out = push_run(*store_, run_, gateway_url(), &live());
  ASSERT_TRUE(out.ok()) << fmt::format("{}", fmt::join(out.errors, "\n"));
  ASSERT_FALSE(prom_->wait_for("rlab_guest_boot_seconds_count{job=\"rlab\"}").empty());
  ASSERT_FALSE(prom_->wait_for("rlab_cell_score_lpm{job=\"rlab-serve\"}").empty());

  const auto dash = nlohmann::json::parse(util::read_file(fs::path(RLAB_SOURCE_DIR) / "docs/grafana/dashboards/rlab.json"));
  std::vector<std::pair<std::string, std::string>> exprs;
  collect_exprs(dash["panels"], exprs);
  ASSERT_GE(exprs.size(), 10u);
  std::set<std::string> panels_with_queries;
  // Select the recorded kernels, so every panel shows the real runs, not data added by tests.
  std::string kernels;
  for (const auto& k : sql(fmt::format("SELECT DISTINCT kernel FROM cells WHERE run_id <= {} ORDER BY kernel",
                                       last_recorded_))) {
    std::string esc;
    for (char ch : k) esc += std::string(std::strchr(".+", ch) ? "\\\\" : "") + ch;  // \\. in PromQL
    kernels += (kernels.empty() ? "" : "|") + esc;
  }
  ASSERT_EQ(kernels, "6\\\\.12|6\\\\.12\\\\+inline-inactivation");
  for (const auto& [title, expr] : exprs) {
    panels_with_queries.insert(title);
    const std::string q = substitute(expr, dash["templating"], {{"kernel", "(" + kernels + ")"}});
    ASSERT_EQ(q.find('$'), std::string::npos) << "unsubstituted variable in " << q;
    const auto result = prom_->wait_for(q);
    ASSERT_FALSE(result.empty()) << title << ": " << q;
    bool finite = false;
    for (const auto& s : result) finite = finite || std::isfinite(num(s));
    EXPECT_TRUE(finite) << title << ": only NaN/Inf from " << q << "\n" << result.dump();
  }
  for (const char* needed : {"Score by kernel × filesystem", "XFS ÷ ext4 score ratio per vCPU count",
                             "Score against vCPUs (scaling curve) per kernel",
                             "inodegc throttle and queue events per second of load", "Guest boot time",
                             "Cell failures", "Bisect progress"})
    EXPECT_EQ(panels_with_queries.count(needed), 1u) << needed;

  // Template variables: label_values(<metric>, <label>) has values for kernel, fs, vcpus, host.
  std::set<std::string> vars;
  const std::regex lv(R"(label_values\((\w+),\s*(\w+)\))");
  for (const auto& v : dash["templating"]["list"]) {
    if (v["type"] != "query") continue;
    vars.insert(v["name"]);
    std::smatch m;
    const std::string query = v["query"].is_string() ? v["query"].get<std::string>() : v["query"]["query"].get<std::string>();
    ASSERT_TRUE(std::regex_match(query, m, lv)) << query;
    EXPECT_FALSE(prom_->label_values(m[2], m[1]).empty()) << query;
  }
  EXPECT_EQ(vars, (std::set<std::string>{"kernel", "fs", "vcpus", "host"}));
}

TEST_F(RealMetricsServers, SeriesCountDoesNotGrowWhenTheSameMatrixRunsAgain) {
  ASSERT_FALSE(prom_->wait_for("count({job=\"rlab-serve\", __name__=~\"rlab_.+\"})").empty());
  // The series of the last scrape. A scrape that failed (its timeout is the 1 s interval, which
  // a loaded machine can miss) leaves every series stale, so an empty answer waits for the next.
  const auto count = [] {
    auto r = prom_->wait_for("count({job=\"rlab-serve\", __name__=~\"rlab_.+\"})");
    return r.empty() ? 0.0 : num(r[0]);
  };
  // Two later nights of the recorded matrix, each measured on a newer commit of its kernels.
  // The first also brings this machine's run-progress series (kind, host), which exist once.
  test::replay_run(*store_, run_, "next-night-1");
  std::this_thread::sleep_for(4s);  // several scrapes
  const double before = count();
  ASSERT_GT(before, 100);
  test::replay_run(*store_, run_, "next-night-2");
  std::this_thread::sleep_for(4s);
  EXPECT_EQ(count(), before);
  auto r = prom_->wait_for("rlab_kernel_info{job=\"rlab-serve\", kernel=\"6.12\"}");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["metric"]["commit"], "next-night-2");
}

TEST_F(RealMetricsServers, ARunStartedWhileServingShowsItsProgressLive) {
  const std::string sel = fmt::format("{{host=\"{}\",kind=\"live\"", local_hostname());
  auto scrape_value = [&](const std::string& series) -> double {
    auto body = test::http_get(serve_url()).body;
    auto at = body.find(series);
    if (at == std::string::npos) return -1;
    auto eol = body.find('\n', at);
    auto line = body.substr(at, eol - at);
    return std::stod(line.substr(line.rfind(' ') + 1));
  };
  auto cells = test::cells({"6.14"});
  store::NewRun nr{"live.yaml", "", 5, "live", ""};
  const auto run = store_->create_run(nr);
  store_->add_cells(run, matrix::cell_rows(cells), 1);
  EXPECT_EQ(scrape_value("rlab_runs_active" + sel + "}"), 1);
  EXPECT_EQ(scrape_value("rlab_run_boots" + sel + ",state=\"planned\"}"), 4);
  EXPECT_EQ(scrape_value("rlab_run_boots" + sel + ",state=\"done\"}"), 0);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    test::fill_boot(*store_, store_->boot_id(run, cells[i].id, 0), cells[i], "live", 40 + i, "qemu:///system");
    EXPECT_EQ(scrape_value("rlab_run_boots" + sel + ",state=\"done\"}"), static_cast<double>(i + 1));
  }
  auto r = prom_->wait_for("rlab_run_boots{job=\"rlab-serve\", kind=\"live\", state=\"done\"} == 4");
  EXPECT_EQ(r.size(), 1u);
  store_->finish_run(run, rlab::store::RunStatus::done);
  EXPECT_EQ(scrape_value("rlab_runs_active" + sel + "}"), 0);
}

}  // namespace
}  // namespace rlab::metrics

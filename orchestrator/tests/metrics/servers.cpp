// Real servers for the metrics tests (see servers.hpp).
#include "servers.hpp"

#include "loopback_port.hpp"

#include "util/paths.hpp"
#include "util/process.hpp"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace rlab::metrics::test {

int free_port() {
  const int port = rlab::testing::free_loopback_port();
  if (port < 0) throw std::runtime_error("free_port: cannot bind 127.0.0.1:0");
  return port;
}

namespace {
size_t append(char* p, size_t size, size_t n, void* out) {
  static_cast<std::string*>(out)->append(p, size * n);
  return size * n;
}
}  // namespace

HttpReply http_get(const std::string& url) {
  HttpReply r;
  CURL* c = curl_easy_init();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 20L);
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
  if (curl_easy_perform(c) == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
  curl_easy_cleanup(c);
  return r;
}

std::string url_encode(const std::string& s) {
  CURL* c = curl_easy_init();
  char* e = curl_easy_escape(c, s.c_str(), static_cast<int>(s.size()));
  std::string out(e);
  curl_free(e);
  curl_easy_cleanup(c);
  return out;
}

Daemon::Daemon(std::vector<std::string> argv, std::filesystem::path log)
    : argv_(std::move(argv)), log_(std::move(log)) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (auto& a : argv_) args.push_back(a.data());
  args.push_back(nullptr);
  int rc = posix_spawnp(&pid_, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0)
    throw std::runtime_error(fmt::format("cannot start {}: {}", argv_[0], std::strerror(rc)));
}

Daemon::~Daemon() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  for (int i = 0; i < 100; ++i) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
}

bool Daemon::running() {
  int status = 0;
  if (pid_ <= 0) return false;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

std::string Daemon::log_text() const {
  try {
    return util::tail(util::read_file(log_), 30);
  } catch (const std::exception&) {
    return "";
  }
}

void Daemon::wait_ready(const std::string& url, std::chrono::seconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (!running())
      throw std::runtime_error(fmt::format("{} exited before {} answered:\n{}", argv_[0], url, log_text()));
    if (http_get(url).status == 200) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  throw std::runtime_error(fmt::format("{}: {} did not answer 200 in time:\n{}", argv_[0], url, log_text()));
}

Prometheus::Prometheus(const std::filesystem::path& dir,
                       const std::vector<std::pair<std::string, std::string>>& targets)
    : port_(free_port()) {
  std::filesystem::create_directories(dir / "data");
  std::string cfg = "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n";
  for (const auto& [job, target] : targets) {
    cfg += fmt::format("  - job_name: {}\n", job);
    if (job == "pushgateway") cfg += "    honor_labels: true\n";
    cfg += fmt::format("    static_configs:\n      - targets: ['{}']\n", target);
  }
  util::write_file_atomic(dir / "prometheus.yml", cfg);
  auto check = util::run({"promtool", "check", "config", (dir / "prometheus.yml").string()});
  if (!check.ok()) throw std::runtime_error("promtool check config:\n" + check.output);
  daemon_ = std::make_unique<Daemon>(
      std::vector<std::string>{"prometheus", "--config.file=" + (dir / "prometheus.yml").string(),
                               "--storage.tsdb.path=" + (dir / "data").string(),
                               fmt::format("--web.listen-address=127.0.0.1:{}", port_)},
      dir / "prometheus.log");
  daemon_->wait_ready(fmt::format("http://127.0.0.1:{}/-/ready", port_));
}

nlohmann::json Prometheus::query(const std::string& promql) {
  auto r = http_get(fmt::format("http://127.0.0.1:{}/api/v1/query?query={}", port_, url_encode(promql)));
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (r.status != 200 || !j.is_object() || j.value("status", "") != "success")
    throw std::runtime_error(fmt::format("query {} -> HTTP {}: {}", promql, r.status, r.body));
  return j["data"];
}

nlohmann::json Prometheus::wait_for(const std::string& promql, std::chrono::seconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  nlohmann::json result = nlohmann::json::array();
  while (std::chrono::steady_clock::now() < end) {
    result = query(promql)["result"];
    if (!result.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return result;
}

std::vector<std::string> Prometheus::label_values(const std::string& label, const std::string& match) {
  auto r = http_get(fmt::format("http://127.0.0.1:{}/api/v1/label/{}/values?match[]={}", port_,
                                label, url_encode(match)));
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  if (r.status != 200 || !j.is_object() || j.value("status", "") != "success")
    throw std::runtime_error(fmt::format("label values {} {} -> HTTP {}: {}", label, match, r.status, r.body));
  return j["data"].get<std::vector<std::string>>();
}

}  // namespace rlab::metrics::test

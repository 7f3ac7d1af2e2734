#pragma once
// Real servers for the metrics tests: Debian's prometheus, prometheus-pushgateway and
// `rlab serve`, started on free loopback ports with temporary storage and stopped after.
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace rlab::metrics::test {

/// A free TCP port on 127.0.0.1 (bound once and released).
int free_port();

/// HTTP GET of a loopback URL: {status (0 when no connection), body}.
struct HttpReply {
  long status = 0;
  std::string body;
};
HttpReply http_get(const std::string& url);

/// A background process (argv, no shell) whose stdout+stderr go to `log`; SIGTERM, then
/// SIGKILL after 10 s, on destruction.
class Daemon {
 public:
  Daemon(std::vector<std::string> argv, std::filesystem::path log);
  ~Daemon();
  Daemon(const Daemon&) = delete;
  Daemon& operator=(const Daemon&) = delete;
  /// Waits until GET `url` answers 200; throws std::runtime_error (with the log's tail) if
  /// the process exits or `timeout` passes.
  void wait_ready(const std::string& url, std::chrono::seconds timeout = std::chrono::seconds(60));
  bool running();
  std::string log_text() const;

 private:
  std::vector<std::string> argv_;
  std::filesystem::path log_;
  int pid_ = -1;
};

/// A Prometheus server scraping `targets` (job name -> "127.0.0.1:port"; jobs named
/// "pushgateway" get honor_labels) every second, with TSDB storage under `dir`.
class Prometheus {
 public:
  Prometheus(const std::filesystem::path& dir, const std::vector<std::pair<std::string, std::string>>& targets);
  /// /api/v1/query at the current time: the `data` object; throws on an error status.
  nlohmann::json query(const std::string& promql);
  /// Polls query(promql) until its result is non-empty or `timeout` passes; returns the
  /// last result array. The tests read every value they expect through it: a scrape that
  /// misses its timeout (the 1 s interval, on a loaded machine) marks the target's series
  /// stale, so a bare query right after it answers nothing, and the next scrape brings them back.
  nlohmann::json wait_for(const std::string& promql, std::chrono::seconds timeout = std::chrono::seconds(60));
  /// /api/v1/label/<label>/values?match[]=<match>
  std::vector<std::string> label_values(const std::string& label, const std::string& match);
  int port() const { return port_; }

 private:
  int port_;
  std::unique_ptr<Daemon> daemon_;
};

/// URL-encodes a query-string component.
std::string url_encode(const std::string& s);

}  // namespace rlab::metrics::test

#pragma once
// The HTTP endpoint of `rlab serve`: /metrics exposes the store (StoreCollector, read on every
// scrape) and this process's LiveMetrics, through prometheus-cpp's Exposer (civetweb).
#include "metrics/live.hpp"
#include "metrics/store_collector.hpp"

#include <prometheus/exposer.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlab::metrics {

/// Bad listen address or a port that cannot be bound. what() names the address.
struct ListenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checks a listen address "a.b.c.d:port" or "[v6]:port" (numeric addresses only, port
/// 0-65535; 0 = any free port) and returns it in civetweb's form. Throws ListenError naming
/// the value and what is wrong (no port, a port out of range, a host name, an address that
/// is not one such as 256.1.1.1).
std::string check_listen_address(const std::string& listen);

/// Limits of the HTTP endpoint (civetweb options).
inline constexpr int kWorkerThreads = 4;           ///< requests served at once
inline constexpr int kMaxRequestBytes = 16 * 1024;  ///< request line + headers; larger: 400, closed
inline constexpr int kRequestTimeoutMs = 10000;    ///< a request not complete by then is dropped

/// Serves http://<listen>/metrics until destroyed. The collectors are owned here and outlive
/// the Exposer's weak references.
class Server {
 public:
  /// Opens the store at `db` read-only and starts listening. Throws store::StoreError (no
  /// store) or ListenError (bad address, port in use).
  Server(const std::string& listen, const std::filesystem::path& db,
         std::shared_ptr<LiveMetrics> live = std::make_shared<LiveMetrics>());
  ~Server();

  /// The bound TCP ports (the real one when 0 was asked for).
  std::vector<int> ports() const;
  /// The process-level metrics exposed next to the store's.
  LiveMetrics& live() { return *live_; }

 private:
  std::shared_ptr<StoreCollector> store_;
  std::shared_ptr<LiveMetrics> live_;
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace rlab::metrics

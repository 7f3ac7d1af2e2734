// `rlab serve`'s endpoint (see server.hpp).
#include "metrics/server.hpp"

#include <fmt/format.h>

#include <arpa/inet.h>

#include <charconv>

namespace rlab::metrics {

std::string check_listen_address(const std::string& listen) {
  auto bad = [&](const std::string& why) {
    return ListenError(fmt::format("--listen '{}': {}", listen, why));
  };
  std::string host, port;
  if (!listen.empty() && listen.front() == '[') {
    auto close = listen.find("]:");
    if (close == std::string::npos) throw bad("expected [address]:port");
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
  } else {
    auto colon = listen.rfind(':');
    if (colon == std::string::npos) throw bad("expected host:port, e.g. 127.0.0.1:9464");
    host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
    if (host.find(':') != std::string::npos) throw bad("write an IPv6 address as [address]:port");
  }
  if (host.empty()) throw bad("missing address (use 127.0.0.1, or 0.0.0.0 for every interface)");
  const bool v6 = listen.front() == '[';
  unsigned char addr[16];
  if (::inet_pton(v6 ? AF_INET6 : AF_INET, host.c_str(), addr) != 1)
    throw bad(fmt::format("'{}' is not a numeric {} address (e.g. {}; host names are not "
                          "resolved)", host, v6 ? "IPv6" : "IPv4",
                          v6 ? "[::1]:9464 or [::]:9464" : "127.0.0.1:9464 or 0.0.0.0:9464"));
  unsigned p = 0;
  auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), p);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || p > 65535)
    throw bad(fmt::format("port '{}' is not a number in 0-65535 (0 picks a free port)", port));
  return listen;
}

Server::Server(const std::string& listen, const std::filesystem::path& db,
               std::shared_ptr<LiveMetrics> live)
    : store_(std::make_shared<StoreCollector>(db)), live_(std::move(live)) {
  const std::string addr = check_listen_address(listen);
  try {
    // civetweb's limits, spelled out: a request line plus headers over 16 KiB is refused
    // (400) and its connection closed; a client that has not sent its whole request within
    // 10 s is dropped (civetweb's default is 30 s, during which a few silent clients held
    // both of prometheus-cpp's default 2 worker threads and /metrics did not answer).
    exposer_ = std::make_unique<prometheus::Exposer>(std::vector<std::string>{
        "listening_ports", addr, "num_threads", std::to_string(kWorkerThreads),
        "max_request_size", std::to_string(kMaxRequestBytes), "request_timeout_ms",
        std::to_string(kRequestTimeoutMs)});
  } catch (const std::exception& e) {
    throw ListenError(fmt::format("--listen '{}': cannot listen: {}", listen, e.what()));
  }
  exposer_->RegisterCollectable(store_);
  exposer_->RegisterCollectable(live_->registry());
}

Server::~Server() = default;

std::vector<int> Server::ports() const { return exposer_->GetListeningPorts(); }

}  // namespace rlab::metrics

// `rlab serve`: exposes the store's latest results and live runs to Prometheus
// (docs/monitoring.md).
#include "cli/command.hpp"
#include "metrics/server.hpp"

#include <spdlog/spdlog.h>

#include <csignal>
#include <iostream>
#include <pthread.h>

namespace rlab::cli {
namespace {

int serve(const std::string& listen, const std::string& db) {
  // Block SIGINT/SIGTERM before the HTTP threads start so only sigwait() below sees them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  std::unique_ptr<metrics::Server> server;
  try {
    metrics::check_listen_address(listen);
  } catch (const metrics::ListenError& e) {
    std::cerr << "rlab serve: " << e.what() << "\n";
    return kUsage;
  }
  try {
    server = std::make_unique<metrics::Server>(listen, db);
  } catch (const std::exception& e) {  // no store, port in use: the environment, not the input
    std::cerr << "rlab serve: " << e.what() << "\n";
    return kInfrastructure;
  }
  auto ports = server->ports();
  spdlog::info("serving /metrics on {} (port {}), store {}", listen,
               ports.empty() ? 0 : ports.front(), db);
  int sig = 0;
  sigwait(&stop, &sig);
  spdlog::info("stopping on signal {}", sig);
  return kOk;
}

Registrar serve_registrar(70, [](CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("serve", "Expose the store's results and live runs to Prometheus");
  auto listen = std::make_shared<std::string>("127.0.0.1:9464");
  auto db = std::make_shared<std::string>("results/rlab.db");
  cmd->add_option("--listen", *listen, "Address:port of /metrics (loopback by default)")
      ->capture_default_str();
  cmd->add_option("--db", *db, "The results store")->capture_default_str();
  cmd->final_callback([=] { *exit_code = serve(*listen, *db); });
});

}  // namespace
}  // namespace rlab::cli

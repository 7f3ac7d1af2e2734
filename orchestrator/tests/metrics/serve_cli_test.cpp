// `rlab serve` command line: bad input is refused with the documented exit codes.
#include "fixture.hpp"
#include "loopback_port.hpp"
#include "servers.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <filesystem>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;

std::string rlab_bin() {
  const char* b = std::getenv("RLAB_BIN");
  return b ? b : "";
}

TEST(ServeCli, RefusesAMissingStoreWithExitCode3AndNamesIt) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  auto r = util::run({rlab_bin(), "serve", "--listen", "127.0.0.1:0", "--db", "/nonexistent/rlab.db"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("/nonexistent/rlab.db"), std::string::npos) << r.output;
}

TEST(ServeCli, RefusesABadListenAddressWithExitCode2) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  auto r = util::run({rlab_bin(), "serve", "--listen", "9464", "--db", "/nonexistent/rlab.db"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--listen '9464'"), std::string::npos) << r.output;
}

// Every bad --listen form is a usage error naming the value, checked before the store is
// opened (so it is exit 2 even with a store that does not exist).
TEST(ServeCli, BadListenFormsAreUsageErrorsNamingTheValue) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  const std::pair<const char*, const char*> cases[] = {
      {"256.1.1.1:9100", "'256.1.1.1' is not a numeric IPv4 address"},
      {"localhost:9464", "'localhost' is not a numeric IPv4 address"},
      {"127.0.0.1", "expected host:port"},
      {"127.0.0.1:", "port '' is not a number in 0-65535"},
      {"127.0.0.1:65536", "port '65536' is not a number in 0-65535"},
      {"[::1]", "expected [address]:port"},
      {"[fe80::zz]:9464", "'fe80::zz' is not a numeric IPv6 address"},
  };
  for (const auto& [listen, why] : cases) {
    auto r = util::run({rlab_bin(), "serve", "--listen", listen, "--db", "/nonexistent/rlab.db"});
    EXPECT_EQ(r.exit_code, 2) << listen << ": " << r.output;
    EXPECT_NE(r.output.find(fmt::format("--listen '{}'", listen)), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
  }
}

// Port 0 is not an error: the kernel picks a free port and serve logs it.
TEST(ServeCli, PortZeroServesOnAFreePortItLogs) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  const fs::path dir = fs::temp_directory_path() / ("rlab-serve-port0-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  store::Store::open(dir / "rlab.db");
  int port = 0;
  {
    test::Daemon serve({rlab_bin(), "serve", "--listen", "127.0.0.1:0", "--db", (dir / "rlab.db").string()},
                       dir / "serve.log");
    for (int i = 0; i < 300 && port == 0; ++i) {
      const auto log = serve.log_text();
      if (auto at = log.find("(port "); at != std::string::npos) port = std::atoi(log.c_str() + at + 6);
      if (port == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_GT(port, 0) << serve.log_text();
    auto reply = test::http_get(fmt::format("http://127.0.0.1:{}/metrics", port));
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.body.find("rlab_store_up 1"), std::string::npos) << reply.body;
  }
  fs::remove_all(dir);
}

TEST(ServeCli, RefusesAPortInUseWithExitCode3) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  const fs::path dir = fs::temp_directory_path() / ("rlab-serve-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  store::Store::open(dir / "rlab.db");  // an empty store
  const rlab::testing::SilentListener in_use;
  ASSERT_GT(in_use.port, 0);
  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(30);
  auto r = util::run({rlab_bin(), "serve", "--listen", fmt::format("127.0.0.1:{}", in_use.port),
                      "--db", (dir / "rlab.db").string()}, o);
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot listen"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rlab::metrics

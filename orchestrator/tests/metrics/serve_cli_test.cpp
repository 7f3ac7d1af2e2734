// `rlab serve` command line: bad input is refused with the documented exit codes.
#include "fixture.hpp"
#include "servers.hpp"
#include "util/process.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
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

TEST(ServeCli, RefusesAPortInUseWithExitCode3) {
  ASSERT_FALSE(rlab_bin().empty()) << "RLAB_BIN not set";
  const fs::path dir = fs::temp_directory_path() / ("rlab-serve-cli-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  store::Store::open(dir / "rlab.db");  // an empty store
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(30);
  auto r = util::run({rlab_bin(), "serve", "--listen", fmt::format("127.0.0.1:{}", ntohs(a.sin_port)),
                      "--db", (dir / "rlab.db").string()}, o);
  ::close(fd);
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot listen"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rlab::metrics

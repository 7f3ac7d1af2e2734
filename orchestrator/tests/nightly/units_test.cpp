// The shipped systemd units and cron line (contrib/systemd/) are valid, and docs/nightly.md
// shows them as they are.
#include "matrix/matrix.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <regex>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace rlab;

const fs::path kUnits = fs::path(RLAB_SOURCE_DIR) / "contrib" / "systemd";

TEST(SystemdUnits, VerifyWithoutWarnings) {
  const auto analyze = util::find_program("systemd-analyze");
  ASSERT_TRUE(analyze) << "systemd-analyze (package systemd) checks the units";
  // The service names the installed binary; verify needs an executable there, so check a copy
  // that points at this build's rlab.
  const fs::path dir = fs::temp_directory_path() / ("rlab-units-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string service = util::read_file(kUnits / "rlab-nightly.service");
  const char* bin = std::getenv("RLAB_BIN");
  ASSERT_TRUE(bin && *bin);
  service = std::regex_replace(service, std::regex("/usr/local/bin/rlab"), bin);
  util::write_file_atomic(dir / "rlab-nightly.service", service);
  fs::copy_file(kUnits / "rlab-nightly.timer", dir / "rlab-nightly.timer");
  const auto r = util::run({analyze->string(), "verify", "--man=no", (dir / "rlab-nightly.service").string(),
                            (dir / "rlab-nightly.timer").string()});
  fs::remove_all(dir);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "") << "systemd-analyze prints warnings for unknown keys and bad values";
  EXPECT_NE(service.find(std::string(bin) + " nightly --matrix "), std::string::npos);
}

TEST(SystemdUnits, CronLineIsOneNightlyEntry) {
  std::vector<std::string> entries;
  std::istringstream in(util::read_file(kUnits / "rlab-nightly.cron"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') entries.push_back(line);
  ASSERT_EQ(entries.size(), 1u);
  // /etc/cron.d format: five time fields, the user, the command.
  const std::regex cron(R"(^(\S+\s+){5}rlab\s+.*\brlab nightly --matrix \S+.*$)");
  EXPECT_TRUE(std::regex_match(entries[0], cron)) << entries[0];
  for (const auto& field : {"30", "1", "*"}) EXPECT_NE(entries[0].find(field), std::string::npos);
}

// Service and cron run the arm64 KVM nightly matrix, which names the tree and the remotes.
TEST(SystemdUnits, BothRunTheKvmMatrixThatFetchesAndBisects) {
  const std::regex matrix_arg(R"(rlab nightly --matrix /srv/rlab/(\S+))");
  for (const char* f : {"rlab-nightly.service", "rlab-nightly.cron"}) {
    const std::string text = util::read_file(kUnits / f);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(text, m, matrix_arg)) << f;
    matrix::LoadOptions lo;
    lo.check_paths = false;  // /srv/rlab/linux-stable lives on the nightly hosts
    const auto mx = matrix::load_matrix(fs::path(RLAB_SOURCE_DIR) / m[1].str(), lo);
    EXPECT_EQ(mx.guest.accel, matrix::Accel::kKvm) << f;
    EXPECT_FALSE(mx.nightly.tree.empty()) << f << ": bisections need nightly.tree";
    EXPECT_FALSE(mx.nightly.fetch.empty()) << f << ": refs must be tonight's";
  }
}

TEST(SystemdUnits, DocShowsTheShippedFiles) {
  const auto doc = util::read_file(fs::path(RLAB_SOURCE_DIR) / "docs" / "nightly.md");
  for (const char* f : {"rlab-nightly.service", "rlab-nightly.timer", "rlab-nightly.cron"})
    EXPECT_NE(doc.find(util::read_file(kUnits / f)), std::string::npos)
        << "docs/nightly.md must show contrib/systemd/" << f << " verbatim";
}

}  // namespace

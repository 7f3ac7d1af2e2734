// The rlab binary given a careless --db or selector: a directory is a usage error (exit 2)
// for every command that reads the store, and `rlab noise --show` takes any cell part as text.
#include "store/store.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>

namespace {

namespace fs = std::filesystem;

std::vector<std::string> rlab(std::vector<std::string> args) {
  const char* bin = std::getenv("RLAB_BIN");
  std::vector<std::string> argv{bin && *bin ? bin : RLAB_BINARY_DIR "/orchestrator/rlab"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

fs::path scratch(const char* name) {
  fs::path d = fs::temp_directory_path() / ("rlab-bad-db-cli-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

TEST(BadDbCli, DirectoryAsDbIsAUsageErrorNamingIt) {
  const fs::path dir = scratch("dir");
  const std::string db = (dir / "results").string();
  fs::create_directories(db);
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"results", "--db", db}, {"compare", "1", "1", "--db", db}, {"noise", "--show", "--db", db}}) {
    const auto r = rlab::util::run(rlab(args));
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.output;
    EXPECT_NE(r.output.find(db + ": is a directory, not a results store"), std::string::npos)
        << args[0] << ": " << r.output;
  }
  EXPECT_TRUE(fs::is_empty(db));
  fs::remove_all(dir);
}

TEST(BadDbCli, PathLongerThanTheSystemAllowsIsAUsageError) {
  const std::string db = "/tmp/" + std::string(100000, 'd') + ".db";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"results", "--db", db}, {"compare", "1", "1", "--db", db}, {"noise", "--show", "--db", db}}) {
    const auto r = rlab::util::run(rlab(args));
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.output.substr(0, 300);
  }
}

TEST(BadDbCli, NoiseShowTakesAnyCellPartAsText) {
  const fs::path dir = scratch("show");
  const std::string db = (dir / "rlab.db").string();
  {
    auto st = rlab::store::Store::open(db);
    rlab::store::NoiseReportRow row;
    row.cell_id = row.control_id = "k/xfs-defaults/1vcpu/shell1";
    row.created_at = "2026-12-01T00:00:00.000Z";
    row.boots = 2;
    st->add_noise_report(row);
  }
  // SQLite refuses a GLOB pattern this long; '*' and '[' are characters, not a pattern.
  for (const std::string& part : {std::string(100000, 'a'), std::string("[xfs"), std::string("x*s")}) {
    const auto r = rlab::util::run(rlab({"noise", "--show", part, "--db", db}));
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
    EXPECT_NE(r.output.find("no noise reports stored"), std::string::npos) << r.output.substr(0, 400);
  }
  const auto hit = rlab::util::run(rlab({"noise", "--show", "xfs-defaults", "--json", "--db", db}));
  EXPECT_EQ(hit.exit_code, 0) << hit.output;
  EXPECT_NE(hit.output.find("\"id\": 1"), std::string::npos) << hit.output;
  fs::remove_all(dir);
}

}  // namespace

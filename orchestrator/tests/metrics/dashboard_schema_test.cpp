// The Grafana dashboard against the JSON Schema generated from @grafana/schema's published
// TypeScript types (docs/grafana/schema/check-dashboards.sh: npm ci of pinned packages,
// ts-json-schema-generator, ajv-cli).
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = RLAB_SOURCE_DIR;

util::ProcessResult check(const fs::path& dashboard) {
  util::ProcessOptions o;
  o.timeout = std::chrono::seconds(900);  // first run: npm ci
  return util::run({"bash", (kSource / "docs/grafana/schema/check-dashboards.sh").string(), dashboard.string()}, o);
}

TEST(RealGrafanaSchema, DashboardValidatesAndIsTheClassicModelWithSchemaVersionAtLeast36) {
  const fs::path dash = kSource / "docs/grafana/dashboards/rlab.json";
  auto r = check(dash);
  EXPECT_TRUE(r.ok()) << r.output;
  EXPECT_NE(r.output.find(dash.string() + " valid"), std::string::npos) << r.output;
  auto j = nlohmann::json::parse(util::read_file(dash));
  EXPECT_GE(j["schemaVersion"].get<int>(), 36);
  EXPECT_TRUE(j["panels"].is_array());  // classic model: panels at the top level, no "elements"
  EXPECT_FALSE(j.contains("elements"));
}

TEST(RealGrafanaSchema, GeneratedSchemaRejectsBrokenDashboards) {
  auto j = nlohmann::json::parse(util::read_file(kSource / "docs/grafana/dashboards/rlab.json"));
  const fs::path dir = fs::temp_directory_path() / ("rlab-dash-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Case {
    const char* what;
    void (*mutate)(nlohmann::json&);
  };
  const Case cases[] = {
      {"gridPos.w a string", [](nlohmann::json& d) { d["panels"][1]["gridPos"]["w"] = "wide"; }},
      {"no schemaVersion", [](nlohmann::json& d) { d.erase("schemaVersion"); }},
      {"unknown top-level key", [](nlohmann::json& d) { d["dashbaord"] = true; }},
      {"variable without a type", [](nlohmann::json& d) { d["templating"]["list"][1].erase("type"); }},
  };
  for (const auto& c : cases) {
    auto bad = j;
    c.mutate(bad);
    const fs::path f = dir / "bad.json";
    util::write_file_atomic(f, bad.dump(2));
    auto r = check(f);
    EXPECT_FALSE(r.ok()) << c.what << " was accepted:\n" << r.output;
    EXPECT_NE(r.output.find("invalid"), std::string::npos) << c.what << ":\n" << r.output;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rlab::metrics

// docs/: Grafana provisioning files agree with the dashboard, and the prometheus.yml of
// docs/monitoring.md passes the real `promtool check config`.
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <regex>

namespace rlab::metrics {
namespace {

namespace fs = std::filesystem;
const fs::path kDocs = fs::path(RLAB_SOURCE_DIR) / "docs";

TEST(GrafanaProvisioning, DatasourceUidIsTheDashboardsDefaultAndEveryPanelUsesTheVariable) {
  auto ds = YAML::LoadFile((kDocs / "grafana/provisioning/datasources/rlab.yaml").string());
  ASSERT_EQ(ds["apiVersion"].as<int>(), 1);
  ASSERT_EQ(ds["datasources"].size(), 1u);
  EXPECT_EQ(ds["datasources"][0]["type"].as<std::string>(), "prometheus");
  const auto uid = ds["datasources"][0]["uid"].as<std::string>();

  auto dash = nlohmann::json::parse(util::read_file(kDocs / "grafana/dashboards/rlab.json"));
  const auto& vars = dash["templating"]["list"];
  ASSERT_EQ(vars[0]["type"], "datasource");
  EXPECT_EQ(vars[0]["current"]["value"], uid);
  for (const auto& p : dash["panels"]) {
    if (p["type"] == "row") continue;
    EXPECT_EQ(p["datasource"]["uid"], "${datasource}") << p["title"];
    for (const auto& t : p["targets"]) EXPECT_EQ(t["datasource"]["uid"], "${datasource}") << p["title"];
  }

  auto prov = YAML::LoadFile((kDocs / "grafana/provisioning/dashboards/rlab.yaml").string());
  ASSERT_EQ(prov["providers"].size(), 1u);
  EXPECT_EQ(prov["providers"][0]["type"].as<std::string>(), "file");
  EXPECT_FALSE(prov["providers"][0]["options"]["path"].as<std::string>().empty());
}

// The ```yaml block of docs/monitoring.md that starts with "# prometheus.yml for rlab".
std::string prometheus_yml_from_docs() {
  const std::string md = util::read_file(kDocs / "monitoring.md");
  const std::regex block("```yaml\n(# prometheus.yml for rlab\n[\\s\\S]*?)```");
  std::smatch m;
  if (!std::regex_search(md, m, block)) return "";
  return m[1];
}

TEST(RealPromtool, MonitoringDocsPrometheusYmlPassesCheckConfig) {
  const std::string yml = prometheus_yml_from_docs();
  ASSERT_NE(yml.find("job_name: rlab-serve"), std::string::npos) << "block not found";
  ASSERT_NE(yml.find("honor_labels: true"), std::string::npos);
  const fs::path f = fs::temp_directory_path() / ("rlab-prometheus-" + std::to_string(::getpid()) + ".yml");
  util::write_file_atomic(f, yml);
  auto r = util::run({"promtool", "check", "config", f.string()});
  fs::remove(f);
  EXPECT_TRUE(r.ok()) << r.output;
  EXPECT_NE(r.output.find("SUCCESS"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace rlab::metrics

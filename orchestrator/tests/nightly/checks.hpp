#pragma once
// Checks of the report files against their published formats, shared by the nightly tests:
// the KCIDB I/O schema v4.0 facts the reports rely on, and JUnit XML parsed by python3's
// xml.etree (a real XML parser, not ours).
#include "util/process.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rlab::testing {

/// Violations of KCIDB I/O schema v4.0 (kernelci/kcidb-io kcidb_io/schema/v04_00.py), as
/// written there:
///  - the top level is an object with only version, checkouts, builds, tests; "version" is
///    required, with integer "major" == 4 (required) and integer "minor" >= 0;
///  - a checkout requires id and origin; a build requires id, origin and checkout_id; a test
///    requires id, origin and build_id; every object has additionalProperties: false, so only
///    the properties listed below are allowed;
///  - origin matches ^[a-z0-9_]+$; ids (and *_id references) match ^[a-z0-9_]+:.*$;
///  - test path matches ^[.a-zA-Z0-9_-]*$; test status is one of FAIL ERROR PASS DONE SKIP;
///    git_commit_hash is [0-9a-f]{40}; build architecture matches ^[a-z0-9_]*$; valid is a
///    boolean; misc is an object; start_time a string;
///  - no property anywhere may be null.
/// Beyond the schema (report consistency): references resolve and ids are unique per type.
inline std::vector<std::string> kcidb_problems(const nlohmann::json& doc) {
  std::vector<std::string> bad;
  const std::regex origin_re("^[a-z0-9_]+$"), id_re("^[a-z0-9_]+:.*$"), path_re("^[.a-zA-Z0-9_-]*$"),
      sha1_re("^[0-9a-f]{40}$"), arch_re("^[a-z0-9_]*$");
  const std::set<std::string> statuses = {"FAIL", "ERROR", "PASS", "DONE", "SKIP"};
  const std::map<std::string, std::set<std::string>> allowed = {
      {"checkouts", {"id", "origin", "tree_name", "git_repository_url", "git_commit_hash",
                     "git_commit_name", "git_repository_branch", "patchset_files", "patchset_hash",
                     "message_id", "comment", "start_time", "contacts", "log_url", "log_excerpt",
                     "valid", "misc"}},
      {"builds", {"checkout_id", "id", "origin", "comment", "start_time", "duration", "architecture",
                  "command", "compiler", "input_files", "output_files", "config_name", "config_url",
                  "log_url", "log_excerpt", "valid", "misc"}},
      {"tests", {"build_id", "id", "origin", "environment", "path", "comment", "log_url",
                 "log_excerpt", "status", "waived", "start_time", "duration", "output_files", "misc"}}};
  const std::map<std::string, std::vector<std::string>> required = {
      {"checkouts", {"id", "origin"}},
      {"builds", {"checkout_id", "id", "origin"}},
      {"tests", {"build_id", "id", "origin"}}};
  std::function<void(const nlohmann::json&, const std::string&)> no_null =
      [&](const nlohmann::json& j, const std::string& where) {
        if (j.is_null()) bad.push_back(where + ": null");
        if (j.is_object())
          for (auto it = j.begin(); it != j.end(); ++it) no_null(it.value(), where + "." + it.key());
        if (j.is_array())
          for (std::size_t i = 0; i < j.size(); ++i) no_null(j[i], where + "[" + std::to_string(i) + "]");
      };
  no_null(doc, "$");
  if (!doc.is_object()) return {"top level is not an object"};
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "version" && !allowed.count(it.key())) bad.push_back("unknown top-level " + it.key());
  if (!doc.contains("version") || !doc["version"].is_object() || !doc["version"].contains("major") ||
      !doc["version"]["major"].is_number_integer() || doc["version"]["major"] != 4)
    bad.push_back("version.major must be the integer 4");
  else if (doc["version"].contains("minor") &&
           (!doc["version"]["minor"].is_number_integer() || doc["version"]["minor"].get<int>() < 0))
    bad.push_back("version.minor must be an integer >= 0");
  std::map<std::string, std::set<std::string>> ids;
  for (const auto& [type, keys] : allowed) {
    if (!doc.contains(type)) continue;
    if (!doc[type].is_array()) {
      bad.push_back(type + " is not an array");
      continue;
    }
    for (std::size_t i = 0; i < doc[type].size(); ++i) {
      const auto& o = doc[type][i];
      const std::string where = type + "[" + std::to_string(i) + "]";
      if (!o.is_object()) {
        bad.push_back(where + " is not an object");
        continue;
      }
      for (auto it = o.begin(); it != o.end(); ++it)
        if (!keys.count(it.key())) bad.push_back(where + ": property not in the schema: " + it.key());
      for (const auto& r : required.at(type))
        if (!o.contains(r) || !o[r].is_string()) bad.push_back(where + ": missing required " + r);
      if (o.contains("origin") && o["origin"].is_string() &&
          !std::regex_match(o["origin"].get<std::string>(), origin_re))
        bad.push_back(where + ": bad origin");
      for (const char* k : {"id", "checkout_id", "build_id"})
        if (o.contains(k) && (!o[k].is_string() || !std::regex_match(o[k].get<std::string>(), id_re)))
          bad.push_back(where + ": bad " + k);
      if (o.contains("id") && o["id"].is_string() && !ids[type].insert(o["id"].get<std::string>()).second)
        bad.push_back(where + ": duplicate id");
      if (o.contains("valid") && !o["valid"].is_boolean()) bad.push_back(where + ": valid not boolean");
      if (o.contains("misc") && !o["misc"].is_object()) bad.push_back(where + ": misc not an object");
      if (o.contains("start_time") && !o["start_time"].is_string()) bad.push_back(where + ": start_time");
      if (o.contains("git_commit_hash") && !std::regex_match(o["git_commit_hash"].get<std::string>(), sha1_re))
        bad.push_back(where + ": bad git_commit_hash");
      if (o.contains("architecture") && !std::regex_match(o["architecture"].get<std::string>(), arch_re))
        bad.push_back(where + ": bad architecture");
      if (o.contains("path") && (!o["path"].is_string() || !std::regex_match(o["path"].get<std::string>(), path_re)))
        bad.push_back(where + ": bad path");
      if (o.contains("status") && (!o["status"].is_string() || !statuses.count(o["status"].get<std::string>())))
        bad.push_back(where + ": bad status");
      if (o.contains("environment"))
        for (auto it = o["environment"].begin(); it != o["environment"].end(); ++it)
          if (it.key() != "comment" && it.key() != "misc")
            bad.push_back(where + ": environment property not in the schema: " + it.key());
    }
  }
  for (const auto& b : doc.value("builds", nlohmann::json::array()))
    if (b.contains("checkout_id") && !ids["checkouts"].count(b["checkout_id"].get<std::string>()))
      bad.push_back("build " + b.value("id", "?") + " refers to a missing checkout");
  for (const auto& t : doc.value("tests", nlohmann::json::array()))
    if (t.contains("build_id") && !ids["builds"].count(t["build_id"].get<std::string>()))
      bad.push_back("test " + t.value("id", "?") + " refers to a missing build");
  return bad;
}

/// Counts of a JUnit file as python3's xml.etree reads it.
struct JUnitCounts {
  bool parsed = false;
  std::string error;        ///< the parser's message when !parsed
  int suites_tests = -1, suites_failures = -1, suites_errors = -1;  ///< <testsuites> attributes
  int testcases = 0, failure_elements = 0, error_elements = 0;
};

inline JUnitCounts parse_junit(const std::filesystem::path& file) {
  static const char* kScript =
      "import sys, xml.etree.ElementTree as ET\n"
      "root = ET.parse(sys.argv[1]).getroot()\n"
      "assert root.tag == 'testsuites', root.tag\n"
      "cases = root.findall('./testsuite/testcase')\n"
      "print(root.get('tests'), root.get('failures'), root.get('errors'), len(cases),\n"
      "      sum(len(c.findall('failure')) for c in cases), sum(len(c.findall('error')) for c in cases))\n";
  JUnitCounts c;
  const auto r = util::run({"python3", "-c", kScript, file.string()});
  if (!r.ok()) {
    c.error = r.output;
    return c;
  }
  std::istringstream in(r.output);
  c.parsed = static_cast<bool>(in >> c.suites_tests >> c.suites_failures >> c.suites_errors >>
                               c.testcases >> c.failure_elements >> c.error_elements);
  if (!c.parsed) c.error = r.output;
  return c;
}

}  // namespace rlab::testing

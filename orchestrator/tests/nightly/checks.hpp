#pragma once
// Checks of the report files against their published formats, shared by the nightly tests:
// kcidb-io's own KCIDB schema checked by a real draft-07 validator, and JUnit XML parsed by
// python3's xml.etree (a real XML parser, not ours).
#include "util/paths.hpp"
#include "util/process.hpp"

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace rlab::testing {

/// The KCIDB I/O schema (kernelci/kcidb-io's LATEST, draft-07 JSON): $RLAB_KCIDB_SCHEMA, else
/// the reference export beside the checkout (../shared/reference/kcidb/kcidb-v5.3.schema.json);
/// "" when neither exists.
inline std::filesystem::path kcidb_schema() {
  namespace fs = std::filesystem;
  for (const char* c : {static_cast<const char*>(std::getenv("RLAB_KCIDB_SCHEMA")), static_cast<const char*>(RLAB_REFERENCE_KCIDB)})
    if (c && *c && fs::is_regular_file(c)) return c;
  return {};
}

/// Why the schema checks cannot run on this checkout: "" when kcidb_schema() found the schema,
/// else the reason and how to supply it (for GTEST_SKIP). kcidb-io's schema is reference
/// material this repository does not ship; a plain clone has no ../shared beside it.
inline std::string kcidb_schema_missing() {
  if (!kcidb_schema().empty()) return "";
  return "no KCIDB schema: set RLAB_KCIDB_SCHEMA to kcidb-io's schema JSON (draft-07), or put the reference "
         "export at ../shared/reference/kcidb/kcidb-v5.3.schema.json beside this repository";
}

/// rlab's own consistency of a KCIDB document, which needs no schema: every reference
/// (tests' build_id, builds' checkout_id) resolves, ids are unique per type. One message per
/// problem.
inline std::vector<std::string> kcidb_reference_problems(const nlohmann::json& doc) {
  std::vector<std::string> bad;
  std::map<std::string, std::set<std::string>> ids;
  for (const char* type : {"checkouts", "builds", "tests"})
    if (doc.contains(type) && doc[type].is_array())
      for (const auto& o : doc[type])
        if (o.contains("id") && !ids[type].insert(o["id"].dump()).second) bad.push_back(std::string(type) + ": duplicate id " + o["id"].dump());
  for (const auto& [type, ref, target] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"builds", "checkout_id", "checkouts"}, {"tests", "build_id", "builds"}})
    if (doc.contains(type) && doc[type].is_array())
      for (const auto& o : doc[type])
        if (o.contains(ref) && !ids[target].count(o[ref].dump())) bad.push_back(type + ": " + ref + " " + o[ref].dump() + " names nothing");
  return bad;
}

/// Violations of `doc` against kcidb-io's own schema, as Debian's python3-jsonschema
/// (Draft7Validator, format checks on) reports them, one per element ("<path>: <message>"),
/// then kcidb_reference_problems(). Without the schema (kcidb_schema_missing() says why) only
/// the latter: tests that check the schema itself skip first; tests that check more than the
/// schema keep their other checks on a plain clone. A validator that does not run is reported
/// as a violation naming what to install.
inline std::vector<std::string> kcidb_problems(const nlohmann::json& doc) {
  namespace fs = std::filesystem;
  std::vector<std::string> bad;
  if (const fs::path schema = kcidb_schema(); !schema.empty()) {
    const fs::path file = fs::temp_directory_path() / ("rlab-kcidb-" + std::to_string(::getpid()) + ".json");
    util::write_file_atomic(file, doc.dump());
    static constexpr const char* kScript = R"(import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
for e in sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path)):
    print("/".join(str(p) for p in e.absolute_path) + ": " + e.message.replace("\n", " "))
)";
    // Debian's interpreter and its python3-jsonschema (scripts/packages.txt), not a user's own.
    const auto r = util::run({"/usr/bin/python3", "-c", kScript, schema.string(), file.string()});
    fs::remove(file);
    if (!r.ok()) return {"the validator did not run (install python3-jsonschema): " + r.output};
    std::istringstream lines(r.output);
    for (std::string l; std::getline(lines, l);)
      if (!l.empty()) bad.push_back(l);
  }
  for (auto& p : kcidb_reference_problems(doc)) bad.push_back(std::move(p));
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

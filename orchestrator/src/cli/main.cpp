// rlab: entry point. Subcommands register themselves (see command.hpp).
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <exception>
#include <map>
#include <vector>

namespace rlab::cli {
namespace {
std::multimap<int, AddCommand>& registry() {
  static std::multimap<int, AddCommand> r;
  return r;
}
}  // namespace

Registrar::Registrar(int order, AddCommand add) { registry().emplace(order, std::move(add)); }

}  // namespace rlab::cli

int main(int argc, char** argv) {
  // Logs and errors go to stderr, so stdout carries only results (`--json` output stays JSON).
  spdlog::set_default_logger(spdlog::stderr_color_mt("rlab"));
  CLI::App app{"rlab " RLAB_VERSION " - kernel performance regression lab"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rlab " RLAB_VERSION);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Debug logging");
  app.parse_complete_callback([&] {
    if (verbose) spdlog::set_level(spdlog::level::debug);
  });
  int exit_code = rlab::cli::kOk;
  for (auto& [order, add] : rlab::cli::registry()) add(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : rlab::cli::kUsage;
  } catch (const std::exception&) {
    // An exception a subcommand let through: logged and mapped like the ones it catches
    // (bad input 2, else 3), so the same error gets the same code in every subcommand.
    const int code = rlab::cli::exit_code_of_current_exception();
    return exit_code != rlab::cli::kOk ? exit_code : code;
  }
  return exit_code;
}

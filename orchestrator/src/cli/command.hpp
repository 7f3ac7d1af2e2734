#pragma once
// Subcommand registry for the rlab CLI (CLI11).
//
// Each src/cli/<name>_cmd.cpp defines one static `rlab::cli::Registrar` that adds its
// subcommand(s) to the root app. The files are compiled into the executable itself, so the
// registrars are never dropped by the linker.
#include <CLI/CLI.hpp>

#include <functional>

namespace rlab::cli {

/// Process exit codes shared by all subcommands (documented in docs/usage.md).
enum ExitCode : int {
  kOk = 0,             ///< success
  kFailure = 1,        ///< the job ran and found failures (failed cells, a regression)
  kUsage = 2,          ///< bad command line or bad input file (nothing was started)
  kInfrastructure = 3, ///< the lab itself failed (libvirt, build, store): retry may help
  kInterrupted = 130,  ///< SIGINT/SIGTERM: this run's guests were destroyed before exit
};

/// Adds a subcommand to `app`. The callback must set the subcommand's final_callback
/// and write its exit code into `*exit_code`.
using AddCommand = std::function<void(CLI::App& app, int* exit_code)>;

/// Registers `add` at static-initialisation time; `order` sorts `rlab --help` and is unique per
/// subcommand (the files compile in unity batches: equal orders would list in batch order).
struct Registrar {
  Registrar(int order, AddCommand add);
};

}  // namespace rlab::cli

#pragma once
// One mapping from an exception to a subcommand's exit code, shared by the subcommands that
// read or write the store (run, nightly, noise, compare, detect, bisect), so that the same input error gets
// the same code everywhere.
#include <filesystem>
#include <optional>
#include <string_view>

namespace rlab::cli {

/// Logs the exception being handled (spdlog error, `prefix` before its message when not
/// empty) and returns its exit code:
///  - kUsage (2) for input the user gave, nothing started: rlab::UsageError (arguments, ids,
///    selectors, paths; metrics::PushUrlError is one), matrix::MatrixError (file:line:col),
///    store::NotAStoreError (a --db that is not an rlab store; the file is left untouched),
///    kernel_bisect::GitError (a tree or ref that is not there),
///    std::filesystem::filesystem_error for a path longer than the system allows;
///  - kInfrastructure (3) for every other exception (store, libvirt, build: retry may help),
///    std::invalid_argument included: internal code refusing a value rlab made itself is a
///    bug of the lab, logged as "internal error: ...", not bad usage.
/// Must be called inside a catch block (it rethrows the current exception to inspect it).
int exit_code_of_current_exception(std::string_view prefix = {});

/// The same for a subcommand that boots guests (run, nightly, noise): on anything but a usage
/// error it also destroys this run's domains, and answers kInterrupted (130) when Ctrl-C or
/// SIGTERM caused the failure. Must be called inside a catch block.
int exit_code_of_failed_run();

/// The results store a reading subcommand (results, compare, detect) opens:
/// matrix::store_path(db, matrix), which must exist. Otherwise logs why ("no results store
/// here", or the matrix's error) and returns nullopt with `*code` set to the exit code.
std::optional<std::filesystem::path> existing_store(const std::filesystem::path& db,
                                                    const std::filesystem::path& matrix, int* code);

}  // namespace rlab::cli

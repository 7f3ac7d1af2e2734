#include "cli/exit_codes.hpp"

#include "kernel_bisect/git.hpp"
#include "cli/command.hpp"
#include "matrix/matrix.hpp"
#include "run/interrupts.hpp"
#include "store/store.hpp"
#include "util/usage_error.hpp"

#include <spdlog/spdlog.h>

#include <exception>
#include <filesystem>
#include <stdexcept>

namespace rlab::cli {

int exit_code_of_current_exception(std::string_view prefix) {
  auto log = [&](const std::exception& e) {
    if (prefix.empty()) spdlog::error("{}", e.what());
    else spdlog::error("{}: {}", prefix, e.what());
  };
  try {
    throw;
  } catch (const matrix::MatrixError& e) {
    log(e);
    return kUsage;
  } catch (const UsageError& e) {
    log(e);
    return kUsage;
  } catch (const store::NotAStoreError& e) {
    log(e);
    return kUsage;
  } catch (const kernel_bisect::GitError& e) {
    log(e);
    return kUsage;
  } catch (const std::filesystem::filesystem_error& e) {
    // A path given that no file can have (longer than the system allows) is bad input.
    log(e);
    return e.code() == std::errc::filename_too_long ? kUsage : kInfrastructure;
  } catch (const std::invalid_argument& e) {
    // rlab's own code refused a value it made itself: a bug, not the user's input.
    if (prefix.empty()) spdlog::error("internal error: {}", e.what());
    else spdlog::error("{}: internal error: {}", prefix, e.what());
    return kInfrastructure;
  } catch (const std::exception& e) {
    log(e);
    return kInfrastructure;
  } catch (...) {
    spdlog::error("{}{}unknown exception", prefix, prefix.empty() ? "" : ": ");
    return kInfrastructure;
  }
}

int exit_code_of_failed_run() {
  const int code = exit_code_of_current_exception();
  if (code == kUsage) return code;
  run::Interrupts::instance().destroy_domains();
  return run::Interrupts::instance().stopped() ? kInterrupted : code;
}

std::optional<std::filesystem::path> existing_store(const std::filesystem::path& db,
                                                    const std::filesystem::path& matrix, int* code) {
  std::filesystem::path path;
  try {
    path = matrix::store_path(db, matrix);
  } catch (...) {
    *code = exit_code_of_current_exception();
    return std::nullopt;
  }
  if (!std::filesystem::exists(path)) {
    spdlog::error("{}: no results store here (run `rlab run` first, or pass --db)", path.string());
    *code = kUsage;
    return std::nullopt;
  }
  return path;
}

}  // namespace rlab::cli

#pragma once
// util::ProcessOptions for the build steps, spelled out positionally.
#include "util/process.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <string>

namespace rlab::build {

/// Options with a timeout and, optionally, a working directory, extra environment and a log
/// file (output appended there instead of captured).
inline util::ProcessOptions run_options(std::chrono::seconds timeout, std::filesystem::path cwd = {},
                                        std::map<std::string, std::string> env = {},
                                        std::filesystem::path log_file = {}) {
  util::ProcessOptions o;
  o.timeout = timeout;
  o.cwd = std::move(cwd);
  o.env = std::move(env);
  o.log_file = std::move(log_file);
  return o;
}

}  // namespace rlab::build

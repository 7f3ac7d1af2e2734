#include "cli/terminal_progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>
#include <string>

namespace rlab::cli {

build::Progress terminal_progress() {
  bool tty = ::isatty(STDERR_FILENO);
  return [tty, last_build = false](std::string_view phase, std::string_view detail) mutable {
    bool build = phase == "build" && detail.rfind("[", 0) == 0;
    if (tty && build) {
      std::string line = fmt::format("{:>9}: {}", phase, detail);
      if (line.size() > 118) line.resize(118);
      std::cerr << "\r\033[K" << line << std::flush;
    } else {
      if (tty && last_build) std::cerr << "\n";
      std::cerr << fmt::format("{:>9}: {}\n", phase, detail);
    }
    last_build = tty && build;
  };
}

}  // namespace rlab::cli

#pragma once
// Build progress on stderr for the subcommands that build kernels and images.
#include "build/progress.hpp"

namespace rlab::cli {

/// One line per report ("    phase: detail"); on a terminal, the build's step lines
/// overwrite each other.
build::Progress terminal_progress();

}  // namespace rlab::cli

#pragma once
// The error of input the user gave: a command-line value, a matrix, a run or session id, a
// cell selector, a path. Nothing was started, and the CLI answers "bad usage" (exit 2).
// std::invalid_argument is not that: internal code throws it for its own mistakes, which are
// the lab's failures (exit 3).
#include <stdexcept>

namespace rlab {

/// Input the user gave is wrong; what() names the input and why (e.g. "--boots 1: needs at
/// least 2 boots", "<store>: no run 7 to resume").
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rlab

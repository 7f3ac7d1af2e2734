#pragma once
// The answer about one tested commit, as git bisect knows it: good, bad or skip. Shared by the
// bisection logic, the results store (bisect_steps.result) and the reports; named once here.
#include <stdexcept>
#include <string>
#include <string_view>

namespace rlab::bisection {

/// Outcome of one tested commit.
enum class StepResult { good, bad, skip };

/// "good", "bad" or "skip" (git bisect's words, and the stored text).
constexpr std::string_view step_result_name(StepResult r) {
  switch (r) {
    case StepResult::good: return "good";
    case StepResult::bad: return "bad";
    case StepResult::skip: return "skip";
  }
  return "skip";
}

/// The StepResult named "good", "bad" or "skip"; throws std::invalid_argument for anything else.
inline StepResult step_result_from_name(std::string_view name) {
  for (const auto r : {StepResult::good, StepResult::bad, StepResult::skip})
    if (step_result_name(r) == name) return r;
  throw std::invalid_argument("step result '" + std::string(name) + "': expected good, bad or skip");
}

}  // namespace rlab::bisection

// Store: the text of each state (status.hpp).
#include "store/status.hpp"

#include "store/store.hpp"  // StoreError

#include <array>
#include <string>
#include <utility>

namespace rlab::store {
namespace {

template <class E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<BootStatus, 4> kBootStatus{{{BootStatus::pending, "pending"},
                                            {BootStatus::running, "running"},
                                            {BootStatus::done, "done"},
                                            {BootStatus::failed, "failed"}}};
constexpr Names<RunStatus, 4> kRunStatus{{{RunStatus::running, "running"},
                                          {RunStatus::done, "done"},
                                          {RunStatus::failed, "failed"},
                                          {RunStatus::interrupted, "interrupted"}}};
constexpr Names<FailurePhase, 11> kFailurePhase{{{FailurePhase::build, "build"},
                                                 {FailurePhase::boot, "boot"},
                                                 {FailurePhase::hello, "hello"},
                                                 {FailurePhase::hello_timeout, "hello-timeout"},
                                                 {FailurePhase::page_size, "page-size"},
                                                 {FailurePhase::prepare, "prepare"},
                                                 {FailurePhase::run, "run"},
                                                 {FailurePhase::timeout, "timeout"},
                                                 {FailurePhase::shutdown, "shutdown"},
                                                 {FailurePhase::host, "host"},
                                                 {FailurePhase::interrupted, "interrupted"}}};

template <class E, std::size_t N>
std::string_view name_of(const Names<E, N>& names, E v) {
  for (const auto& [e, name] : names)
    if (e == v) return name;
  return "?";
}

template <class E, std::size_t N>
E parse(const Names<E, N>& names, std::string_view text, const char* what) {
  for (const auto& [e, name] : names)
    if (name == text) return e;
  throw StoreError("'" + std::string(text) + "' is not a " + what);
}

}  // namespace

std::string_view to_string(BootStatus s) { return name_of(kBootStatus, s); }
std::string_view to_string(RunStatus s) { return name_of(kRunStatus, s); }
std::string_view to_string(FailurePhase p) { return name_of(kFailurePhase, p); }

BootStatus parse_boot_status(std::string_view text) { return parse(kBootStatus, text, "boot status"); }
RunStatus parse_run_status(std::string_view text) { return parse(kRunStatus, text, "run status"); }
FailurePhase parse_failure_phase(std::string_view text) {
  return parse(kFailurePhase, text, "failure phase");
}

}  // namespace rlab::store

#include "run/running_guests.hpp"

#include <algorithm>
#include <chrono>

namespace rlab::run {

RunningGuests::RunningGuests(unsigned budget) : budget_(std::max(budget, 1u)) {}

bool RunningGuests::enter(unsigned vcpus, const std::function<bool()>& stop) {
  std::unique_lock lock(mu_);
  for (;;) {
    if (stop && stop()) return false;
    if (running_ == 0 || running_ + vcpus <= budget_) break;
    cv_.wait_for(lock, std::chrono::milliseconds(100));
  }
  running_ += vcpus;
  return true;
}

void RunningGuests::leave(unsigned vcpus) {
  {
    std::lock_guard lock(mu_);
    running_ -= std::min(vcpus, running_);
  }
  cv_.notify_all();
}

unsigned RunningGuests::running() const {
  std::lock_guard lock(mu_);
  return running_;
}

}  // namespace rlab::run

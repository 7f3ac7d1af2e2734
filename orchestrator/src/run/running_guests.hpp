#pragma once
// The guests running on one host, counted in vCPUs from the moment they run to the moment
// they are gone. A boot creates its guest paused (QEMU started, kernel and initramfs loaded)
// as soon as the scheduler starts it, which may be while the previous guest of its slot still
// powers off; it resumes the guest only once its vCPUs fit the host's budget beside the guests
// still running. So QEMU's and libvirt's start-up overlaps the previous guest's shutdown,
// and no two guests ever run on more vCPUs than the budget.
#include <condition_variable>
#include <functional>
#include <mutex>

namespace rlab::run {

class RunningGuests {
 public:
  /// `budget`: vCPUs that may run at once on the host, >= 1.
  explicit RunningGuests(unsigned budget);

  /// Waits until `vcpus` more fit the budget (or no guest runs: a guest larger than the
  /// budget runs alone), then counts them and returns true. Returns false, counting nothing,
  /// once `stop()` is true (polled every 100 ms).
  bool enter(unsigned vcpus, const std::function<bool()>& stop);

  /// Uncounts `vcpus` that enter() counted: their guest is gone.
  void leave(unsigned vcpus);

  /// vCPUs counted now.
  unsigned running() const;

 private:
  const unsigned budget_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  unsigned running_ = 0;
};

}  // namespace rlab::run

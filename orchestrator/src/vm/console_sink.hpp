#pragma once
// A guest's serial console collected by rlab itself: rlab listens on a unix socket, QEMU
// connects to it (`<serial type='unix'><source mode='connect'>`, domain_xml with
// DomainSpec::console_socket) and everything the guest writes to ttyAMA0 is appended to a
// file of rlab's own user. For rlab run by a member of the libvirt group: the console log
// libvirt's log daemon writes otherwise is root's, mode 0600, and a QEMU-bound socket is
// QEMU's user's, neither of which that user may read.
#include <filesystem>
#include <memory>

namespace rlab::vm {

/// One guest's console, from before its domain starts until its QEMU has gone.
class ConsoleSink {
 public:
  /// Binds `socket` (at most 107 bytes; mode 0666, so QEMU's own user may connect), creates
  /// `log` empty, and starts the thread that accepts one connection and appends what arrives
  /// to `log` until QEMU closes it. Throws std::system_error when the socket, the file or the
  /// thread cannot be made, std::invalid_argument when `socket` is too long.
  ConsoleSink(const std::filesystem::path& socket, const std::filesystem::path& log);
  /// Waits up to 5 s for QEMU's end of the connection (QEMU closes it when it exits; a domain
  /// that never started never connected), stops the thread and removes the socket. Never throws.
  ~ConsoleSink();
  ConsoleSink(const ConsoleSink&) = delete;
  ConsoleSink& operator=(const ConsoleSink&) = delete;

  struct State;  ///< shared with the thread (console_sink.cpp)

 private:
  std::shared_ptr<State> state_;
};

}  // namespace rlab::vm

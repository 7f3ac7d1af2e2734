#pragma once
// Test support: a free TCP port on the loopback interface, for servers a test starts.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace rlab::testing {

/// A TCP port on 127.0.0.1 that nothing listens on right now (bound to port 0 and released;
/// another process could take it before the caller does); -1 when none can be had.
inline int free_loopback_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = -1;
  if (s >= 0 && ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  if (s >= 0) ::close(s);
  return port;
}

/// A socket listening on 127.0.0.1 that never accepts: connections complete and then get no
/// answer (a port in use, or a server that hangs). Closed with the object.
struct SilentListener {
  int fd = -1;
  int port = -1;
  SilentListener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(fd, 4) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
      port = ntohs(a.sin_port);
  }
  ~SilentListener() {
    if (fd >= 0) ::close(fd);
  }
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
};

}  // namespace rlab::testing

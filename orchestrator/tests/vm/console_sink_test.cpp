// ConsoleSink against a client that plays QEMU: it connects to the sink's socket, writes the
// console's text and closes; the log holds it all, the socket is gone afterwards.
#include "util/paths.hpp"
#include "vm/console_sink.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using rlab::vm::ConsoleSink;

namespace {

struct Dir {
  Dir() : path(fs::temp_directory_path() / ("rlab-console-" + std::to_string(::getpid()))) { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
  fs::path path;
};

// Connects to `socket` as QEMU does, sends `text` in pieces, closes.
void play_qemu(const fs::path& socket, const std::string& text) {
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strcpy(addr.sun_path, socket.c_str());
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << std::strerror(errno);
  for (std::size_t off = 0; off < text.size(); off += 1000)
    ASSERT_GT(::write(fd, text.data() + off, std::min<std::size_t>(1000, text.size() - off)), 0);
  ::close(fd);
}

}  // namespace

TEST(ConsoleSink, WritesWhatTheGuestSentIntoTheLogAndRemovesItsSocket) {
  Dir d;
  const fs::path sock = d.path / "console.sock", log = d.path / "console.log";
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "[    0.00" + std::to_string(i) + "] line of the guest's console\n";
  {
    ConsoleSink sink(sock, log);
    struct stat st {};
    ASSERT_EQ(::stat(sock.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0666u) << "QEMU's own user connects";
    play_qemu(sock, text);
  }
  EXPECT_EQ(rlab::util::read_file(log), text);
  EXPECT_FALSE(fs::exists(sock));
}

TEST(ConsoleSink, ASinkNobodyConnectedToEndsAtOnceWithAnEmptyLog) {
  Dir d;
  const auto t0 = std::chrono::steady_clock::now();
  { ConsoleSink sink(d.path / "console.sock", d.path / "console.log"); }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "a sink nobody connected to: " << s << " s\n";
  EXPECT_LT(s, 4.0) << "no wait for a QEMU that never connected";  // the wait for one that did is 5 s
  EXPECT_TRUE(fs::exists(d.path / "console.log"));
  EXPECT_EQ(fs::file_size(d.path / "console.log"), 0u);
  EXPECT_THROW(ConsoleSink(d.path / std::string(120, 's'), d.path / "console.log"), std::invalid_argument);
  EXPECT_THROW(ConsoleSink(d.path / "console.sock", d.path / "no-such-dir" / "console.log"), std::system_error);
}

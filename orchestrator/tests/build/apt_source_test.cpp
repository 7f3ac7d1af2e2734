// The Debian mirror comes from the host's apt sources (one-line and deb822 formats).
#include "build/apt_source.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

namespace rlab::build {
namespace {
namespace fs = std::filesystem;

TEST(AptMirror, OneLineSkipsSecurityAndOptions) {
  EXPECT_EQ(find_debian_mirror({{"sources.list",
                                 "# comment\n"
                                 "deb http://security.example/debian-security bookworm-security main\n"
                                 "deb-src http://src.example/debian bookworm main\n"
                                 "deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian/ bookworm main\n"}}),
            "http://mirror.example/debian");
}

TEST(AptMirror, Deb822StanzasAndDisabledOnes) {
  const char* text =
      "Types: deb\nURIs: http://off.example/debian\nSuites: bookworm\nEnabled: no\n\n"
      "Types: deb\nURIs: http://sec.example/debian-security\nSuites: bookworm-security\n\n"
      "Types: deb deb-src\nURIs: http://on.example/debian\nSuites: bookworm bookworm-updates\n"
      "Components: main\n";
  EXPECT_EQ(find_debian_mirror({{"debian.sources", text}}), "http://on.example/debian");
  // The same text in a .list file is not deb822 and yields nothing.
  EXPECT_EQ(find_debian_mirror({{"debian.list", text}}), "");
}

TEST(AptMirror, HostFilesInOrderAndMissingIsAnError) {
  auto dir = fs::temp_directory_path() / ("rlab-apt-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sources.list.d");
  EXPECT_THROW(host_debian_mirror(dir), std::runtime_error);
  util::write_file_atomic(dir / "sources.list.d/b.sources", "Types: deb\nURIs: http://b.example/d\nSuites: trixie\n");
  util::write_file_atomic(dir / "sources.list.d/a.list", "deb http://a.example/d sid main\n");
  util::write_file_atomic(dir / "sources.list.d/c.txt", "deb http://ignored.example/d sid main\n");
  EXPECT_EQ(host_debian_mirror(dir), "http://a.example/d");
  fs::remove_all(dir);
}

TEST(AptMirror, ThisHostHasOne) {
  // The lab needs the host's apt to point at a Debian mirror; this is what the builds use.
  auto uri = host_debian_mirror();
  EXPECT_EQ(uri.rfind("http", 0), 0u) << uri;
}

}  // namespace
}  // namespace rlab::build

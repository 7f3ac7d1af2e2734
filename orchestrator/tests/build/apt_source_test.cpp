// The Debian mirror comes from RLAB_DEBIAN_MIRROR or the host's apt sources (one-line and
// deb822 formats); a host whose sources have no Debian archive (Ubuntu) is told to set it.
#include "build/apt_source.hpp"

#include "util/paths.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdlib.h>
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

// Ubuntu 24.04's arm64 sources: deb822, ports mirror, Ubuntu's suites only.
constexpr const char* kUbuntuPorts =
    "Types: deb\nURIs: http://ports.example/ubuntu-ports/\nSuites: noble noble-updates noble-backports\n"
    "Components: main universe\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n\n"
    "Types: deb\nURIs: http://ports.example/ubuntu-ports/\nSuites: noble-security\nComponents: main\n";

struct EtcApt {
  fs::path dir = fs::temp_directory_path() / ("rlab-apt-etc-" + std::to_string(::getpid()));
  EtcApt() {
    fs::remove_all(dir);
    fs::create_directories(dir / "sources.list.d");
  }
  ~EtcApt() { fs::remove_all(dir); }
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(AptMirror, OnlyDebianReleaseSuitesQualify) {
  EXPECT_EQ(find_debian_mirror({{"ubuntu.sources", kUbuntuPorts}}), "");
  EXPECT_EQ(find_debian_mirror({{"sources.list", "deb http://ports.example/ubuntu-ports jammy main\n"}}), "");
  // A Debian entry after Ubuntu's is found.
  EXPECT_EQ(find_debian_mirror({{"ubuntu.sources", kUbuntuPorts},
                                {"zz-debian.list", "deb http://d.example/debian trixie main\n"}}),
            "http://d.example/debian");
  for (const char* s : {"bookworm", "trixie", "forky", "sid", "stable", "unstable", "testing"})
    EXPECT_TRUE(is_debian_release_suite(s)) << s;
  for (const char* s : {"noble", "jammy", "focal", "bookworm-security", "nodistro"})
    EXPECT_FALSE(is_debian_release_suite(s)) << s;
}

TEST(AptMirror, AnUbuntuHostIsToldToSetRlabDebianMirror) {
  EtcApt etc;
  util::write_file_atomic(etc.dir / "sources.list.d/ubuntu.sources", kUbuntuPorts);
  const auto message = error_of([&] { host_debian_mirror(etc.dir); });
  EXPECT_NE(message.find("noble at http://ports.example/ubuntu-ports"), std::string::npos) << message;
  EXPECT_NE(message.find("set RLAB_DEBIAN_MIRROR"), std::string::npos) << message;
  EXPECT_EQ(error_of([&] { select_debian_mirror(std::nullopt, etc.dir); }), message);
}

TEST(AptMirror, NoSourcesAtAllNamesTheSettingToo) {
  EtcApt etc;
  const auto message = error_of([&] { host_debian_mirror(etc.dir); });
  EXPECT_NE(message.find("no Debian mirror found"), std::string::npos) << message;
  EXPECT_NE(message.find("RLAB_DEBIAN_MIRROR"), std::string::npos) << message;
}

TEST(AptMirror, TheSettingWinsOverTheHostSources) {
  EtcApt etc;
  util::write_file_atomic(etc.dir / "sources.list.d/ubuntu.sources", kUbuntuPorts);
  EXPECT_EQ(select_debian_mirror("http://d.example/debian/", etc.dir), "http://d.example/debian");
  EXPECT_EQ(select_debian_mirror("https://d.example/debian", etc.dir), "https://d.example/debian");
  EXPECT_EQ(select_debian_mirror("file:/srv/debian", etc.dir), "file:/srv/debian");
  util::write_file_atomic(etc.dir / "sources.list", "deb http://host.example/debian bookworm main\n");
  EXPECT_EQ(select_debian_mirror(std::nullopt, etc.dir), "http://host.example/debian");
  EXPECT_EQ(select_debian_mirror("http://d.example/debian", etc.dir), "http://d.example/debian");
}

TEST(AptMirror, ABadSettingIsRefusedByName) {
  EtcApt etc;
  for (const char* bad : {"d.example/debian", "ftp://d.example/debian", "http://", "http:///",
                          "http://d.example/debian trixie main", "http://d.example/debian\ndeb x",
                          "[trusted=yes] http://d.example/debian"}) {
    const auto message = error_of([&] { select_debian_mirror(std::string(bad), etc.dir); });
    EXPECT_EQ(message.rfind("RLAB_DEBIAN_MIRROR='", 0), 0u) << bad << ": " << message;
    EXPECT_NE(message.find("is not a Debian archive's URI"), std::string::npos) << message;
  }
}

TEST(AptMirror, RlabDebianMirrorIsTheSettingDebianMirrorReads) {
  const char* before = std::getenv("RLAB_DEBIAN_MIRROR");
  const std::string saved = before ? before : "";
  ::setenv("RLAB_DEBIAN_MIRROR", "http://env.example/debian/", 1);
  EXPECT_EQ(debian_mirror(), "http://env.example/debian");
  ::setenv("RLAB_DEBIAN_MIRROR", "not a uri", 1);
  EXPECT_NE(error_of([] { debian_mirror(); }).find("RLAB_DEBIAN_MIRROR='not a uri'"), std::string::npos);
  if (before) ::setenv("RLAB_DEBIAN_MIRROR", saved.c_str(), 1);
  else ::unsetenv("RLAB_DEBIAN_MIRROR");
}

TEST(AptMirror, ThisMachineHasOne) {
  // The lab needs a Debian mirror (RLAB_DEBIAN_MIRROR, or the host's apt sources); this is
  // what the builds use.
  auto uri = debian_mirror();
  EXPECT_EQ(uri.rfind("http", 0), 0u) << uri;
}

}  // namespace
}  // namespace rlab::build

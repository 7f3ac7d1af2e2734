#include "util/paths.hpp"

#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace rlab::util {

namespace {

// $<own_var>, else $<xdg_var>/rlab, else $HOME/<home_sub>/rlab; created.
std::filesystem::path rlab_dir(const char* own_var, const char* xdg_var, const char* home_sub) {
  std::filesystem::path dir;
  if (const char* d = std::getenv(own_var); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv(xdg_var); x && *x) {
    dir = std::filesystem::path(x) / "rlab";
  } else {
    const char* home = std::getenv("HOME");
    dir = std::filesystem::path(home && *home ? home : "/root") / home_sub / "rlab";
  }
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

std::filesystem::path cache_dir() { return rlab_dir("RLAB_CACHE_DIR", "XDG_CACHE_HOME", ".cache"); }

std::filesystem::path state_dir() { return rlab_dir("RLAB_STATE_DIR", "XDG_STATE_HOME", ".local/state"); }

std::optional<std::filesystem::path> installed_prefix() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.parent_path().filename() != "bin") return std::nullopt;
  const auto prefix = exe.parent_path().parent_path();
  if (!std::filesystem::is_regular_file(prefix / "share/rlab/matrix.yaml", ec)) return std::nullopt;
  return prefix;
}

std::filesystem::path source_dir() {
  if (const char* d = std::getenv("RLAB_SOURCE_DIR"); d && *d) return d;
  if (const auto prefix = installed_prefix()) return *prefix / "share/rlab";
  return RLAB_SOURCE_DIR;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file_atomic(const std::filesystem::path& p, std::string_view data) {
  auto tmp = p;
  tmp += ".tmp." + std::to_string(::getpid());
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (out) out.write(data.data(), static_cast<std::streamsize>(data.size()));
  // A full disk often shows only when the buffer is written out: close before judging.
  if (out.is_open()) out.close();
  if (!out) {
    const int err = errno;
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(err ? err : EIO));
  }
  std::filesystem::rename(tmp, p);
}

}  // namespace rlab::util

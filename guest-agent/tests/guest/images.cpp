#include "guest/images.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness.hpp"

#ifndef RLAB_BIN_DEFAULT
#define RLAB_BIN_DEFAULT ""
#endif

namespace rlab::agent::test {
namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

/// The last `n` lines of `text` (all of it when shorter).
std::string tail(const std::string& text, int n) {
  std::size_t pos = text.size();
  if (pos > 0 && text[pos - 1] == '\n') --pos;  // a final newline ends the last line
  while (n-- > 0) {
    if (pos == 0) return text;
    pos = text.rfind('\n', pos - 1);
    if (pos == std::string::npos) return text;
  }
  return text.substr(pos + 1);
}

fs::path existing(const std::string& path, const std::string& what) {
  if (!fs::is_regular_file(path)) throw std::runtime_error(what + " " + path + " is not a file");
  return path;
}

}  // namespace

GuestSpec guest_spec(const std::string& kernel_name) {
  GuestSpec s;
  const std::string k = env("RLAB_GUEST_KERNEL"), i = env("RLAB_GUEST_INITRAMFS");
  if (!k.empty() || !i.empty()) {
    if (k.empty() || i.empty())
      throw std::runtime_error("RLAB_GUEST_KERNEL and RLAB_GUEST_INITRAMFS override the cached images together; "
                               "only " + std::string(k.empty() ? "RLAB_GUEST_INITRAMFS" : "RLAB_GUEST_KERNEL") +
                               " is set");
    s.kernel = existing(k, "RLAB_GUEST_KERNEL");
    s.initramfs = existing(i, "RLAB_GUEST_INITRAMFS");
    return s;
  }
  std::string rlab = env("RLAB_BIN");
  if (rlab.empty()) rlab = RLAB_BIN_DEFAULT;
  if (rlab.empty())
    throw std::runtime_error("no rlab to build the guest images with: set RLAB_BIN (this tree was configured "
                             "without the orchestrator), or RLAB_GUEST_KERNEL + RLAB_GUEST_INITRAMFS");
  std::vector<std::string> argv{rlab, "images", "build", kernel_name};
  if (const std::string agent = env("RLAB_AGENT_AARCH64"); !agent.empty()) {
    argv.push_back("--agent");
    argv.push_back(agent);
  }
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
  int status = 0;
  std::string err, out;
  try {
    out = run_capture(argv, &status, &err);
  } catch (const std::exception& e) {
    throw std::runtime_error("the guest images could not be produced: " + std::string(e.what()));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("the guest images could not be produced: `" + command + "` " +
                             (WIFEXITED(status) ? "exited " + std::to_string(WEXITSTATUS(status))
                                                : "was killed by signal " + std::to_string(WTERMSIG(status))) +
                             "; its last messages:\n" + tail(err + out, 20));  // rlab logs errors on stdout
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(out);
    s.kernel = existing(j.at("kernel_image").get<std::string>(), "kernel Image");
    s.initramfs = existing(j.at("initramfs").get<std::string>(), "initramfs");
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("`" + command + "` printed no usable image JSON (" + e.what() + "):\n" + out);
  }
  return s;
}

}  // namespace rlab::agent::test

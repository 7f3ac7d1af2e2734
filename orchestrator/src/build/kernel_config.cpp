#include "build/kernel_config.hpp"

#include "util/paths.hpp"
#include "build/run_options.hpp"
#include "util/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>

namespace rlab::build {
namespace fs = std::filesystem;

std::vector<fs::path> fragment_paths(const KernelSpec& spec, const fs::path& images_dir) {
  if (spec.page_size_kib != 4 && spec.page_size_kib != 16 && spec.page_size_kib != 64)
    throw std::invalid_argument(fmt::format("kernel {}: page size {} KiB is not one of 4, 16, 64",
                                            spec.name, spec.page_size_kib));
  std::vector<fs::path> out{required_config_path(images_dir)};
  if (spec.base_config.empty()) out.push_back(images_dir / "kernel/base.config");
  out.push_back(images_dir / "kernel" / fmt::format("{}k.config", spec.page_size_kib));
  out.insert(out.end(), spec.fragments.begin(), spec.fragments.end());
  for (const auto& f : out)
    if (!fs::is_regular_file(f))
      throw std::runtime_error("kernel " + spec.name + ": config fragment " + f.string() +
                               " does not exist");
  return out;
}

std::vector<ConfigOption> parse_fragment(std::string_view text, const fs::path& path) {
  static const std::regex set_re(R"(^(CONFIG_[A-Za-z0-9_]+)=(.*)$)");
  static const std::regex unset_re(R"(^# (CONFIG_[A-Za-z0-9_]+) is not set\s*$)");
  std::vector<ConfigOption> out;
  std::istringstream in{std::string(text)};
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (std::regex_match(line, m, set_re)) {
      std::string v = m[2];
      if (v.empty())
        throw std::runtime_error(fmt::format("{}:{}: {} has no value", path.string(), n, m[1].str()));
      out.push_back({m[1], v, path, n});
    } else if (std::regex_match(line, m, unset_re)) {
      out.push_back({m[1], "n", path, n});
    } else if (line.find_first_not_of(" \t") == std::string::npos || line[0] == '#') {
      continue;
    } else {
      throw std::runtime_error(fmt::format(
          "{}:{}: not a config line (expected CONFIG_X=value or # CONFIG_X is not set): {}",
          path.string(), n, line));
    }
  }
  return out;
}

std::vector<ConfigOption> read_fragment(const fs::path& path) {
  return parse_fragment(util::read_file(path), path);
}

std::map<std::string, std::string> parse_dot_config(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const auto& o : parse_fragment(text, ".config")) out[o.name] = o.value;
  return out;
}

std::vector<ConfigMismatch> check_config(const std::vector<ConfigOption>& requested,
                                         const std::map<std::string, std::string>& final_config) {
  std::map<std::string, ConfigOption> last;  // later fragments win, as in merge_config.sh
  std::vector<std::string> order;
  for (const auto& o : requested) {
    if (!last.count(o.name)) order.push_back(o.name);
    last[o.name] = o;
  }
  std::vector<ConfigMismatch> out;
  for (const auto& name : order) {
    const auto& want = last[name];
    auto it = final_config.find(name);
    std::string actual = it == final_config.end() ? "n" : it->second;
    if (actual != want.value) out.push_back({want, actual});
  }
  return out;
}

void throw_if_mismatched(const std::vector<ConfigMismatch>& mismatches) {
  if (mismatches.empty()) return;
  std::string msg = fmt::format("{} requested kernel option(s) did not survive olddefconfig:",
                                mismatches.size());
  for (const auto& m : mismatches)
    msg += fmt::format("\n  {}={} ({}:{}) is {} in the final .config", m.requested.name,
                       m.requested.value, m.requested.fragment.string(), m.requested.line,
                       m.actual == "n" ? std::string("not set") : "=" + m.actual);
  msg += "\n(an unmet dependency or an option this kernel version does not have)";
  ConfigError e(msg);
  e.mismatches = mismatches;
  throw e;
}

void configure_kernel(const fs::path& src_dir, const fs::path& obj_dir,
                      const std::vector<fs::path>& fragments,
                      const std::vector<std::string>& make_args,
                      const std::map<std::string, std::string>& env,
                      const fs::path& base_config) {
  fs::create_directories(obj_dir);
  std::vector<ConfigOption> requested;
  for (const auto& f : fragments) {
    auto opts = read_fragment(f);
    requested.insert(requested.end(), opts.begin(), opts.end());
  }
  // merge_config.sh reads ARCH/CROSS_COMPILE from the environment and runs make itself.
  // Without -n the first file is the base and alldefconfig fills in what it does not say.
  std::vector<std::string> merge{"scripts/kconfig/merge_config.sh"};
  if (base_config.empty()) merge.push_back("-n");
  merge.insert(merge.end(), {"-O", obj_dir.string()});
  if (!base_config.empty()) merge.push_back(base_config.string());
  for (const auto& f : fragments) merge.push_back(f.string());
  util::run_checked(merge, run_options(std::chrono::seconds(900), src_dir, env));
  std::vector<std::string> olddef{"make", "-C", src_dir.string(), "O=" + obj_dir.string()};
  olddef.insert(olddef.end(), make_args.begin(), make_args.end());
  olddef.push_back("olddefconfig");
  util::run_checked(olddef, run_options(std::chrono::seconds(900), {}, env));
  throw_if_mismatched(check_config(requested, parse_dot_config(util::read_file(obj_dir / ".config"))));
}

fs::path required_config_path(const fs::path& images_dir) { return images_dir / "kernel/required.config"; }

std::vector<ConfigOption> required_options(const fs::path& images_dir) {
  const fs::path p = required_config_path(images_dir);
  if (!fs::is_regular_file(p)) throw std::runtime_error(p.string() + " does not exist");
  return read_fragment(p);
}

unsigned config_page_size_kib(const std::map<std::string, std::string>& config) {
  unsigned found = 0;
  for (unsigned kib : {4u, 16u, 64u}) {
    auto it = config.find(fmt::format("CONFIG_ARM64_{}K_PAGES", kib));
    if (it == config.end() || it->second != "y") continue;
    if (found) return 0;
    found = kib;
  }
  return found;
}

std::vector<ConfigMismatch> missing_required(const std::map<std::string, std::string>& config,
                                             const std::vector<ConfigOption>& required) {
  return check_config(required, config);
}

std::string describe_missing(const std::vector<ConfigMismatch>& missing) {
  std::string out;
  for (const auto& m : missing)
    out += fmt::format("{}{} is {}, needs ={} ({}:{})", out.empty() ? "" : "; ", m.requested.name,
                       m.actual == "n" ? std::string("not set") : "=" + m.actual, m.requested.value,
                       m.requested.fragment.filename().string(), m.requested.line);
  return out;
}

std::vector<ConfigChange> config_changes(const std::map<std::string, std::string>& given,
                                         const std::map<std::string, std::string>& final_config,
                                         const std::vector<ConfigOption>& requested) {
  std::map<std::string, const ConfigOption*> asked;  // later fragments win
  for (const auto& o : requested) asked[o.name] = &o;
  auto value = [](const std::map<std::string, std::string>& m, const std::string& name) {
    auto it = m.find(name);
    return it == m.end() ? std::string("n") : it->second;
  };
  std::vector<ConfigChange> out;
  auto consider = [&](const std::string& name) {
    ConfigChange c{name, value(given, name), value(final_config, name), std::nullopt};
    if (c.from == c.to) return;
    if (auto a = asked.find(name); a != asked.end()) c.requested = *a->second;
    out.push_back(std::move(c));
  };
  for (const auto& [name, v] : given) consider(name);
  for (const auto& [name, v] : final_config)
    if (!given.count(name)) consider(name);
  std::sort(out.begin(), out.end(), [](const ConfigChange& a, const ConfigChange& b) { return a.name < b.name; });
  return out;
}

std::string format_change(const ConfigChange& c) {
  const std::string why = c.requested ? fmt::format("{}:{}", c.requested->fragment.filename().string(), c.requested->line)
                                      : std::string("olddefconfig");
  return fmt::format("{} {} -> {} ({})", c.name, c.from, c.to, why);
}

}  // namespace rlab::build

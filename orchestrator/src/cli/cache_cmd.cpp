// `rlab cache` and `rlab cache free`: what the artifact cache holds per kind, its budget, and
// freeing it least recently used first (build/cache_budget.hpp, docs/operations.md "Disk").
#include "build/cache_budget.hpp"
#include "cli/command.hpp"
#include "matrix/matrix.hpp"
#include "util/paths.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

namespace rlab::cli {
namespace {
namespace fs = std::filesystem;

double gib(std::uintmax_t b) { return static_cast<double>(b) / (1u << 30); }

std::string when(fs::file_time_type t) {
  if (t == fs::file_time_type{}) return "-";
  const auto sys = std::chrono::file_clock::to_sys(t);
  return fmt::format("{:%Y-%m-%d %H:%M}", fmt::gmtime(std::chrono::system_clock::to_time_t(
                                                std::chrono::time_point_cast<std::chrono::system_clock::duration>(sys))));
}

// The matrix's cache.max_gib into the budget when the file exists; false after printing why
// it could not be read.
bool use_matrix(const std::string& path) {
  if (path.empty() || !fs::exists(path)) return true;
  try {
    matrix::LoadOptions lo;
    lo.check_paths = false;
    const auto m = matrix::load_matrix(path, lo);
    build::set_matrix_cache_gib(m.cache_max_gib, m.path.string());
    return true;
  } catch (const matrix::MatrixError& e) {
    std::cerr << "rlab cache: " << e.what() << "\n";
    return false;
  }
}

struct KindTotal {
  std::size_t items = 0;
  std::uintmax_t bytes = 0;
  fs::file_time_type oldest = fs::file_time_type::max(), newest = fs::file_time_type::min();
};

int show(bool as_json) {
  const fs::path root = util::cache_dir();
  const auto budget = build::cache_budget(root);
  const auto usage = build::cache_usage(root);
  std::map<std::string, KindTotal> kinds;
  for (const auto& i : usage.items) {
    auto& k = kinds[std::string(build::to_string(i.kind))];
    ++k.items;
    k.bytes += i.bytes;
    k.oldest = std::min(k.oldest, i.last_used);
    k.newest = std::max(k.newest, i.last_used);
  }
  const std::uintmax_t total = usage.total(), ccache = usage.ccache;
  if (as_json) {
    nlohmann::json out{{"cache", root.string()}, {"budget_bytes", budget.bytes}, {"budget_from", budget.from},
                       {"total_bytes", total}, {"ccache_bytes", ccache},
                       {"in_grace_bytes", build::in_grace_bytes(usage)}, {"kinds", nlohmann::json::object()}};
    for (const auto& [name, k] : kinds)
      out["kinds"][name] = {{"items", k.items}, {"bytes", k.bytes}, {"oldest_use", when(k.oldest)},
                            {"newest_use", when(k.newest)}};
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  std::cout << fmt::format("{:<11} {:>5} {:>10}  {:<16}  {}\n", "KIND", "ITEMS", "SIZE", "OLDEST USE", "NEWEST USE");
  for (const auto& [name, k] : kinds)
    std::cout << fmt::format("{:<11} {:>5} {:>6.1f} GiB  {:<16}  {}\n", name, k.items, gib(k.bytes), when(k.oldest),
                             when(k.newest));
  std::cout << fmt::format("{:<11} {:>5} {:>6.1f} GiB  (bounded by ccache at {:.1f} GiB)\n", "ccache", "", gib(ccache),
                           gib(build::ccache_max_bytes(budget.bytes)));
  std::cout << fmt::format("{:<11} {:>5} {:>6.1f} GiB\n", "other", "", gib(usage.other));
  std::cout << fmt::format("cache {}: {:.1f} GiB of a {:.1f} GiB budget ({}); {:.1f} GiB used in the last {} min "
                           "(not freed before then)\n",
                           root.string(), gib(total), gib(budget.bytes), budget.from, gib(build::in_grace_bytes(usage)),
                           build::kInUseGrace.count());
  return kOk;
}

int free_cache(std::optional<double> to_gib, bool dry_run) {
  const fs::path root = util::cache_dir();
  const auto budget = build::cache_budget(root);
  const std::uintmax_t target =
      to_gib ? static_cast<std::uintmax_t>(*to_gib * (1u << 30)) : budget.bytes;
  const auto r = build::enforce_budget(root, target, dry_run);
  for (const auto& i : r.freed)
    std::cout << fmt::format("{} {:<10} {:<16} {:>7.2f} GiB  last used {}\n", dry_run ? "would free" : "freed",
                             build::to_string(i.kind), i.key.substr(0, 16), gib(i.bytes), when(i.last_used));
  for (const auto& i : r.busy)
    std::cout << fmt::format("busy       {:<10} {:<16} {:>7.2f} GiB  (a live process holds its lock)\n", build::to_string(i.kind),
                             i.key.substr(0, 16), gib(i.bytes));
  std::cout << fmt::format("{:.1f} GiB -> {:.1f} GiB{} (target {:.1f} GiB: {}); items used in the last {} min are kept\n",
                           gib(r.before), gib(r.after), dry_run ? " (dry run: nothing removed)" : "", gib(target),
                           to_gib ? "--to-gib" : budget.from, build::kInUseGrace.count());
  // Over the target with nothing left that may go now (in use, just used): say so in the code.
  return r.after <= target || (r.busy.empty() && r.kept_recent == 0) ? kOk : kFailure;
}

Registrar cache_registrar(32, [](CLI::App& app, int* exit_code) {
  auto* cache = app.add_subcommand("cache", "What the artifact cache holds per kind and its disk budget; "
                                            "`free` frees it least recently used first");
  auto matrix_file = std::make_shared<std::string>((util::source_dir() / "matrix.yaml").string());
  auto as_json = std::make_shared<bool>(false);
  cache->add_option("--matrix", *matrix_file, "Matrix whose cache.max_gib sets the budget (if the file exists)")
      ->capture_default_str();
  cache->add_flag("--json", *as_json, "JSON output");
  auto* fr = cache->add_subcommand("free", "Free build trees, then sources, then cache entries, least recently "
                                           "used first, down to the budget");
  auto dry_run = std::make_shared<bool>(false);
  auto to_gib = std::make_shared<double>(-1);
  fr->add_flag("--dry-run", *dry_run, "Say what would be freed; remove nothing");
  fr->add_option("--to-gib", *to_gib, "Free down to this many GiB instead of the budget")
      ->check(CLI::Range(0.0, 1e6));
  cache->final_callback([=] {
    if (!use_matrix(*matrix_file)) {
      *exit_code = kUsage;
      return;
    }
    try {
      build::cache_budget(util::cache_dir());
    } catch (const std::runtime_error& e) {  // a bad RLAB_CACHE_MAX_GIB
      std::cerr << "rlab cache: " << e.what() << "\n";
      *exit_code = kUsage;
      return;
    }
    *exit_code = fr->parsed() ? free_cache(*to_gib >= 0 ? std::optional(*to_gib) : std::nullopt, *dry_run)
                              : show(*as_json);
  });
});

}  // namespace
}  // namespace rlab::cli

// The cache's disk budget: what goes first, what is never freed (locked, just used), hard
// links counted once, dry runs, the budget's sources; and `rlab cache` through the binary.
#include "build/artifact_cache.hpp"
#include "build/cache_budget.hpp"
#include "util/file_lock.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace rlab::build;
using namespace std::chrono_literals;

namespace {

constexpr std::uintmax_t kMiB = 1u << 20;

// A file of `mib` MiB of real (non-sparse) blocks.
void file_of(const fs::path& p, std::uintmax_t mib) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  const std::string block(kMiB, 'x');
  for (std::uintmax_t i = 0; i < mib; ++i) out << block;
}

void age(const fs::path& p, std::chrono::hours h) { fs::last_write_time(p, fs::file_time_type::clock::now() - h); }

struct TempCache {
  fs::path root = fs::temp_directory_path() / ("rlab-budget-" + std::to_string(::getpid()));
  TempCache() { fs::remove_all(root); }
  ~TempCache() { fs::remove_all(root); }
  // A complete entry of `kind` holding `mib` MiB, last used `hours` ago.
  fs::path entry(CacheKind kind, const std::string& key, std::uintmax_t mib, int hours) {
    auto [dir, hit] = ensure_entry(root, kind, key, [&](const fs::path& staging) {
      file_of(staging / "blob", mib);
      return nlohmann::json{{"kind", to_string(kind)}};
    });
    age(dir / "manifest.json", std::chrono::hours(hours));
    return dir;
  }
  fs::path folder(const std::string& sub, const std::string& name, std::uintmax_t mib, int hours) {
    const fs::path d = root / sub / name;
    file_of(d / "blob", mib);
    age(d, std::chrono::hours(hours));
    return d;
  }
};

CacheItem item(CacheKind kind, std::string key, std::uintmax_t mib, int hours_ago) {
  return {kind, key, "/c/" + key, mib * kMiB, fs::file_time_type::clock::now() - std::chrono::hours(hours_ago)};
}

std::vector<std::string> keys(const std::vector<CacheItem>& v) {
  std::vector<std::string> out;
  for (const auto& i : v) out.push_back(i.key);
  return out;
}

}  // namespace

TEST(EvictionPlan, BuildTreesThenSourcesThenEntriesEachLeastRecentlyUsedFirst) {
  const auto protect_after = fs::file_time_type::clock::now() - kInUseGrace;
  std::vector<CacheItem> items{item(CacheKind::kernel, "k-old", 100, 90), item(CacheKind::build_tree, "t-new", 100, 2),
                               item(CacheKind::source, "s", 100, 50), item(CacheKind::build_tree, "t-old", 100, 5),
                               item(CacheKind::host_disk, "h", 100, 10)};
  EXPECT_EQ(keys(eviction_plan(items, 500 * kMiB, protect_after)), std::vector<std::string>{}) << "within budget";
  EXPECT_EQ(keys(eviction_plan(items, 250 * kMiB, protect_after)), (std::vector<std::string>{"t-old", "t-new", "s"}));
  EXPECT_EQ(keys(eviction_plan(items, 0, protect_after)),
            (std::vector<std::string>{"t-old", "t-new", "s", "k-old", "h"}));
}

TEST(EvictionPlan, AnEntryUsedWithinTheGraceIsNeverPlannedButABuildTreeIs) {
  const auto now = fs::file_time_type::clock::now();
  std::vector<CacheItem> items{item(CacheKind::image, "busy", 100, 0), item(CacheKind::kernel, "k", 100, 3),
                               item(CacheKind::build_tree, "just-built", 100, 0)};
  items[0].last_used = now - 1min;
  items[2].last_used = now - 1min;
  const auto plan = eviction_plan(items, 0, now - kInUseGrace);
  EXPECT_EQ(keys(plan), (std::vector<std::string>{"just-built", "k"}))
      << "falls short of the target rather than take the fresh image; a build tree is only opened under its lock";
}

TEST(CacheBudget, InGraceBytesAreTheRecentlyUsedEntries) {
  CacheUsage u;
  u.items = {item(CacheKind::kernel, "new", 3, 0), item(CacheKind::kernel, "old", 5, 2), item(CacheKind::build_tree, "t", 7, 0),
             item(CacheKind::source, "s", 11, 0)};
  u.ccache = 13 * kMiB;
  EXPECT_EQ(in_grace_bytes(u), 3 * kMiB) << "the new kernel; not the tree, the source (both read under their locks), the old kernel or ccache";
}

TEST(CacheBudget, FreesOnDiskLeastRecentlyUsedAndKeepsWhatIsLockedOrJustUsed) {
  TempCache c;
  const fs::path old_tree = c.folder("kbuild", "aaa", 8, 48);
  const fs::path locked_tree = c.folder("kbuild", "bbb", 8, 40);
  const fs::path fresh_tree = c.folder("kbuild", "ccc", 8, 0);
  const fs::path old_kernel = c.entry(CacheKind::kernel, "k1", 8, 30);
  const fs::path new_kernel = c.entry(CacheKind::kernel, "k2", 8, 2);
  rlab::util::FileLock building(c.root / "locks" / "kernel-bbb.lock");  // a build of bbb runs

  const auto dry = enforce_budget(c.root, 20 * kMiB, true);
  EXPECT_TRUE(dry.dry_run);
  EXPECT_EQ(keys(dry.freed), (std::vector<std::string>{"aaa", "ccc"})) << "build trees first, a fresh one too";
  EXPECT_EQ(keys(dry.busy), std::vector<std::string>{"bbb"});
  for (const auto& d : {old_tree, locked_tree, fresh_tree, old_kernel, new_kernel}) EXPECT_TRUE(fs::exists(d)) << d;

  const auto r = enforce_budget(c.root, 20 * kMiB);
  EXPECT_GE(r.before, 40 * kMiB);
  EXPECT_FALSE(fs::exists(old_tree));
  EXPECT_FALSE(fs::exists(fresh_tree)) << "only its build, holding its lock, opens a tree";
  EXPECT_TRUE(fs::exists(locked_tree)) << "a live build's tree is never freed";
  EXPECT_TRUE(entry_complete(old_kernel)) << "the budget was met on paper before it";
  EXPECT_TRUE(entry_complete(new_kernel));
  EXPECT_LT(r.after, r.before - 15 * kMiB);
  for (const auto& e : fs::directory_iterator(c.root / "kernels"))
    EXPECT_EQ(e.path().filename().string().find(".partial-"), std::string::npos) << e.path();
}

TEST(CacheBudget, ASourceBeingReadIsNeverFreedAndOneNotBeingReadIsEvenIfJustFetched) {
  TempCache c;
  const fs::path reading = c.folder("sources", "git-a", 8, 0);
  const fs::path fetched = c.folder("sources", "git-b", 8, 0);
  rlab::util::FileLock lock(c.root / "locks" / "source-git-a.lock");  // a build links it now
  const auto r = enforce_budget(c.root, 0);
  EXPECT_TRUE(fs::exists(reading));
  EXPECT_EQ(keys(r.busy), std::vector<std::string>{"git-a"});
  EXPECT_FALSE(fs::exists(fetched)) << "read under its lock only: no grace needed";
}

TEST(CacheBudget, AHitMarksTheEntryUsedSoItOutlivesOlderOnes) {
  TempCache c;
  c.entry(CacheKind::kernel, "k1", 4, 30);
  c.entry(CacheKind::kernel, "k2", 4, 20);
  auto [dir, hit] = ensure_entry(c.root, CacheKind::kernel, "k1", [](const fs::path&) -> nlohmann::json {
    throw std::logic_error("a hit does not build");
  });
  EXPECT_TRUE(hit);
  age(dir / "manifest.json", 1h);  // used an hour ago: past the grace, but after k2
  enforce_budget(c.root, 6 * kMiB);
  EXPECT_TRUE(entry_complete(c.root / "kernels/k1"));
  EXPECT_FALSE(fs::exists(c.root / "kernels/k2"));
}

TEST(CacheBudget, HardLinksBetweenASourceAndItsBuildTreeAreSharedAndCountOnce) {
  TempCache c;
  const fs::path src = c.folder("sources", "linux", 10, 5);
  fs::create_directories(c.root / "kbuild/k/src");
  fs::create_hard_link(src / "blob", c.root / "kbuild/k/src/blob");
  file_of(c.root / "kbuild/k/obj/vmlinux", 2);
  const auto usage = cache_usage(c.root);
  const auto& items = usage.items;
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].kind, CacheKind::source);
  EXPECT_EQ(items[0].bytes, 5 * kMiB) << "the linked file is shared";
  EXPECT_EQ(items[1].kind, CacheKind::build_tree);
  EXPECT_EQ(items[1].bytes, 7 * kMiB);
  EXPECT_LT(usage.total(), 12 * kMiB + 64 * 1024) << "what the disk holds, once";
  EXPECT_TRUE(fs::exists(c.root / "sizes.json")) << "sizes are kept for the next scan";
}

TEST(CacheBudget, TheBudgetComesFromTheEnvironmentThenTheMatrixThenTheDisk) {
  ::unsetenv("RLAB_CACHE_MAX_GIB");
  set_matrix_cache_gib(std::nullopt);
  const auto disk = cache_budget(fs::temp_directory_path());
  EXPECT_NE(disk.from.find("half of its filesystem"), std::string::npos) << disk.from;
  EXPECT_GT(disk.bytes, 0u);
  set_matrix_cache_gib(2.5, "/m.yaml");
  EXPECT_EQ(cache_budget("/nowhere").bytes, std::uintmax_t{5} << 29);
  EXPECT_EQ(cache_budget("/nowhere").from, "cache.max_gib of /m.yaml");
  ::setenv("RLAB_CACHE_MAX_GIB", "4", 1);
  EXPECT_EQ(cache_budget("/nowhere").bytes, std::uintmax_t{4} << 30);
  for (const char* bad : {"0", "-3", "lots", "2x", "2"}) {
    ::setenv("RLAB_CACHE_MAX_GIB", bad, 1);
    EXPECT_THROW(cache_budget("/nowhere"), std::runtime_error) << bad;
  }
  ::setenv("RLAB_CACHE_MAX_GIB", "0.5", 1);
  try {
    cache_budget("/nowhere");
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("below what one kernel build holds at once: at least 3 GiB"),
              std::string::npos) << e.what();
  }
  ::unsetenv("RLAB_CACHE_MAX_GIB");
  set_matrix_cache_gib(std::nullopt);
  EXPECT_EQ(ccache_max_bytes(std::uintmax_t{500} << 30), std::uintmax_t{20} << 30);
  EXPECT_EQ(ccache_max_bytes(std::uintmax_t{2} << 30), std::uintmax_t{1} << 30);
}

TEST(CacheCli, ShowsKindsAndFreesOnRequestDryRunFirst) {
  TempCache c;
  c.folder("kbuild", "aaaa", 3, 48);
  c.entry(CacheKind::kernel, "k1", 1, 30);
  auto rlab = [&](std::vector<std::string> args) {
    args.insert(args.begin(), std::string(RLAB_BINARY_DIR) + "/orchestrator/rlab");
    rlab::util::ProcessOptions o;
    o.env["RLAB_CACHE_DIR"] = c.root.string();
    o.env["RLAB_CACHE_MAX_GIB"] = "4";
    return rlab::util::run(args, o);
  };
  auto show = rlab({"cache", "--matrix", ""});
  ASSERT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("build-tree"), std::string::npos) << show.output;
  EXPECT_NE(show.output.find("of a 4.0 GiB budget (RLAB_CACHE_MAX_GIB)"), std::string::npos) << show.output;
  auto dry = rlab({"cache", "--matrix", "", "free", "--to-gib", "0.001", "--dry-run"});
  EXPECT_NE(dry.output.find("would free build-tree aaaa"), std::string::npos) << dry.output;
  EXPECT_TRUE(fs::exists(c.root / "kbuild/aaaa"));
  auto freed = rlab({"cache", "--matrix", "", "free", "--to-gib", "0"});
  EXPECT_EQ(freed.exit_code, 0) << freed.output;
  EXPECT_FALSE(fs::exists(c.root / "kbuild/aaaa"));
  EXPECT_FALSE(fs::exists(c.root / "kernels/k1"));
  auto bad = rlab({"cache", "--matrix", "", "free", "--to-gib", "-1"});
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
}

TEST(CacheBudget, SizesAreRememberedUntilABuildTreeIsUsedAgain) {
  TempCache c;
  const fs::path tree = c.folder("kbuild", "k", 2, 5);
  ASSERT_EQ(cache_usage(c.root).items.at(0).bytes, 2 * kMiB);
  const auto stamp = fs::last_write_time(tree);
  file_of(tree / "obj/more", 3);
  fs::last_write_time(tree, stamp);  // the same stamp as measured: the remembered size stands
  EXPECT_EQ(cache_usage(c.root).items.at(0).bytes, 2 * kMiB);
  touch_used(tree);  // a rebuild marks it used: measured again
  EXPECT_EQ(cache_usage(c.root).items.at(0).bytes, 5 * kMiB);
  fs::remove_all(tree);
  EXPECT_TRUE(cache_usage(c.root).items.empty());
  EXPECT_EQ(rlab::util::read_file(c.root / "sizes.json").find("kbuild/k"), std::string::npos) << "gone items are forgotten";
}

TEST(CacheBudget, ACacheThatCannotBeLockedStillServesItsHits) {
  TempCache c;
  c.entry(CacheKind::kernel, "k1", 1, 2);
  fs::remove_all(c.root / "locks");
  std::ofstream(c.root / "locks") << "not a directory";  // no lock file can be made
  auto [dir, hit] = ensure_entry(c.root, CacheKind::kernel, "k1", [](const fs::path&) -> nlohmann::json {
    throw std::logic_error("a hit does not build");
  });
  EXPECT_TRUE(hit);
  EXPECT_TRUE(entry_complete(dir));
  EXPECT_THROW(ensure_entry(c.root, CacheKind::kernel, "k2", [](const fs::path&) { return nlohmann::json::object(); }),
               std::runtime_error)
      << "a miss needs the lock";
}

TEST(CacheBudget, KeepingTheBudgetNeverThrowsAndSaysWhy) {
  TempCache c;
  c.folder("kbuild", "k", 1, 48);
  ::setenv("RLAB_CACHE_MAX_GIB", "lots", 1);
  std::string said;
  const auto r = keep_within_budget(c.root, [&](std::string_view, std::string_view d) { said += d; });
  ::unsetenv("RLAB_CACHE_MAX_GIB");
  EXPECT_TRUE(r.freed.empty());
  EXPECT_NE(said.find("RLAB_CACHE_MAX_GIB='lots'"), std::string::npos) << said;
  EXPECT_TRUE(fs::exists(c.root / "kbuild/k"));
}

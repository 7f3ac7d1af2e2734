// Differential flame graphs in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (tests/browser/install.sh, pinned, from npm) opens the standalone
// SVG and an HTML page with two graphs inline (as the nightly report has them), finds a known
// stack's frame where it is drawn, clicks it with the mouse and reads what the page then shows.
#include "attribution/flame.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;
using rlab::attribution::BootProfile;
using rlab::attribution::Family;

namespace {

BootProfile flame_boot(std::uint64_t loops, std::map<std::string, double> lock) {
  BootProfile p;
  p.loops = loops;
  p.values[Family::lock] = std::move(lock);
  p.collected.insert(Family::lock);
  p.any_pass = true;
  return p;
}

/// The folder tests/browser/install.sh installed puppeteer-core and flame_click.mjs into
/// (from the npm registry on the first run); fails the test when it cannot.
fs::path browser_dir() {
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(600);
  const auto r = rlab::util::run({"bash", (fs::path(RLAB_SOURCE_DIR) / "orchestrator/tests/browser/install.sh").string()}, o);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::string dir = r.output;
  while (!dir.empty() && dir.back() == '\n') dir.pop_back();
  return dir.substr(dir.rfind('\n') == std::string::npos ? 0 : dir.rfind('\n') + 1);
}

/// What flame_click.mjs (in `browser`) saw in chromium for `file`, clicking frame `name`.
nlohmann::json click_in_chromium(const fs::path& browser, const fs::path& file, const std::string& name,
                                 const fs::path& png) {
  rlab::util::ProcessOptions o;
  o.timeout = std::chrono::seconds(120);
  const auto r = rlab::util::run({"node", (browser / "flame_click.mjs").string(), file.string(), name, png.string()}, o);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto brace = r.output.rfind("\n{");
  return nlohmann::json::parse(r.output.substr(brace == std::string::npos ? 0 : brace + 1));
}

}  // namespace

TEST(RealFlameBrowser, ChromiumDrawsTheFramesAndAClickZoomsAKnownStack) {
  const fs::path browser = browser_dir();
  ASSERT_TRUE(fs::exists(browser / "node_modules" / "puppeteer-core")) << browser;
  const fs::path dir = fs::temp_directory_path() / ("rlab-flame-browser-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // The report's wait, slower in `new`, beside an unchanged one and one that vanished.
  const auto agi = "xfs_buf_lock;xfs_read_agi;xfs_iunlink;xfs_remove;do_unlinkat";
  const std::vector<BootProfile> base{flame_boot(1000, {{agi, 2e6}, {"xfs_buf_lock;xfs_read_agf;xfs_alloc_vextent", 3e6},
                                                  {"rwsem_down_write_slowpath;xfs_ilock;xfs_create", 1e6}})};
  const std::vector<BootProfile> next{flame_boot(1000, {{agi, 9e6}, {"xfs_buf_lock;xfs_read_agf;xfs_alloc_vextent", 3e6}})};
  rlab::attribution::FlameSvgOptions fo;
  fo.title = "lock: 6.12 -> 6.12+patch";
  const std::string svg = rlab::attribution::flame_svg(rlab::attribution::flame_tree(base, next, Family::lock), fo);
  rlab::util::write_file_atomic(dir / "lock.svg", svg);
  rlab::util::write_file_atomic(dir / "report.html",
                                "<!DOCTYPE html><html><body><details><summary>lock</summary>\n" + svg +
                                    "</details><details><summary>again</summary>\n" + svg + "</details></body></html>\n");

  for (const char* file : {"lock.svg", "report.html"}) {
    SCOPED_TRACE(file);
    const auto j = click_in_chromium(browser, dir / file, "xfs_read_agi", dir / (std::string(file) + ".png"));
    EXPECT_EQ(j["errors"].size(), 0u) << j.dump();
    EXPECT_EQ(j["graphs"], std::string(file) == "lock.svg" ? 1 : 2);
    EXPECT_GE(j["frames"].get<int>(), 9) << "all, three stacks' frames";
    EXPECT_EQ(j["hidden_before"], 0);
    // Visible where it is drawn: the point at its box's centre is that frame.
    EXPECT_EQ(j["hit_before"], "xfs_read_agi") << j.dump();
    const double before = j["before"]["width"], after = j["after"]["width"];
    EXPECT_GT(before, 100) << "9 of the new side's 12 ms+ of lock time";
    EXPECT_LT(before, 1150);
    // The click zoomed it to the graph's width; the stacks beside it are hidden.
    EXPECT_EQ(j["zoomed"], "xfs_read_agi");
    EXPECT_NEAR(after, 1200, 2) << j.dump();
    EXPECT_GE(j["hidden"].get<int>(), 4) << "xfs_read_agf's and xfs_create's paths";
    EXPECT_EQ(j["label_after"], "xfs_read_agi");
    // A click on the root shows everything again, the frame at its first width.
    EXPECT_NEAR(j["after_root"]["width"].get<double>(), before, 1);
    EXPECT_EQ(j["shown_after_root"], j["frames"]);
    EXPECT_GT(fs::file_size(dir / (std::string(file) + ".png")), 5000u) << "a screenshot of the zoomed graph";
  }
  if (!HasFailure()) fs::remove_all(dir);  // kept with its screenshots when something failed
  else std::cout << "pages and screenshots: " << dir << "\n";
}

// rlab_cache_*: the cache's disk use per kind and its budget, as a scrape shows them.
#include "metrics/cache_families.hpp"

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

TEST(CacheFamilies, BytesAndItemsPerKindAndTheBudget) {
  const fs::path root = fs::temp_directory_path() / ("rlab-cache-metrics-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "kbuild/k1/obj");
  std::ofstream(root / "kbuild/k1/obj/vmlinux") << std::string(1 << 20, 'x');
  fs::create_directories(root / "ccache");
  std::ofstream(root / "ccache/o") << std::string(8192, 'c');
  ::setenv("RLAB_CACHE_MAX_GIB", "4", 1);
  prometheus::Registry reg;
  rlab::metrics::add_cache_families(reg, root, std::chrono::seconds(0));
  ::unsetenv("RLAB_CACHE_MAX_GIB");
  const std::string text = prometheus::TextSerializer().Serialize(reg.Collect());
  fs::remove_all(root);
  EXPECT_NE(text.find("rlab_cache_bytes{what=\"build-tree\"} 1048576"), std::string::npos) << text;
  EXPECT_NE(text.find("rlab_cache_items{what=\"build-tree\"} 1"), std::string::npos) << text;
  EXPECT_NE(text.find("rlab_cache_bytes{what=\"ccache\"} 8192"), std::string::npos) << text;
  EXPECT_NE(text.find("rlab_cache_budget_bytes 4294967296"), std::string::npos) << text;
}

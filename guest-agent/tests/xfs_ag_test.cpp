// The AG header map (attribution/xfs_ag.hpp): by hand on a made-up superblock, then against
// xfs_db's view of real filesystems with several AGs (mkfs.xfs on image files: 512-byte and
// 4 KiB sectors, 1 KiB and 4 KiB blocks, 5 and 20 AGs).
#include "attribution/xfs_ag.hpp"
#include "harness.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace ra = rlab::agent;
namespace fs = std::filesystem;

namespace {

std::string superblock(std::uint32_t blocksize, std::uint32_t agblocks, std::uint32_t agcount, std::uint16_t sectsize) {
  std::string sb(512, '\0');
  sb.replace(0, 4, "XFSB");
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) sb[at + i] = static_cast<char>(v >> (24 - 8 * i));
  };
  put32(4, blocksize);
  put32(84, agblocks);
  put32(88, agcount);
  sb[102] = static_cast<char>(sectsize >> 8);
  sb[103] = static_cast<char>(sectsize & 0xff);
  sb[123] = 3;   // sb_inopblog
  sb[124] = 10;  // sb_agblklog
  return sb;
}

/// xfs_db's daddr of `cmd` ("agi 3") in `img`.
std::uint64_t xfs_db_daddr(const fs::path& img, const std::string& cmd) {
  int status = 0;
  const std::string out = rlab::agent::test::run_capture({"xfs_db", "-r", "-c", cmd, "-c", "daddr", img.string()}, &status);
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex(R"(current daddr is (\d+))"))) << cmd << ": " << out;
  return m.empty() ? 0 : std::stoull(m[1]);
}

}  // namespace

TEST(XfsAg, AddressesMapToTheirAgAndHeaderByHand) {
  // 4 KiB blocks, 1,000 blocks an AG (8,000 basic blocks), 4 AGs, 512-byte sectors.
  const auto g = ra::parse_superblock(superblock(4096, 1000, 4, 512));
  ASSERT_TRUE(g);
  EXPECT_EQ(ra::ag_header_at(*g, 0), (ra::AgHeaderAt{0, ra::AgHeader::sb}));
  EXPECT_EQ(ra::ag_header_at(*g, 1), (ra::AgHeaderAt{0, ra::AgHeader::agf}));
  EXPECT_EQ(ra::ag_header_at(*g, 8002), (ra::AgHeaderAt{1, ra::AgHeader::agi}));
  EXPECT_EQ(ra::ag_header_at(*g, 3 * 8000 + 3), (ra::AgHeaderAt{3, ra::AgHeader::agfl}));
  EXPECT_FALSE(ra::ag_header_at(*g, 4)) << "past the AG's four header sectors";
  EXPECT_FALSE(ra::ag_header_at(*g, 4 * 8000 + 1)) << "past the last AG";
  // 4 KiB sectors: a header is 8 basic blocks; an address inside one is not its start.
  const auto g4 = ra::parse_superblock(superblock(4096, 1000, 4, 4096));
  ASSERT_TRUE(g4);
  EXPECT_EQ(ra::ag_header_at(*g4, 8000 + 16), (ra::AgHeaderAt{1, ra::AgHeader::agi}));
  EXPECT_FALSE(ra::ag_header_at(*g4, 8000 + 2));
  EXPECT_EQ(ra::to_string(ra::AgHeader::agi), "AGI");
}

TEST(XfsAg, NotXfsOrOutOfRangeSizesAreRefused) {
  EXPECT_FALSE(ra::parse_superblock(std::string(512, '\0')));
  EXPECT_FALSE(ra::parse_superblock(superblock(4096, 1000, 4, 512).substr(0, 100)));
  EXPECT_FALSE(ra::parse_superblock(superblock(3000, 1000, 4, 512))) << "block size not a power of two";
  EXPECT_FALSE(ra::parse_superblock(superblock(4096, 0, 4, 512)));
  EXPECT_FALSE(ra::parse_superblock(superblock(4096, 1000, 4, 256)));
  EXPECT_FALSE(ra::read_superblock("/nonexistent/rlab-xfs.img"));
}

TEST(XfsAg, EveryAgHeaderOfRealFilesystemsIsWhereXfsDbSaysItIs) {
  const fs::path dir = fs::temp_directory_path() / ("rlab-xfs-ag-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  struct Shape {
    const char* agcount;
    const char* sector;
    const char* block;
  };
  for (const Shape s : {Shape{"5", "512", "4096"}, Shape{"20", "4096", "4096"}, Shape{"5", "512", "1024"}}) {
    const fs::path img = dir / (std::string("ag") + s.agcount + "-s" + s.sector + "-b" + s.block + ".img");
    { std::ofstream(img).flush(); }
    fs::resize_file(img, 2ull << 30);  // sparse; mkfs.xfs wants a 64 MiB log
    int status = 0;
    std::string err;
    rlab::agent::test::run_capture({"mkfs.xfs", "-q", "-f", "-d", std::string("agcount=") + s.agcount, "-s",
                                       std::string("size=") + s.sector, "-b", std::string("size=") + s.block,
                                       img.string()},
                                      &status, &err);
    ASSERT_EQ(status, 0) << err;
    const auto g = ra::read_superblock(img);
    ASSERT_TRUE(g) << img;
    ASSERT_EQ(g->agcount, std::stoul(s.agcount));
    for (std::uint32_t ag = 0; ag < g->agcount; ++ag)
      for (auto [cmd, h] : {std::pair{"agf", ra::AgHeader::agf}, {"agi", ra::AgHeader::agi}, {"agfl", ra::AgHeader::agfl}}) {
        const std::uint64_t daddr = xfs_db_daddr(img, std::string(cmd) + " " + std::to_string(ag));
        EXPECT_EQ(ra::ag_header_at(*g, daddr), (ra::AgHeaderAt{ag, h})) << img.filename() << " " << cmd << " " << ag;
        EXPECT_EQ(ra::ag_header_daddr(*g, ag, h), daddr);
        EXPECT_FALSE(ra::ag_header_at(*g, daddr + g->sectsize / 512 * 4)) << "the block after the headers";
      }
    fs::remove(img);
  }
  fs::remove_all(dir);
}

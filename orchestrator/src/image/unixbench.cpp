#include "image/unixbench.hpp"

#include "build/artifact_cache.hpp"
#include "build/kernel_build.hpp"
#include "build/run_options.hpp"
#include "image/cpio.hpp"
#include "util/hash.hpp"
#include "util/paths.hpp"
#include "util/process.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace rlab::image {
namespace fs = std::filesystem;

namespace {

std::string read_part(const fs::path& dir, const char* rel) {
  const fs::path p = dir / rel;
  std::error_code ec;
  if (!fs::is_regular_file(p, ec))
    throw std::runtime_error("UnixBench directory " + dir.string() + ": " + p.string() + " is missing");
  return util::read_file(p);
}

}  // namespace

fs::path unixbench_archive(const fs::path& dir) {
  const std::string looper_c = read_part(dir, "src/looper.c"), timeit_c = read_part(dir, "src/timeit.c");
  const std::string multi = read_part(dir, "pgms/multi.sh"), tst = read_part(dir, "pgms/tst.sh");
  const std::string sort_src = read_part(dir, "testdir/sort.src");
  const std::string bare_init = read_part(build::images_dir(), "bare/init");
  const std::string key = util::sha256_hex("rlab-unixbench-archive-2\n" + util::sha256_hex(looper_c) +
                                           util::sha256_hex(timeit_c) + util::sha256_hex(multi) +
                                           util::sha256_hex(tst) + util::sha256_hex(sort_src) +
                                           util::sha256_hex(bare_init));
  const auto entry = build::ensure_entry(util::cache_dir(), build::CacheKind::unixbench, key, [&](const fs::path& staging) {
    // looper.c #includes "timeit.c": compile in a copy of both, so the user's tree stays as it is.
    const fs::path work = staging / "src";
    fs::create_directories(work);
    util::write_file_atomic(work / "looper.c", looper_c);
    util::write_file_atomic(work / "timeit.c", timeit_c);
    util::run_checked({"aarch64-linux-gnu-gcc", "-O2", "-static", "-w", "-o", (work / "looper").string(),
                       (work / "looper.c").string()},
                      build::run_options(std::chrono::seconds(300), work));
    const std::vector<CpioEntry> entries = {
        {kBareInit + 1, CpioEntry::Type::kFile, 0755, bare_init},  // no leading "/" in the archive
        {"opt", CpioEntry::Type::kDirectory, 0755, {}},
        {"opt/unixbench", CpioEntry::Type::kDirectory, 0755, {}},
        {"opt/unixbench/pgms", CpioEntry::Type::kDirectory, 0755, {}},
        {"opt/unixbench/pgms/looper", CpioEntry::Type::kFile, 0755, util::read_file(work / "looper")},
        {"opt/unixbench/pgms/multi.sh", CpioEntry::Type::kFile, 0755, multi},
        {"opt/unixbench/pgms/tst.sh", CpioEntry::Type::kFile, 0755, tst},
        {"opt/unixbench/testdir", CpioEntry::Type::kDirectory, 0755, {}},
        {"opt/unixbench/testdir/sort.src", CpioEntry::Type::kFile, 0644, sort_src}};
    std::ostringstream cpio;
    write_newc(cpio, entries);
    util::write_file_atomic(staging / "unixbench.cpio", cpio.str());
    return nlohmann::json{{"kind", "unixbench"}, {"key", key}, {"what", "UnixBench's looper, multi.sh, tst.sh, sort.src from " + dir.string() + ", rlab's /bare-init"}};
  });
  return entry.first / "unixbench.cpio";
}

GuestImages with_archive(const GuestImages& img, const fs::path& archive) {
  const std::string extra = util::read_file(archive);
  GuestImages out = img;
  out.image_key = util::sha256_hex(img.image_key + "+" + util::sha256_hex(extra));
  const auto name = img.initramfs.filename();
  const auto entry = build::ensure_entry(util::cache_dir(), build::CacheKind::image_with, out.image_key, [&](const fs::path& staging) {
    util::write_file_atomic(staging / name, extra + util::read_file(img.initramfs));
    return nlohmann::json{{"kind", "image-with"}, {"key", out.image_key},
                          {"what", "initramfs " + img.image_key.substr(0, 16) + " + " + archive.filename().string()}};
  });
  out.initramfs = entry.first / name;
  return out;
}

}  // namespace rlab::image

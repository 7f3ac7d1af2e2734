#include "run/run_dir.hpp"
#include "util/hash.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rlab::run {

std::string run_label(long long run, const fs::path& db) {
  return fmt::format("{}.{}", run, util::sha256_hex(fs::absolute(db).string()).substr(0, 6));
}

bool reachable_by_others(const fs::path& dir) {
  fs::path p = fs::absolute(dir);
  for (fs::path cur = p;; cur = cur.parent_path()) {
    struct stat st {};
    if (::stat(cur.c_str(), &st) == 0 && !(st.st_mode & S_IXOTH)) return false;
    if (cur == cur.root_path() || cur.parent_path() == cur) break;
  }
  return true;
}

fs::path shared_run_base() {
  const auto uid = ::geteuid();
  return uid == 0 ? fs::path("/var/tmp/rlab") : fs::path(fmt::format("/var/tmp/rlab-{}", uid));
}

RunDir::RunDir(const fs::path& results_db, long long run_id, std::optional<vm::QemuOwner> owner)
    : owner_(owner) {
  fs::path base = fs::absolute(results_db).parent_path();
  fs::create_directories(base);
  std::vector<fs::path> opened{base / "runs"};
  if (!reachable_by_others(base)) {
    base = shared_run_base();
    spdlog::info("{} is not reachable by QEMU's user; guest files go to {}",
                 fs::absolute(results_db).parent_path().string(), base.string());
    opened = {base, base / "runs"};
  }
  root_ = base / "runs" / run_label(run_id, results_db);
  fs::create_directories(root_);
  opened.push_back(root_);
  for (const fs::path& p : opened)
    fs::permissions(p, fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add);
}

RunDir::~RunDir() {
  std::error_code ec;
  fs::remove_all(root_ / "images", ec);
  if (ec) spdlog::warn("run directory {}: cannot remove the staged images: {}", root_.string(), ec.message());
}

namespace {
// Where RunDir may have put run `run` of `db`: beside the store, or under shared_run_base().
std::vector<fs::path> run_dir_places(const fs::path& db, std::int64_t run) {
  std::vector<fs::path> out;
  for (const fs::path& base : {fs::absolute(db).parent_path(), shared_run_base()})
    out.push_back(base / "runs" / run_label(run, db));
  return out;
}
}  // namespace

void remove_staged_images(const fs::path& db, std::int64_t run) {
  for (const auto& dir : run_dir_places(db, run)) {
    std::error_code ec;
    fs::remove_all(dir / "images", ec);
    if (ec) spdlog::warn("run directory {}: cannot remove the staged images: {}", dir.string(), ec.message());
  }
}

std::size_t remove_run_dirs(const fs::path& db, const std::vector<std::int64_t>& runs) {
  std::size_t removed = 0;
  for (const auto run : runs)
    for (const auto& dir : run_dir_places(db, run)) {
      std::error_code ec;
      if (!fs::exists(dir, ec)) continue;
      fs::remove_all(dir, ec);
      if (ec)
        spdlog::warn("run directory {}: cannot remove it: {}", dir.string(), ec.message());
      else
        ++removed;
    }
  return removed;
}

fs::path RunDir::boot_dir(long long boot_id) const {
  fs::path d = root_ / fmt::format("b{}", boot_id);
  fs::remove_all(d);
  fs::create_directories(d);
  // QEMU creates the agent socket here and writes the disk; libvirt relabels the files it is
  // given, not their directory.
  if (owner_ && ::geteuid() == 0) {
    if (::chown(d.c_str(), owner_->uid, owner_->gid) != 0)
      throw std::system_error(errno, std::generic_category(), "chown " + d.string());
  } else {
    fs::permissions(d, fs::perms::all, fs::perm_options::add);
  }
  return d;
}

image::GuestImages RunDir::stage(const image::GuestImages& images) const {
  fs::path d = root_ / "images" /
               fmt::format("{}-{}", images.kernel_key.substr(0, 16), images.image_key.substr(0, 16));
  fs::create_directories(d);
  fs::permissions(root_ / "images", fs::perms::others_exec, fs::perm_options::add);
  fs::permissions(d, fs::perms::others_exec, fs::perm_options::add);
  image::GuestImages out = images;
  out.kernel_image = d / "Image";
  out.initramfs = d / images.initramfs.filename();
  for (auto [from, to] : {std::pair{images.kernel_image, out.kernel_image},
                          std::pair{images.initramfs, out.initramfs}}) {
    if (!fs::exists(to) || fs::file_size(to) != fs::file_size(from))
      fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    fs::permissions(to, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                            fs::perms::others_read);
  }
  return out;
}

}  // namespace rlab::run

#include "vm/storage.hpp"

#include "util/file_lock.hpp"
#include "util/hash.hpp"
#include "util/xml.hpp"
#include "vm/xml.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <libvirt/libvirt.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <memory>
#include <optional>
#include <system_error>

namespace rlab::vm {
namespace fs = std::filesystem;

namespace {

virConnectPtr C(void* p) { return static_cast<virConnectPtr>(p); }

using PoolPtr = std::unique_ptr<virStoragePool, int (*)(virStoragePoolPtr)>;
using VolPtr = std::unique_ptr<virStorageVol, int (*)(virStorageVolPtr)>;
using StreamPtr = std::unique_ptr<virStream, int (*)(virStreamPtr)>;



/// The directory pool types: QEMU opens their volumes as files.
bool directory_backed(const std::string& type) { return type == "dir" || type == "fs" || type == "netfs"; }

/// A file descriptor closed at scope end.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

int send_from_fd(virStreamPtr, char* data, size_t n, void* opaque) {
  for (;;) {
    ssize_t r = ::read(*static_cast<int*>(opaque), data, n);
    if (r < 0 && errno == EINTR) continue;
    return static_cast<int>(r);
  }
}

int recv_to_fd(virStreamPtr, const char* data, size_t n, void* opaque) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = ::write(*static_cast<int*>(opaque), data + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    done += static_cast<size_t>(w);
  }
  return static_cast<int>(n);
}

}  // namespace

std::string content_volume_name(const fs::path& file) {
  std::string base = file.filename().string().substr(0, 64);
  for (char& c : base)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
  return fmt::format("{}{}-{}", kVolumePrefix, util::Sha256().update_file(file).hex().substr(0, 24), base);
}

StoragePool::StoragePool(Connection& conn, std::string name) : conn_(conn), name_(std::move(name)) {
  auto h = conn_.handle();
  PoolPtr pool(virStoragePoolLookupByName(C(h.get()), name_.c_str()), virStoragePoolFree);
  if (!pool)
    throw LibvirtError(fmt::format(
        "host {0}: no storage pool '{1}' ({2}); define one there, e.g. `virsh -c {0} pool-define-as "
        "{1} dir --target /var/lib/libvirt/images/{1} && virsh -c {0} pool-build {1} && virsh -c {0} "
        "pool-start {1} && virsh -c {0} pool-autostart {1}`, or name another in hosts[].pool",
        conn_.uri(), name_, last_libvirt_error()));
  if (virStoragePoolIsActive(pool.get()) != 1)
    throw LibvirtError(fmt::format("host {0}: storage pool '{1}' is not active (`virsh -c {0} pool-start {1}`)",
                                   conn_.uri(), name_));
  const XmlDoc doc(take_string(virStoragePoolGetXMLDesc(pool.get(), 0)), "storage pool " + name_ + " of " + conn_.uri());
  const std::string type = doc.text("string(/pool/@type)");
  if (!directory_backed(type))
    throw LibvirtError(fmt::format("host {}: storage pool '{}' is of type '{}'; rlab needs a "
                                   "directory-backed pool (dir, fs or netfs): QEMU opens the "
                                   "kernel and the console log as files",
                                   conn_.uri(), name_, type));
  dir_ = doc.text("string(/pool/target/path)");
  // Its directory must still be there (a refresh scans it).
  if (virStoragePoolRefresh(pool.get(), 0) < 0)
    throw LibvirtError(fmt::format("host {}: storage pool '{}' ({}) cannot be read: {}", conn_.uri(), name_,
                                   dir_.string(), last_libvirt_error()));
}

namespace {

/// The pool `name` on `c`, refreshed first when `refresh`. Throws LibvirtError.
PoolPtr pool_of(void* c, const std::string& uri, const std::string& name, bool refresh = false) {
  PoolPtr p(virStoragePoolLookupByName(C(c), name.c_str()), virStoragePoolFree);
  if (!p) throw LibvirtError(fmt::format("host {}: storage pool '{}': {}", uri, name, last_libvirt_error()));
  if (refresh) virStoragePoolRefresh(p.get(), 0);
  return p;
}

VolPtr lookup(virStoragePoolPtr pool, const std::string& name) {
  return VolPtr(virStorageVolLookupByName(pool, name.c_str()), virStorageVolFree);
}

/// Creates raw volume `name` of `bytes` in `pool`, deleting one of that name first.
VolPtr create_volume(virStoragePoolPtr pool, const std::string& uri, const std::string& name,
                     std::uint64_t bytes) {
  if (auto old = lookup(pool, name)) virStorageVolDelete(old.get(), 0);
  util::XmlWriter x;
  x.open("volume").leaf("name", name);
  x.open("capacity").attr("unit", "bytes").text(std::to_string(bytes)).close();
  x.open("allocation").attr("unit", "bytes").text("0").close();
  x.open("target").open("format").attr("type", "raw").close().close();
  const std::string xml = x.finish();
  VolPtr v(virStorageVolCreateXML(pool, xml.c_str(), 0), virStorageVolFree);
  if (!v) throw LibvirtError(fmt::format("host {}: cannot create volume '{}': {}", uri, name, last_libvirt_error()));
  return v;
}

std::string path_of(virStorageVolPtr v) { return take_string(virStorageVolGetPath(v)); }

}  // namespace

fs::path StoragePool::upload(const fs::path& file) {
  const std::string name = content_volume_name(file);
  const std::string done = name + ".ok";  // created once the upload is complete
  const std::uint64_t size = fs::file_size(file);
  std::lock_guard lock(mu_);  // one upload at a time: the same content is uploaded once
  // ... also across rlab processes on this machine (a night and a bisection sharing a pool): the
  // second waits for the first's upload instead of replacing a volume that is still streaming.
  const fs::path locks = fs::temp_directory_path() / ("rlab-volume-locks-" + std::to_string(::geteuid()));
  fs::create_directories(locks);
  const util::FileLock across(locks / (util::sha256_hex(conn_.uri() + "\n" + name_ + "\n" + name).substr(0, 24) + ".lock"));
  auto h = conn_.handle();
  PoolPtr pool = pool_of(h.get(), conn_.uri(), name_);
  used_.insert(name);
  if (auto v = lookup(pool.get(), name); v && lookup(pool.get(), done)) {
    virStorageVolInfo info{};
    if (virStorageVolGetInfo(v.get(), &info) == 0 && info.capacity == size) {
      create_volume(pool.get(), conn_.uri(), done, 0);  // the marker's mtime is the last use (thin())
      return path_of(v.get());
    }
  }
  if (auto stale = lookup(pool.get(), done)) virStorageVolDelete(stale.get(), 0);
  VolPtr v = create_volume(pool.get(), conn_.uri(), name, size);
  Fd in{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) throw std::system_error(errno, std::generic_category(), "cannot read " + file.string());
  StreamPtr st(virStreamNew(C(h.get()), 0), virStreamFree);
  if (!st || virStorageVolUpload(v.get(), st.get(), 0, size, 0) < 0 ||
      virStreamSendAll(st.get(), send_from_fd, &in.fd) < 0 || virStreamFinish(st.get()) < 0) {
    const std::string why = last_libvirt_error();
    if (st) virStreamAbort(st.get());
    virStorageVolDelete(v.get(), 0);
    throw LibvirtError(fmt::format("host {}: uploading {} to volume '{}' of pool '{}' failed: {}",
                                   conn_.uri(), file.string(), name, name_, why));
  }
  create_volume(pool.get(), conn_.uri(), done, 0);
  uploaded_ += size;
  spdlog::info("host {}: uploaded {} ({:.1f} MiB) as volume {}", conn_.uri(), file.filename().string(),
               double(size) / (1 << 20), name);
  return path_of(v.get());
}

fs::path StoragePool::create(const std::string& name, std::uint64_t bytes) {
  auto h = conn_.handle();
  PoolPtr pool = pool_of(h.get(), conn_.uri(), name_);
  return path_of(create_volume(pool.get(), conn_.uri(), name, bytes).get());
}

void StoragePool::download(const std::string& name, const fs::path& to) {
  auto h = conn_.handle();
  PoolPtr pool = pool_of(h.get(), conn_.uri(), name_);
  VolPtr v = lookup(pool.get(), name);
  if (!v) throw LibvirtError(fmt::format("host {}: no volume '{}' in pool '{}'", conn_.uri(), name, name_));
  Fd out{::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)};
  if (out.fd < 0) throw std::system_error(errno, std::generic_category(), "cannot write " + to.string());
  StreamPtr st(virStreamNew(C(h.get()), 0), virStreamFree);
  if (!st || virStorageVolDownload(v.get(), st.get(), 0, 0, 0) < 0 ||
      virStreamRecvAll(st.get(), recv_to_fd, &out.fd) < 0 || virStreamFinish(st.get()) < 0) {
    const std::string why = last_libvirt_error();
    if (st) virStreamAbort(st.get());
    throw LibvirtError(fmt::format("host {}: downloading volume '{}' failed: {}", conn_.uri(), name, why));
  }
}

bool StoragePool::remove(const std::string& name) {
  auto h = conn_.handle();
  PoolPtr pool = pool_of(h.get(), conn_.uri(), name_);
  VolPtr v = lookup(pool.get(), name);
  if (!v) return false;
  if (virStorageVolDelete(v.get(), 0) < 0)
    throw LibvirtError(fmt::format("host {}: cannot delete volume '{}': {}", conn_.uri(), name, last_libvirt_error()));
  return true;
}

std::vector<std::string> StoragePool::volumes(std::string_view prefix) {
  auto h = conn_.handle();
  PoolPtr pool = pool_of(h.get(), conn_.uri(), name_, true);
  virStorageVolPtr* vols = nullptr;
  const int n = virStoragePoolListAllVolumes(pool.get(), &vols, 0);
  if (n < 0) throw LibvirtError(fmt::format("host {}: cannot list pool '{}': {}", conn_.uri(), name_, last_libvirt_error()));
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    const char* name = virStorageVolGetName(vols[i]);
    if (name && std::string_view(name).starts_with(prefix)) out.emplace_back(name);
    virStorageVolFree(vols[i]);
  }
  std::free(vols);
  return out;
}

namespace {

// Whether `name` is a content volume (content_volume_name(): "rlab-" + 24 hex + "-" + file).
bool is_content_volume(std::string_view name) {
  if (!name.starts_with(kVolumePrefix) || name.ends_with(".ok")) return false;
  name.remove_prefix(kVolumePrefix.size());
  if (name.size() < 26 || name[24] != '-') return false;
  for (char c : name.substr(0, 24))
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The volume's <target><timestamps><mtime> (seconds since 1970, whole seconds) from its XML
// description; nullopt when libvirt gives none (not a file-backed volume) or it cannot be read.
std::optional<unsigned long long> volume_mtime(virStorageVolPtr v) {
  try {
    const XmlDoc doc(take_string(virStorageVolGetXMLDesc(v, 0)), "a volume's description");
    return doc.number("substring-before(concat(/volume/target/timestamps/mtime, '.'), '.')");
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::size_t StoragePool::thin(std::chrono::seconds unused_for) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  const auto cutoff = static_cast<unsigned long long>((now - unused_for).count());
  std::size_t removed = 0;
  for (const auto& name : volumes(kVolumePrefix)) {
    if (!is_content_volume(name)) continue;
    {
      std::lock_guard lock(mu_);
      if (used_.count(name)) continue;
    }
    auto h = conn_.handle();
    PoolPtr pool = pool_of(h.get(), conn_.uri(), name_);
    VolPtr marker = lookup(pool.get(), name + ".ok");
    const auto last_use = marker ? volume_mtime(marker.get()) : std::nullopt;
    if (last_use && *last_use > cutoff) continue;  // no marker: an upload cut short, or gone
    try {
      remove(name + ".ok");
      removed += remove(name) ? 1 : 0;
    } catch (const LibvirtError& e) {
      spdlog::warn("pool {}: {}", name_, e.what());
    }
  }
  return removed;
}

std::uint64_t StoragePool::uploaded_bytes() const {
  std::lock_guard lock(mu_);
  return uploaded_;
}

}  // namespace rlab::vm

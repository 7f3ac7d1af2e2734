// The AG header collector's loader: bpf/ag_headers.bpf.c as the skeleton ag_headers.skel.h.
#include "attribution/bpf_ag_headers.hpp"

#include "attribution/libbpf_util.hpp"

#include "ag_headers.h"
#include "ag_headers.skel.h"  // generated at build time from bpf/ag_headers.bpf.c

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rlab::agent {
namespace {

static_assert(sizeof(ag_key) == 32 && sizeof(ag_val) == 32 && sizeof(ag_geometry) == 32);

constexpr const char* kEvents[] = {"xfs_buf_lock", "xfs_buf_lock_done", "xfs_buf_trylock", "xfs_buf_unlock"};

}  // namespace

std::unique_ptr<BpfAgHeaders> BpfAgHeaders::open(const std::filesystem::path& device, std::uint64_t stack_min_ns) {
  struct stat st {};
  if (::stat(device.c_str(), &st) != 0 || !S_ISBLK(st.st_mode))
    throw std::runtime_error("AG headers: " + device.string() + " is no block device");
  const auto geometry = read_superblock(device);
  if (!geometry) throw std::runtime_error("AG headers: no XFS superblock on " + device.string());
  bpf::keep_libbpf_log();
  std::unique_ptr<BpfAgHeaders> a(new BpfAgHeaders);
  a->geometry_ = *geometry;
  a->skel_ = ag_headers_bpf::open_and_load();
  if (!a->skel_) throw bpf::libbpf_error("libbpf: load the AG header programs (bpf/ag_headers.bpf.c)", errno);
  const ag_geometry g{geometry->agcount, 0,
                      std::uint64_t{geometry->agblocks} * (geometry->blocksize / 512), geometry->sectsize / 512u,
                      stack_min_ns};
  const std::uint32_t zero = 0;
  if (bpf_map_update_elem(bpf_map__fd(a->skel_->maps.geometry), &zero, &g, BPF_ANY) != 0)
    throw bpf::libbpf_error("bpf: write the AG geometry", errno);
  return a;
}

BpfAgHeaders::~BpfAgHeaders() {
  stop();
  ag_headers_bpf::destroy(skel_);
}

void BpfAgHeaders::start() {
  stop();
  bpf::clear_map(bpf_map__fd(skel_->maps.starts), 16);
  bpf::clear_map(bpf_map__fd(skel_->maps.holders), 8);
  bpf::clear_map(bpf_map__fd(skel_->maps.waits), sizeof(ag_key));
  bpf::clear_map(bpf_map__fd(skel_->maps.holds), sizeof(ag_key));
  bpf::clear_map(bpf_map__fd(skel_->maps.ag_stacks), sizeof(std::uint32_t));
  const std::uint32_t zero = 0;
  const std::uint64_t none = 0;
  bpf_map_update_elem(bpf_map__fd(skel_->maps.ag_drops), &zero, &none, BPF_ANY);
  bpf_program* progs[] = {skel_->progs.on_buf_lock, skel_->progs.on_buf_lock_done, skel_->progs.on_buf_trylock,
                          skel_->progs.on_buf_unlock};
  for (std::size_t i = 0; i < std::size(progs); ++i) {
    bpf_link* l = bpf_program__attach_raw_tracepoint(progs[i], kEvents[i]);
    if (!l) {
      const int err = errno;
      stop();
      throw bpf::libbpf_error(std::string("libbpf: attach to raw tracepoint ") + kEvents[i], err);
    }
    links_.push_back(l);
  }
}

void BpfAgHeaders::stop() {
  for (bpf_link* l : links_) bpf_link__destroy(l);
  links_.clear();
}

std::vector<AgHeaderRow> BpfAgHeaders::rows(int map_fd) const {
  const int stacks = bpf_map__fd(skel_->maps.ag_stacks);
  std::vector<AgHeaderRow> out;
  bpf::for_each_entry<ag_key, ag_val>(map_fd, [&](const ag_key& key, const ag_val& v) {
    AgHeaderRow r;
    r.ag = key.ag;
    r.header = static_cast<AgHeader>(key.header);
    r.ips = bpf::read_stack(stacks, key.stack_id, AG_HEADERS_FRAMES);
    r.comm.assign(key.comm, strnlen(key.comm, sizeof key.comm));
    r.count = v.count;
    r.contended = v.contended;
    r.total_ns = v.total_ns;
    r.max_ns = v.max_ns;
    out.push_back(std::move(r));
  });
  return out;
}

std::vector<AgHeaderRow> BpfAgHeaders::waits() const { return rows(bpf_map__fd(skel_->maps.waits)); }
std::vector<AgHeaderRow> BpfAgHeaders::holds() const { return rows(bpf_map__fd(skel_->maps.holds)); }

std::uint64_t BpfAgHeaders::dropped() const {
  const std::uint32_t zero = 0;
  std::uint64_t n = 0;
  return bpf_map_lookup_elem(bpf_map__fd(skel_->maps.ag_drops), &zero, &n) == 0 ? n : 0;
}

}  // namespace rlab::agent

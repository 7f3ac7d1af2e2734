// SPDX-License-Identifier: GPL-2.0
/* Who waits for which XFS AG header buffer (AGF, AGI, AGFL), for how long, and who held it:
 * the report's question about AGI/AGF lock contention, per AG (attribution/bpf_ag_headers.hpp).
 * Raw tracepoints on the xfs_buf_class events (xfs_buf_lock, _lock_done, _trylock, _unlock;
 * arguments: struct xfs_buf *bp, unsigned long caller_ip): no trace record is built for the
 * XFS buffer locks of the load, the programs read the buffer's address from bp
 * (XFS_BUF_DADDR_OFFSET, ag_headers.h) and return at once for any buffer that is no AG
 * header. No kernel BTF is needed: the context is u64 * (as in waits.bpf.c). Stacks are
 * walked only for waits and holds of at least stack_min_ns (ag_headers.h), when they end. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "ag_headers.h"

struct lock_key {
	__u64 pid_tgid;
	__s64 bno;
};

struct lock_start {
	__u64 ts;
	__u64 contended; /* 1: another task held the header when the lock call began */
};

struct held {
	__u64 ts;
	__u64 pid_tgid;
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ag_geometry);
} geometry SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AG_HEADERS_TASKS);
	__type(key, struct lock_key);
	__type(value, struct lock_start);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AG_HEADERS_HELD);
	__type(key, __s64); /* the buffer's address */
	__type(value, struct held);
} holders SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AG_HEADERS_ROWS);
	__type(key, struct ag_key);
	__type(value, struct ag_val);
} waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, AG_HEADERS_ROWS);
	__type(key, struct ag_key);
	__type(value, struct ag_val);
} holds SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, AG_HEADERS_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, AG_HEADERS_FRAMES * sizeof(__u64));
} ag_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} ag_drops SEC(".maps");

static __always_inline void count_drop(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&ag_drops, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
}

/* The address (512-byte units) of the tracepoint's buffer, ctx[0]; -1 when unreadable. */
static __always_inline __s64 daddr_of(__u64 *ctx)
{
	__s64 bno = -1;

	if (bpf_probe_read_kernel(&bno, sizeof(bno), (void *)(ctx[0] + XFS_BUF_DADDR_OFFSET)))
		return -1;
	return bno;
}

/* The AG and header of the buffer at `bno` in *ag / *header; 0 when it is none. */
static __always_inline int header_of(__s64 bno_s, __u32 *ag, __u32 *header)
{
	__u32 zero = 0;
	struct ag_geometry *g = bpf_map_lookup_elem(&geometry, &zero);

	if (!g || bno_s < 0 || !g->ag_daddrs || !g->sector_daddrs)
		return 0;
	__u64 bno = bno_s, in_ag = bno % g->ag_daddrs, a = bno / g->ag_daddrs;

	if (a >= g->agcount || in_ag % g->sector_daddrs)
		return 0;
	__u64 h = in_ag / g->sector_daddrs;

	if (h < 1 || h > 3) /* the superblock copy is not one of the three */
		return 0;
	*ag = a;
	*header = h;
	return 1;
}

/* The current task's kernel stack in ag_stacks for a wait or hold of `ns`, or -1 when it is
 * shorter than the geometry's stack_min_ns: a stack walk per header lock would cost the load
 * more than the short ones' time is worth (their count and time are kept all the same). */
static __always_inline __s64 stack_of(void *ctx, __u64 ns)
{
	__u32 zero = 0;
	struct ag_geometry *g = bpf_map_lookup_elem(&geometry, &zero);

	if (!g || ns < g->stack_min_ns)
		return -1;
	return bpf_get_stackid(ctx, &ag_stacks, 0);
}

/* map[key] += {1, contended, ns}, max ns kept. */
static __always_inline void add(void *map, struct ag_key *key, __u64 contended, __u64 ns)
{
	struct ag_val *v = bpf_map_lookup_elem(map, key);

	if (!v) {
		struct ag_val first = { .count = 1, .contended = contended, .total_ns = ns, .max_ns = ns };

		if (bpf_map_update_elem(map, key, &first, BPF_NOEXIST) == 0)
			return;
		v = bpf_map_lookup_elem(map, key); /* another CPU added the key first */
		if (!v) {
			count_drop();
			return;
		}
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->contended, contended);
	__sync_fetch_and_add(&v->total_ns, ns);
	if (ns > v->max_ns)
		v->max_ns = ns; /* racy by design: a lost maximum is another CPU's close one */
}

/* The buffer is now held by the current task: from here to its unlock. */
static __always_inline void take(__s64 bno)
{
	struct held h = {};

	h.pid_tgid = bpf_get_current_pid_tgid();
	bpf_get_current_comm(h.comm, sizeof(h.comm));
	h.ts = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&holders, &bno, &h, BPF_ANY))
		count_drop();
}

SEC("raw_tp/xfs_buf_lock")
int on_buf_lock(__u64 *ctx)
{
	__s64 bno = daddr_of(ctx);
	__u32 ag, header;

	if (!header_of(bno, &ag, &header))
		return 0;
	struct lock_key k = { .pid_tgid = bpf_get_current_pid_tgid(), .bno = bno };
	struct lock_start s = { .contended = bpf_map_lookup_elem(&holders, &bno) != 0 };

	s.ts = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&starts, &k, &s, BPF_ANY))
		count_drop();
	return 0;
}

SEC("raw_tp/xfs_buf_lock_done")
int on_buf_lock_done(__u64 *ctx)
{
	__s64 bno = daddr_of(ctx);
	__u32 ag, header;

	if (!header_of(bno, &ag, &header))
		return 0;
	struct lock_key k = { .pid_tgid = bpf_get_current_pid_tgid(), .bno = bno };
	struct lock_start *s = bpf_map_lookup_elem(&starts, &k);

	if (s) {
		__u64 ns = bpf_ktime_get_ns() - s->ts, contended = s->contended;
		/* Still in xfs_buf_lock: the waiter's stack is the one it waited with. */
		struct ag_key key = { .ag = ag, .header = header, .stack_id = stack_of(ctx, ns) };

		bpf_map_delete_elem(&starts, &k);
		add(&waits, &key, contended, ns);
	}
	take(bno);
	return 0;
}

SEC("raw_tp/xfs_buf_trylock")
int on_buf_trylock(__u64 *ctx)
{
	__s64 bno = daddr_of(ctx);
	__u32 ag, header;

	if (header_of(bno, &ag, &header))
		take(bno);
	return 0;
}

SEC("raw_tp/xfs_buf_unlock")
int on_buf_unlock(__u64 *ctx)
{
	__s64 bno = daddr_of(ctx);
	__u32 ag, header;

	if (!header_of(bno, &ag, &header))
		return 0;
	struct held *h = bpf_map_lookup_elem(&holders, &bno);

	if (!h)
		return 0;
	__u64 ns = bpf_ktime_get_ns() - h->ts;
	/* The holder's stack as it releases the header (the same call chain that took it, e.g. a
	 * transaction's commit); none when another task releases it (I/O or log completion). */
	struct ag_key key = { .ag = ag, .header = header,
			      .stack_id = h->pid_tgid == bpf_get_current_pid_tgid() ? stack_of(ctx, ns) : -1 };

	__builtin_memcpy(key.comm, h->comm, sizeof(key.comm));

	bpf_map_delete_elem(&holders, &bno);
	add(&holds, &key, 0, ns);
	return 0;
}

char LICENSE[] SEC("license") = "GPL"; /* bpf_get_stackid is GPL-only */

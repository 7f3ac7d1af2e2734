/* The AG header collector's shared layout: what ag_headers.bpf.c reads and stores, and
 * bpf_ag_headers.cpp writes and reads back. Plain C, for the BPF program and the loader. */
#ifndef RLAB_AG_HEADERS_H
#define RLAB_AG_HEADERS_H

#include <linux/types.h>

#define AG_HEADERS_FRAMES 32   /* frames kept per stack */
#define AG_HEADERS_TASKS 16384 /* buffer locks under way at once */
#define AG_HEADERS_HELD 4096   /* header buffers held at once */
#define AG_HEADERS_ROWS 4096   /* distinct {AG, header, stack(, comm)} per pass */
#define AG_HEADERS_STACKS 8192

/* Which filesystem and how its addresses map to AGs (attribution/xfs_ag.hpp), written by the
 * loader into the one-entry `geometry` array before counting starts. */
struct ag_geometry {
	__u32 agcount;       /* AGs */
	__u32 pad;
	__u64 ag_daddrs;     /* 512-byte units per AG: agblocks x blocksize / 512 */
	__u64 sector_daddrs; /* 512-byte units per sector: sectsize / 512 */
	/* Waits and holds at least this long (ns) get the task's kernel stack; shorter ones, and
	 * holds another task released, none (stack_id -1). ~0: no stacks at all. */
	__u64 stack_min_ns;
};

/* Where struct xfs_buf keeps the buffer's address (xfs_daddr_t b_rhash_key, 512-byte units):
 * right after its first member, struct rhash_head (one pointer), in 6.1 and 6.12
 * (fs/xfs/xfs_buf.h); no kernel config changes it. Checked on the kernels themselves by the
 * agent's tests (the host's 6.1, the booted 6.12 guest); a kernel laid out otherwise shows as
 * a pass on XFS without one AG header lock, which the agent reports. */
#define XFS_BUF_DADDR_OFFSET 8

/* A row's key: AG, header (1 AGF, 2 AGI, 3 AGFL as enum AgHeader), the stack (the waiter's
 * when it got the buffer for waits, the holder's when it released it for holds; < 0: none)
 * and, for holds, the holder's comm ("" for waits). */
struct ag_key {
	__u32 ag;
	__u32 header;
	__s64 stack_id;
	char comm[16];
};

/* A row's value. Waits: blocking locks of the header (xfs_buf_lock to xfs_buf_lock_done),
 * those that found it held, and their time. Holds: the header held (lock or trylock to
 * unlock), the time held and the longest hold. */
struct ag_val {
	__u64 count;
	__u64 contended;
	__u64 total_ns;
	__u64 max_ns;
};

#endif

/* The on-CPU collector's shared layout: what oncpu.bpf.c stores and oncpu.cpp reads back. */
#ifndef RLAB_ONCPU_H
#define RLAB_ONCPU_H

#include <linux/types.h>

#define ONCPU_FRAMES 64  /* kernel frames kept per sample's stack */
#define ONCPU_STACKS 4096 /* distinct stacks per pass: 29 Hz x 60 s x 2 CPUs is 3,480 samples */
#define ONCPU_ROWS 8192  /* distinct {stack, task name} per pass */

/* A sample's key: the interrupted kernel stack's id (-EFAULT, -14: the CPU was in user mode;
 * another negative: no stack kept) and the task's name. */
struct oncpu_key {
	__s64 stack_id;
	char comm[16];
};

#endif

/* Off-CPU reasons: why a thread was off the CPU, from the functions on its
 * stack when it went off (the kernel's, innermost first; else the user's
 * libc wrapper) and whether it was preempted.  Pure data and a lookup. */
#ifndef ARCH_OFFCPU_H
#define ARCH_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>

enum offcpu_reason {
	OFFCPU_RUNNABLE,   /* preempted: it could run, waited for a CPU */
	OFFCPU_SLEEP,      /* nanosleep, timers */
	OFFCPU_LOCK,       /* futexes, mutexes, rwsems */
	OFFCPU_IO,         /* block I/O, page-cache waits, fsync */
	OFFCPU_WAIT,       /* pipes, sockets, poll/select/epoll, wait4 */
	OFFCPU_OTHER,      /* none of the above, or no stack to tell */
	OFFCPU_REASONS
};

/* "runnable", "sleep", "lock", "io", "wait", "other" (the JSON keys). */
const char *offcpu_reason_name(enum offcpu_reason r);

/* The reason kernel function FUNC says (a compiler suffix such as
 * ".isra.0" ignored), or false when the table has none. */
bool offcpu_kernel_reason(const char *func, enum offcpu_reason *r);
/* The same for a user function (the C library's blocking wrappers). */
bool offcpu_user_reason(const char *func, enum offcpu_reason *r);

/* The reason of one switch-out: runnable when PREEMPTED; else the first of
 * the kernel frames KFUNCS (innermost first, NULL entries unnamed) the table
 * knows, else the first user frame's of UFUNCS, else other. */
enum offcpu_reason offcpu_classify(bool preempted, const char *const *kfuncs, size_t nk,
				   const char *const *ufuncs, size_t nu);

/* The table's rows, for tests and cyctop(1): I-th row's function name, its
 * reason, whether the name is a prefix, and whether it is a user function;
 * false past the end. */
bool offcpu_table_row(size_t i, const char **func, enum offcpu_reason *r, bool *prefix,
		      bool *user);

#endif

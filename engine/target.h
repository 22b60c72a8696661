/* What is watched: a command cyctop launches, or a process it attaches to. */
#ifndef ENGINE_TARGET_H
#define ENGINE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct target {
	pid_t pid;
	bool launched;
	int go_fd;          /* launched: writing releases the child into exec */
	int err_fd;         /* launched: the child's exec errno, closed on success */
	bool ended;
	bool status_known;
	int status;         /* shell-style: exit code, or 128 + signal */
	int term_signal;    /* the signal that ended it; 0: it exited */
	uint64_t kill_next_ns;  /* attached: not looked for before (CLOCK_MONOTONIC) */
	uint64_t stat_next_ns;  /* attached: /proc/PID/stat not read again before (CLOCK_MONOTONIC) */
	char comm[64];
	char command[256];  /* launched: the command as given (argv[0]), for errors */
};

/* Where a launched command's standard streams go.  Zeroed: where cyctop's
 * go.  With REDIRECT, its stdout and stderr become OUT_FD and, when IN_FD
 * >= 0, its stdin IN_FD (the interactive view owns the terminal: a
 * command's output would scroll the screen, its reads would take keys). */
struct target_io {
	bool redirect;
	int out_fd;
	int in_fd;
};

/* Forks a child that waits before exec'ing ARGV, so that events can be
 * opened on it first (with enable_on_exec). */
int target_launch(struct target *t, char *const argv[], char *err, size_t errsz);
/* The same, with the command's streams as IO says (NULL: inherited). */
int target_launch_io(struct target *t, char *const argv[], const struct target_io *io,
		     char *err, size_t errsz);
/* Releases the child; reports a failed exec ("cannot run 'x': ..."). */
int target_start(struct target *t, char *err, size_t errsz);
/* Checks that PID exists and may be watched. */
int target_attach(struct target *t, pid_t pid, char *err, size_t errsz);
/* The thread ids of PID (from /proc/PID/task); at most MAX. */
int target_tids(pid_t pid, pid_t *tids, int max);
/* Whether the target has ended; fills status when it can be known.  An
 * attached process is looked at every so often, or now if LIKELY (its
 * events hung up). */
bool target_poll_end(struct target *t, bool likely);
/* A launched command still running is terminated (TERM, then KILL) and
 * reaped; an attached process is left alone. */
void target_finish(struct target *t);

#endif

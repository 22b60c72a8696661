/* A live watch: the target, its events, the rings, the profile. */
#ifndef ENGINE_SESSION_H
#define ENGINE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/events.h"
#include "engine/profile.h"

struct session_opts {
	char *const *argv;     /* launch this command ... */
	pid_t pid;             /* ... or attach to this process */
	const char *events;    /* -e list; NULL: "cycles" (cpu-clock without a PMU) */
	size_t ring_pages;     /* data pages per CPU ring (a power of two); 0: 64 */
	int max_counters;      /* --counters: the planner's cap; 0: the model's inventory */
	unsigned slice_ms;     /* --mux-slice: time-slice length; 0: MUX_SLICE_MS_DEFAULT */
	bool one_group;        /* runs mode: open only plan group GROUP (and the
				* reference), exact counts, nothing rotated */
	int group;
};

struct session;

/* Opens everything and starts the target.  NULL with one line in ERR. */
struct session *session_open(const struct session_opts *o, char *err, size_t errsz);
/* Waits up to TIMEOUT_MS for data, then processes what the rings hold.
 * Returns true once the target has ended and the rings are drained. */
bool session_poll(struct session *s, int timeout_ms);
/* Milliseconds until the next group rotation is due (0: now), -1 if
 * nothing rotates: loops that wait elsewhere (for keys) wait no longer. */
int session_next_rotation_ms(const struct session *s);
/* An immutable snapshot; the live window restarts. */
struct snapshot *session_snapshot(struct session *s);
const struct ev_list *session_events(const struct session *s);
/* The number of groups the planner made of the session's events. */
int session_groups(const struct session *s);
/* Snapshots taken from now on show the functions of thread TID only
 * (a tid of the snapshot's threads, PROFILE_TID_OTHER included); 0: of
 * every thread. */
void session_set_thread_filter(struct session *s, uint32_t tid);
/* Per-address samples of one function (an immutable copy; free()). */
struct ip_counts *session_ip_counts(struct session *s, const char *name, const char *module);
/* The instructions of function NAME in MODULE (decoded once, cached until
 * session_close).  NULL with a reason in ERR. */
struct asm_func;
const struct asm_func *session_asm(struct session *s, const char *name, const char *module,
				   char *err, size_t errsz);
/* The function at ADDR in the address space of FROM (a call's callee). */
const struct asm_func *session_asm_at(struct session *s, const struct asm_func *from,
				      uint64_t addr, char *err, size_t errsz);
/* Stops watching: a launched command is terminated, an attached process left
 * running; everything is closed. */
void session_close(struct session *s);

#endif

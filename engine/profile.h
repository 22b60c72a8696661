/* The profile: per-event sample counts per function and module, totals,
 * a live window (since the last snapshot) and the cumulative view.
 * Consumers only ever see snapshots, which are immutable copies. */
#ifndef ENGINE_PROFILE_H
#define ENGINE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/events.h"

struct profile;

struct snap_event {
	char name[EVENT_NAME_MAX];
	uint64_t sav;
	uint64_t samples;        /* cumulative */
	uint64_t window;         /* since the previous snapshot */
	double count;            /* counting-mode total, scaled by enabled/running */
	double coverage;         /* running / enabled, 1 when never multiplexed */
	bool counted;            /* false: never ran (coverage 0) */
};

struct snap_func {
	const char *name;        /* "[unknown]" when no symbol */
	const char *module;      /* path, "[vdso]", "[anon]", "[unknown]" */
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
};

struct snap_module {
	const char *module;
	uint64_t *samples;       /* [n_events] cumulative */
	uint64_t *window;        /* [n_events] */
};

/* Samples at one instruction address (for the asm view). */
struct snap_ip {
	uint64_t ip;
	uint64_t *samples;       /* [n_events] cumulative */
};

struct ip_counts {           /* immutable, one allocation */
	int n_events;
	size_t n;
	struct snap_ip *ips;     /* sorted by address */
};

struct snapshot {
	double time;             /* seconds since the watch started */
	double window_seconds;
	int n_events;
	struct snap_event ev[EVENTS_MAX];
	size_t n_funcs;
	struct snap_func *funcs; /* sorted by the first event's cumulative samples */
	size_t n_modules;
	struct snap_module *modules; /* sorted like funcs */
	uint64_t lost, throttled, undecodable;
	int pid;
	char command[64];
	bool ended;
	int exit_status;         /* valid when ended: shell-style (128+sig on a signal) */
	char pmu[64];
	char notice[256];
};

struct profile *profile_new(const struct ev_list *events);
void profile_free(struct profile *p);

/* Adds N samples of event EV at address IP of function NAME in MODULE
 * (strings are interned here). */
void profile_add(struct profile *p, int ev, uint64_t ip, const char *name, const char *module,
		 uint64_t n);
void profile_add_lost(struct profile *p, uint64_t lost);
void profile_add_throttle(struct profile *p);
void profile_add_undecodable(struct profile *p);
/* Counting-mode totals of event EV (summed over its file descriptors). */
void profile_set_count(struct profile *p, int ev, double value, double enabled, double running);

/* An immutable copy; the window restarts. */
struct snapshot *profile_snapshot(struct profile *p, double now, double window_seconds);
void snapshot_free(struct snapshot *s);

/* The per-address samples of function NAME in MODULE, as an immutable copy;
 * NULL when out of memory.  Freed with free(). */
struct ip_counts *profile_ip_counts(struct profile *p, const char *name, const char *module);

/* Percent of event EV's samples in row F (cumulative or window). */
double snapshot_percent(const struct snapshot *s, const struct snap_func *f, int ev,
			bool window);

#endif

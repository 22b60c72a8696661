/* cyctop's own metadata in a perf.data file: what perf has no field for
 * (the model, the multiplexing plan, counts and coverages, the watch's
 * duration and exit status).  A text blob of "key value..." lines carried
 * in a feature section perf skips (engine/perfdata.h); unknown lines are
 * ignored, so later versions may add keys. */
#ifndef ENGINE_SESSION_META_H
#define ENGINE_SESSION_META_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/events.h"

#define META_MAGIC "cyctop-session 1"

struct meta_event {
	bool present;     /* a line for this event was read */
	int group;        /* plan group, or -1 (the shared reference) */
	bool counted;
	double coverage;
	double count;     /* already scaled by coverage */
};

struct session_meta {
	char model[64];
	char tree[16];
	char command[64];
	double duration;       /* seconds watched */
	bool has_exit;
	int exit_status;
	int n_groups;
	int slice_ms;
	char reference[EVENT_NAME_MAX];
	double reference_count;
	int n_events;
	struct meta_event ev[EVENTS_MAX];
	bool internal_reference;  /* the file's last attr is cyctop's internal
				   * multiplexing reference, not an event */
	bool system_wide;         /* recorded with -a: the whole machine */
};

/* Parses BLOB (NUL-terminated, or NULL) into M (zeroed first).  Returns
 * false when BLOB is not cyctop metadata; M then stays empty. */
bool session_meta_parse(const char *blob, struct session_meta *m);
/* Writes M as text into BUF.  Returns the length, or -1 if BUF is short. */
int session_meta_format(const struct session_meta *m, char *buf, size_t bufsz);

#endif

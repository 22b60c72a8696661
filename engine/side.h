/* Counters beside the events: counted, never sampled, never columns of the
 * hotspot table; their totals go to the trees only.  On a host without a
 * PMU, the software tree's counters (page faults, context switches, CPU
 * migrations), so that the one tree such a host has is complete without
 * -e (perf stat counts the same ones by default). */
#ifndef ENGINE_SIDE_H
#define ENGINE_SIDE_H

#include <stdbool.h>
#include <sys/types.h>

#include "engine/events.h"
#include "engine/profile.h"

struct side_counters;

/* The counters to count beside EVENTS on this host (those not in EVENTS
 * already) into OUT (at most MAX): the number, 0 when none. */
int side_specs(const struct ev_list *events, struct ev_spec *out, int max);

/* Opens the side counters of EVENTS on threads TIDS (system-wide: pid -1 on
 * each CPU C with CPU_ON[C], or every CPU when CPU_ON is NULL), each
 * inherited by the threads' children, enabled at the exec of a LAUNCHED
 * target.  Best effort: a counter that cannot be opened (a limit on open
 * files, permissions) is left out, and the tree says "not measured".
 * NULL when none is open. */
struct side_counters *side_open(const struct ev_list *events, const pid_t *tids, int ntids,
				const bool *cpu_on, int ncpus, bool system_wide, bool launched);
/* Their totals (scaled by enabled/running) into SNAP's side counters. */
void side_read(const struct side_counters *sc, struct snapshot *snap);
void side_close(struct side_counters *sc);

#endif

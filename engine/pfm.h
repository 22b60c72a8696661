/* libpfm4: event strings to perf_event_attr, forced models for hosts that
 * lack them, and the host's PMU. */
#ifndef ENGINE_PFM_H
#define ENGINE_PFM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>

/* (Re)initializes libpfm4, forcing PMU FORCE when not NULL (the
 * LIBPFM_FORCE_PMU mechanism).  Returns 0, or -1 with a reason in ERR. */
int pfm_setup(const char *force, char *err, size_t errsz);

/* Encodes EVENT (a libpfm4 string, period= etc. allowed) for user space into
 * ATTR.  FSTR, if not NULL, receives libpfm4's fully qualified string. */
int pfm_encode(const char *event, struct perf_event_attr *attr, char *fstr,
	       size_t fstrsz, char *err, size_t errsz);

/* The active core PMU's libpfm4 name, or NULL when the host has none. */
const char *pfm_host_pmu(void);

#endif

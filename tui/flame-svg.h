/* --format flame: a flame graph (tui/flame.h) as an SVG, coloured by a
 * metric, with flamegraph.pl's click-to-zoom and search. */
#ifndef TUI_FLAME_SVG_H
#define TUI_FLAME_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "tui/flame.h"

/* Writes F as an SVG coloured by M under TITLE; -1 on a write error. */
int flame_write_svg(FILE *out, const struct flame *f, const struct flame_metric *m,
		    const char *title);
/* The metric named WANT among those EVENTS[n] and the baseline BASE (may
 * be NULL) give (its whole name, or the first whose name starts with it);
 * WANT NULL or "": the first the counters give, else by name.  -1 with the
 * choices in ERR. */
int flame_pick_metric(const char *const *events, int n, const struct flame_base *base,
		      const char *want, struct flame_metric *out, char *err, size_t errsz);

#endif

/* The cells the hotspots', processes' and cgroups' rows share: an event's
 * count or percent, the active tree's derived columns (IPC, CPI,
 * stall%...), and with off-cpu the wall seconds. */
#ifndef TUI_CELLS_H
#define TUI_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/theme.h"

struct tui;

/* An event column's width */
#define EVCOL 11

/* A derived column of the active tree whose two events were sampled:
 * which snapshot events feed it. */
struct derived_col;
#define MAX_DERIVED 4
struct shown_col {
	const struct derived_col *col;
	int num, den;
};

/* A cell's colour by its share: hot from 20%, warm from 5%. */
enum theme_el tui_heat(double pct);
/* One event's cell at column X of row Y, WIDTH wide: the count or its
 * percent (s), coloured by how hot it is. */
void tui_event_cell(const struct tui *t, int y, int x, int width, uint64_t count, double pct,
		    bool selected);
/* The derived columns of the active tree whose inputs the snapshot has. */
int tui_derived_columns(const struct tui *t, struct shown_col *out);
/* Column SC over a row's counts (window or cumulative as shown); NAN when
 * an input was never counted. */
double tui_derived_value(const struct tui *t, const uint64_t *samples, const uint64_t *window,
			 const struct shown_col *sc);
/* The derived columns' cells from column X; returns the column after. */
int tui_derived_cells(const struct tui *t, int y, int x, const uint64_t *samples,
		      const uint64_t *window, const struct shown_col *dc, int nd, bool selected);
/* With off-cpu: the on- and off-CPU seconds of process PID's threads or
 * of thread TID (-1: all of them), two columns into BUF; their heading. */
void tui_wall_cells(const struct tui *t, int64_t pid, int64_t tid, char *buf, size_t n);
const char *tui_wall_heading(const struct tui *t);

#endif

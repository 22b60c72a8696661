/* The hotspots view against a baseline (issue 29): cyctop -i NEW
 * --baseline BASE, and in a live watch the B key, which marks the profile
 * of the moment.  Functions are matched by name and module basename, as
 * cyctop diff matches them (engine/diff.h); D switches the event columns
 * between absolute, delta and delta %.  A recorded baseline is compared in
 * absolute counts (samples x period); a marked one in rates per second of
 * CPU (the sampled clock event's count, else per second of the watch):
 * each function's rate since the mark against its rate until then. */
#ifndef TUI_BASELINE_H
#define TUI_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/profile.h"

enum base_mode { BASE_ABSOLUTE, BASE_DELTA, BASE_DELTA_PCT, BASE_MODES };

struct baseline;

/* A recorded session (perf.data, pprof) read whole as the baseline; NULL
 * with one line in ERR. */
struct baseline *baseline_open(const char *path, char *err, size_t errsz);
/* The live profile S as the baseline (rates); NULL when out of memory. */
struct baseline *baseline_mark(const struct snapshot *s);
void baseline_free(struct baseline *b);

/* The cell of function F, event E of NOW in MODE (delta or delta %), into
 * BUF, 10 columns; "-" when the baseline has no such event. */
void baseline_cell(const struct baseline *b, const struct snapshot *now,
		   const struct snap_func *f, int e, enum base_mode mode, char *buf, size_t sz);
/* The column heading of event E in MODE, into BUF. */
void baseline_heading(const struct snapshot *now, int e, enum base_mode mode, char *buf,
		      size_t sz);
/* What the baseline is, for the header: "baseline base.data" or "baseline
 * marked at 12.3 s (rates per CPU second)". */
const char *baseline_label(const struct baseline *b);

/* ---- the view's side (struct tui, tui/tui.h) ---- */
struct tui;
/* --baseline PATH: loaded into T; -1 having said why on stderr. */
int tui_open_baseline(struct tui *t, const char *path);
/* D (absolute, delta, delta %) and B (mark the live profile); true when
 * KEY was one of them. */
bool tui_baseline_key(struct tui *t, int key);
/* The hotspots' cell of F, event E, or its heading, when a delta is shown:
 * true having written BUF; false: the view draws its own. */
bool tui_baseline_cell(const struct tui *t, const struct snap_func *f, int e, char *buf,
		       size_t sz);
bool tui_baseline_heading(const struct tui *t, int e, char *buf, size_t sz);

#endif

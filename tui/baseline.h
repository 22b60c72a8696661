/* The views against a baseline (issue 29): cyctop -i NEW --baseline BASE,
 * and in a live watch the B key, which marks the profile of the moment.
 * The hotspots' event columns, the tree's delta column (each node
 * evaluated on the baseline's counts too: BASE may be counts files), the
 * asm view's source lines (by file:line, a recorded baseline's own code)
 * and the flame graph's baseline-delta colours (frames matched by path).  Functions are matched by name and module basename, as
 * cyctop diff matches them (engine/diff.h); D switches the event columns
 * between absolute, delta and delta %.  A recorded baseline is compared in
 * absolute counts (samples x period); a marked one in rates per second of
 * CPU (the sampled clock event's count, else per second of the watch):
 * each function's rate since the mark against its rate until then. */
#ifndef TUI_BASELINE_H
#define TUI_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/tree.h"
#include "engine/profile.h"
#include "tui/flame.h"

enum base_mode { BASE_ABSOLUTE, BASE_DELTA, BASE_DELTA_PCT, BASE_MODES };

struct baseline;

/* A recorded session (perf.data, pprof) read whole as the baseline, its
 * functions named as HOW says (the watch's: NULL, as perf report), or
 * counts files (the tree's only: no functions); NULL with one line in
 * ERR. */
struct sym_naming;
struct baseline *baseline_open(const char *path, const struct sym_naming *how, char *err,
			       size_t errsz);
/* The live profile S as the baseline (rates); NULL when out of memory. */
struct baseline *baseline_mark(const struct snapshot *s);
void baseline_free(struct baseline *b);

/* The cell of function F, event E of NOW in MODE (delta or delta %), into
 * BUF, 10 columns; "-" when the baseline has no such event. */
void baseline_cell(const struct baseline *b, const struct snapshot *now,
		   const struct snap_func *f, int e, enum base_mode mode, char *buf, size_t sz);
/* A count CUR against THEN in MODE (delta, with an SI suffix, or delta %),
 * 10 columns. */
void baseline_delta_cell(double cur, double then, enum base_mode mode, char *buf, size_t sz);
/* The column heading of event E in MODE, into BUF, BASELINE_HEADING_COLS
 * at most: "d% cpu-clock", or the delta's unit, "d cpu-clock ns/s" (a
 * mark's rates per CPU second), "d cycles events". */
#define BASELINE_HEADING_COLS 17
void baseline_heading(const struct baseline *b, const struct snapshot *now, int e,
		      enum base_mode mode, char *buf, size_t sz);
/* What the baseline is, for the header: "baseline base.data" or "baseline
 * marked at 12.3 s (rates per CPU second)". */
const char *baseline_label(const struct baseline *b);

/* The counts of snapshot S a tree reads (its events' counting totals, the
 * side counters, duration_time), into C (initialized here). */
void baseline_snapshot_counts(const struct snapshot *s, struct counts *c);
/* The counts the tree view compares against NOW's counts NOW_C: in
 * BASE_C the baseline's, in CUR_C NOW_C's (both initialized here).  A
 * marked baseline gives rates per CPU second: CUR_C the counts since the
 * mark over the seconds since, BASE_C the mark's over the seconds until
 * it.  -1 when out of memory (nothing to free). */
int baseline_tree_counts(const struct baseline *b, const struct snapshot *now,
			 const struct counts *now_c, struct counts *cur_c, struct counts *base_c);
/* A tree node's delta cell (10 columns): CUR - BASE in its UNIT, or the
 * change in % (MODE); "-" when either is not measured. */
void baseline_node_cell(const struct node_value *cur, const struct node_value *base,
			enum arch_unit unit, enum base_mode mode, char *buf, size_t sz);
/* The baseline's flame graph for baseline-delta against NOW (the
 * constants of its rates); false when the baseline has no stacks. */
bool baseline_flame(const struct baseline *b, const struct snapshot *now,
		    struct flame_base *out);
/* The asm view's source lines: function NAME of module MODULE (matched
 * by basename) in the recorded baseline, its samples of event EV (by NOW's
 * event's name) per "file:line" (file's basename): *COUNT for LINE, false
 * when the baseline cannot say (marked, counts files, no such event, code
 * or line table). */
bool baseline_line_count(struct baseline *b, const struct snapshot *now, const char *name,
			 const char *module, int ev, const char *file, int line, double *count);

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
/* Whether the views show deltas (a baseline, D not on absolute, the
 * cumulative profile). */
bool tui_baseline_shown(const struct tui *t);

#endif

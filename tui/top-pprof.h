/* cyctop -b --format pprof [-o FILE]: the option checks, the output file
 * and the profile written when the watch ends (engine/pprof.h). */
#ifndef TUI_TOP_PPROF_H
#define TUI_TOP_PPROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/session.h"
#include "tui/format.h"

struct top_pprof_opts {
	enum out_format format;
	const char *output;      /* -o FILE; NULL: stdout */
	bool batch, window, mux_runs;
	uint32_t tid;            /* --tid */
};

/* -o and --format pprof belong together, in batch mode, over the whole
 * watch.  Returns 0, or -1 after one line on stderr. */
int top_pprof_check(const struct top_pprof_opts *o);
/* The profile's destination, opened before the watch so that a file that
 * cannot be written fails at once: -o FILE or stdout.  NULL after one line. */
FILE *top_pprof_open(const char *output);
/* Closes it (stdout stays); -1 after one line when the file failed.  A
 * file left empty (the watch failed before writing) is removed, so that no
 * empty profile is taken for one. */
int top_pprof_close(FILE *out, const char *output);
/* Writes session S's cumulative profile to OUT; IN_PATH, a recorded
 * session's file (NULL: a live watch), dates it.  Returns 0, or -1 after
 * one line. */
int top_pprof_write(struct session *s, FILE *out, const char *output, const char *in_path);

#endif

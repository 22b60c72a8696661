/* The main command: watch a launched command or an attached process, in
 * batch mode (-b) or, later, the interactive views. */
#ifndef TUI_TOP_H
#define TUI_TOP_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/profile.h"
#include "tui/format.h"

int top_main(int argc, char **argv);
/* cyctop demo: the bundled workloads, watched. */
int demo_main(int argc, char **argv);

/* --format folded across the refreshes of one watch: the last snapshot's
 * stacks, held until they are written.  Starts zeroed. */
struct top_folded {
	FILE *out;
	char *text;
	size_t len;
	bool done, missing;
	/* --format flame: an SVG (tui/flame-svg.h) written as it is, to OUT
	 * when set before the first refresh (-o FILE), coloured by METRIC */
	bool svg;
	const char *metric;
	const struct baseline *baseline;  /* --baseline: for baseline-delta */
};

/* Prints one refresh of the hotspot table (pure formatting).  OUT_FOLDED
 * keeps the last snapshot's folded stacks (first event) in FOLDED and
 * prints them once: when the snapshot says the target ended, or at
 * top_print_finish().  FOLDED may be NULL for the other formats. */
void top_print(FILE *out, const struct snapshot *s, enum out_format fmt, int window,
	       int first, struct top_folded *folded);
/* After the last top_print: writes the folded stacks still held and frees
 * them.  Returns -1 when --format folded had no call stacks (the error was
 * printed), else 0. */
int top_print_finish(struct top_folded *folded);

#endif

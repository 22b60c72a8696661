/* The main command: watch a launched command or an attached process, in
 * batch mode (-b) or, later, the interactive views. */
#ifndef TUI_TOP_H
#define TUI_TOP_H

#include <stdio.h>

#include "engine/profile.h"
#include "tui/format.h"

int top_main(int argc, char **argv);
/* cyctop demo: the bundled workloads, watched. */
int demo_main(int argc, char **argv);

/* Prints one refresh of the hotspot table (pure formatting).  OUT_FOLDED
 * keeps the last snapshot's folded stacks (first event) and prints them
 * once: when the snapshot says the target ended, or at top_print_finish(). */
void top_print(FILE *out, const struct snapshot *s, enum out_format fmt, int window,
	       int first);
/* After the last top_print: writes the folded stacks still held (also done
 * at exit).  Returns -1 when --format folded had no call stacks (the error
 * was printed), else 0. */
int top_print_finish(void);

#endif

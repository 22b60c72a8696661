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

/* Prints one refresh of the hotspot table (pure formatting). */
void top_print(FILE *out, const struct snapshot *s, enum out_format fmt, int window,
	       int first);

#endif

/* Where a launched command's stdout and stderr go (--child-output): the
 * interactive view owns the terminal, so by default they go to a log file
 * the status line names; batch mode leaves them where cyctop's go, except
 * that a machine format on stdout sends them to stderr. */
#ifndef TUI_CHILD_OUTPUT_H
#define TUI_CHILD_OUTPUT_H

#include <limits.h>
#include <stdbool.h>

#include "engine/target.h"

struct child_output {
	int out_fd, in_fd;     /* -1: not opened */
	bool is_log;           /* the default log (removed when left empty) */
	char path[PATH_MAX];   /* the log or FILE; "" when none */
};

/* Opens what SPEC names ("tty", "null", a FILE; NULL: the default of the
 * mode, a log in $TMPDIR when INTERACTIVE, cyctop's stderr for both of
 * the command's streams when MACHINE_STDOUT: cyctop writes json, csv,
 * folded, pprof or an SVG there) and fills IO.  0, or -1 with one line
 * on stderr. */
int child_output_open(struct child_output *c, const char *spec, bool interactive,
		      bool machine_stdout, struct target_io *io);
/* Closes the files; a log left empty is removed, else its path is said
 * on stderr (after the screen is restored). */
void child_output_close(struct child_output *c);

#endif

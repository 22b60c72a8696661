/* What every subcommand shares (tui/cmd.h): its error line, the clock it
 * times refreshes with, the exit status of a watch, the refresh delay's
 * range.  Apart from cyctop.c's dispatch, so that the commands and views
 * that use them do not depend on main's file. */
#include "tui/cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tui/format.h"
#include "tui/ui.h"

double cmd_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cmd_watch_status(bool launched, bool ended, int exit_status)
{
	int sig = ui_pending_signal();

	if (sig)
		return 128 + sig;
	return launched && ended && exit_status >= 0 ? exit_status : 0;
}

int cmd_parse_delay(const char *s, double *out)
{
	char *end;
	double d = strtod(s, &end);

	if (end == s || *end || !(d >= DELAY_MIN_S && d <= DELAY_MAX_S))
		return -1;
	*out = d;
	return 0;
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_error(stderr, fmt, ap);
	va_end(ap);
}

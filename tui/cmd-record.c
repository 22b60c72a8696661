/* cyctop record -o FILE [OPTIONS] (-p PID | -- COMMAND): watch without a
 * view and keep everything in a perf.data file, for cyctop -i FILE later,
 * on another machine, or for perf report. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/session.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/ui.h"

struct record_opts {
	struct session_opts s;
	double duration;   /* 0: until the target ends or a signal */
};

static const char usage_text[] =
	"usage: cyctop record -o FILE [OPTIONS] (-p PID | -a | -- COMMAND [ARGS...])\n"
	"  -o, --output FILE     the perf.data file to write\n"
	"  -a, --all-cpus        every process on every CPU (needs perf_event_paranoid <= 0\n"
	"                        or CAP_PERFMON); stop it with -d or ^C\n"
	"  -C, --cpu LIST        these CPUs only (0,2-3; implies -a)\n"
	"  -e, --events LIST     events as for cyctop (default: cycles, or cpu-clock)\n"
	"  -p, --pid PID         attach to a running process instead of running COMMAND\n"
	"  -d, --duration SECS   stop after SECS (default: when the target ends, or ^C)\n"
	"  -m, --mmap-pages N    data pages of each CPU's ring, a power of two (default 64;\n"
	"                        256 with -g dwarf)\n"
	"  -g                    record call stacks: --call-graph dwarf\n"
	"      --call-graph MODE dwarf (registers and a copy of the user stack, 8192 bytes a\n"
	"                        sample), dwarf,SIZE (SIZE bytes, a multiple of 8 up to\n"
	"                        65528) or fp (frame pointers), as perf record's\n"
	"      --counters N      plan groups for at most N counters (time-slice multiplexing)\n"
	"      --mux-slice MS    time-slice length in milliseconds (default 100)\n";

static int number(const char *arg, const char *what, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || *end || !*arg || !(*out >= lo && *out <= hi)) {
		cmd_error("record: %s '%s' is out of range [%g, %g]", what, arg, lo, hi);
		return -1;
	}
	return 0;
}

enum { OPT_COUNTERS = 0x100, OPT_MUX_SLICE };
enum { OPT_CALL_GRAPH = 0x200 };

static int parse_option(int ch, const char *arg, struct record_opts *o)
{
	double v;

	switch (ch) {
	case 'o':
		o->s.record = arg;
		o->s.start_sink = session_record_start;
		return 0;
	case 'e': o->s.events = arg; return 0;
	case 'a': o->s.all_cpus = true; return 0;
	case 'C': o->s.cpus = arg; return 0;
	case 'p':
		if (number(arg, "--pid", 1, INT_MAX, &v) < 0 || v != (int)v)
			return -1;
		o->s.pid = (pid_t)v;
		return 0;
	case 'd': return number(arg, "--duration", 0.01, 86400, &o->duration);
	case 'm':
		if (number(arg, "--mmap-pages", 1, 1 << 20, &v) < 0)
			return -1;
		if (v != (size_t)v || ((size_t)v & ((size_t)v - 1))) {
			cmd_error("record: --mmap-pages '%s' is not a power of two", arg);
			return -1;
		}
		o->s.ring_pages = (size_t)v;
		return 0;
	case OPT_COUNTERS:
		if (number(arg, "--counters", 1, 64, &v) < 0)
			return -1;
		o->s.max_counters = (int)v;
		return 0;
	case OPT_MUX_SLICE:
		if (number(arg, "--mux-slice", 1, 10000, &v) < 0)
			return -1;
		o->s.slice_ms = (unsigned)v;
		return 0;
	case 'g':  /* keeps a mode --call-graph gave */
		if (!o->s.call_graph)
			o->s.call_graph = CALL_GRAPH_DWARF;
		return 0;
	case OPT_CALL_GRAPH: {
		char err[160];
		if (session_parse_call_graph(arg, &o->s, err, sizeof(err)) < 0) {
			cmd_error("record: %s", err);
			return -1;
		}
		return 0;
	}
	case 'h': fputs(usage_text, stdout); exit(0);
	default: fputs(usage_text, stderr); return -1;
	}
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "duration", required_argument, NULL, 'd' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "counters", required_argument, NULL, OPT_COUNTERS },
		{ "mux-slice", required_argument, NULL, OPT_MUX_SLICE },
		{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;

	memset(o, 0, sizeof(*o));
	o->s.cmdline = argv;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+o:e:p:d:m:gaC:h", longopts, NULL)) != -1)
		if (parse_option(ch, optarg, o) < 0)
			return -1;
	if (optind < argc)
		o->s.argv = argv + optind;
	if (!o->s.record) {
		cmd_error("record: where to? (-o FILE)");
		return -1;
	}
	if (o->s.all_cpus || o->s.cpus) {
		if (o->s.argv || o->s.pid) {
			cmd_error("record: -a watches every process: not with %s",
				  o->s.pid ? "-p PID" : "a command");
			return -1;
		}
		return 0;
	}
	if (!!o->s.argv == !!o->s.pid) {
		cmd_error("record: give either -p PID, -a or -- COMMAND");
		return -1;
	}
	return 0;
}

/* Says what was written; returns cyctop's exit status (cmd_watch_status). */
static int report(struct session *s, const struct record_opts *o)
{
	char path[PATH_MAX * FMT_ESCAPE_MAX];
	struct snapshot *snap = session_snapshot(s);
	uint64_t records, bytes, samples = 0;

	fmt_escape(path, sizeof(path), o->s.record);
	session_record_stats(s, &records, &bytes);
	for (int e = 0; snap && e < snap->n_events; e++)
		samples += snap->ev[e].samples;
	fprintf(stderr, "cyctop record: %" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
			" records (%.1f KB) written to %s\n",
		samples, snap ? snap->lost : 0, records, (double)bytes / 1024, path);
	int rc = snap ? cmd_watch_status(o->s.argv != NULL, snap->ended, snap->exit_status) : 1;
	snapshot_free(snap);
	return rc;
}

static int record_main(int argc, char **argv)
{
	struct record_opts o;
	char err[512];

	if (parse_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	ui_install_signals();
	struct session *s = session_open(&o.s, err, sizeof(err));
	if (!s) {
		cmd_error("record: %s", err);
		return 1;
	}
	if (session_events(s)->notice[0])
		cmd_error("%s", session_events(s)->notice);
	double end = o.duration > 0 ? cmd_now_s() + o.duration : 0;
	while (!ui_pending_signal() && !session_poll(s, 100) && !(end && cmd_now_s() >= end) &&
	       !session_record_failed(s))
		;
	session_poll(s, 0);
	int rc = session_record_finish(s, err, sizeof(err));
	if (rc < 0)
		cmd_error("record: %s", err);
	else
		rc = report(s, &o);
	session_close(s);
	return rc < 0 ? 1 : rc;
}

const struct cmd_entry cmd_record_entry = {
	"record",
	"record -o FILE [-e LIST] [-g] [-d SECS] (-p PID | -a [-C LIST] | -- COMMAND)",
	record_main,
};

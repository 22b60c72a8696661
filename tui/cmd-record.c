/* cyctop record [-o FILE] [OPTIONS] (-p PID | -- COMMAND): watch without a
 * view and keep everything in a perf.data file, for cyctop -i FILE later,
 * on another machine, or for perf report. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "engine/session.h"
#include "tui/cmd.h"
#include "tui/format.h"
#include "tui/opt.h"
#include "tui/ui.h"

struct record_opts {
	struct session_opts s;
	double duration;   /* 0: until the target ends or a signal */
	int runs;          /* --runs N: N recordings PREFIX.1.data ... (0: one, -o FILE) */
};

static const char record_usage[] =
	"usage: cyctop record [-o FILE] [OPTIONS] (-p PID | -a | -- COMMAND [ARGS...])";

/* perf record's defaults: perf.data, and perf.1.data ... for --runs */
#define DEFAULT_OUTPUT "perf.data"
#define DEFAULT_PREFIX "perf"

/* As perf record: a perf.data of the last recording becomes perf.data.old
 * (the one before is lost), so that a record by habit loses no more than
 * one recording.  Only the default name: -o FILE says where, and gets it. */
static int keep_old(const char *path)
{
	char old[PATH_MAX];
	struct stat st;

	if (strcmp(path, DEFAULT_OUTPUT) != 0 || stat(path, &st) < 0 || st.st_size == 0)
		return 0;
	snprintf(old, sizeof(old), "%s.old", path);
	if (rename(path, old) < 0) {
		cmd_error("record: cannot keep the last %s as %s: %s", path, old, strerror(errno));
		return -1;
	}
	return 0;
}

/* -a, -C: every process, nothing else to watch */
static int check_all_cpus(const struct record_opts *o)
{
	if (o->s.argv || o->s.pid) {
		cmd_error("record: -a watches every process: not with %s",
			  o->s.pid ? "-p PID" : "a command");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	const struct opt opts[] = {
		OPT_STRING('o', "output", &o->s.record, "FILE",
			   "the perf.data file to write (default perf.data; an older\n"
			   "perf.data becomes perf.data.old, as perf record's)"),
		OPT_FLAG('a', "all-cpus", &o->s.all_cpus,
			 "every process on every CPU (needs perf_event_paranoid <= 0\n"
			 "or CAP_PERFMON); stop it with -d or ^C"),
		OPT_STRING('C', "cpu", &o->s.cpus, "LIST", "these CPUs only (0,2-3; implies -a)"),
		OPT_EVENTS(&o->s.events, "events as for cyctop (default: cycles, or cpu-clock;\n"
			   "4000 Hz without /SAV, as perf record)"),
		OPT_PID(&o->s.pid, "attach to a running process instead of running COMMAND"),
		OPT_DURATION(&o->duration, "stop after SECS (default: when the target ends, or ^C)"),
		OPT_MMAP_PAGES(&o->s.ring_pages,
			       "data pages of each CPU's ring, a power of two (default 64;\n"
			       "-g dwarf or off-cpu: 1024 as root on up to 4 CPUs, 512 on\n"
			       "more, 256 for another user)"),
		OPT_G(&o->s, "record call stacks: --call-graph dwarf (perf's -g is fp:\n"
			     "distribution code has no frame pointers)"),
		OPT_CALL_GRAPH(&o->s, "dwarf (registers and a copy of the user stack, 8192 bytes a\n"
				      "sample), dwarf,SIZE (SIZE bytes, a multiple of 8 up to\n"
				      "65528) or fp (frame pointers), as perf record's"),
		OPT_COUNTERS(&o->s.max_counters,
			     "plan groups for at most N counters (time-slice multiplexing)"),
		OPT_MUX_SLICE(&o->s.slice_ms, "time-slice length in milliseconds (default 100)"),
		OPT_INT(0, "runs", &o->runs, 1, SNAP_MAX_RUNS, "N",
			"run COMMAND N times, one recording each: -o PREFIX writes\n"
			"PREFIX.1.data ... PREFIX.N.data (for cyctop diff -b;\n"
			"default PREFIX perf)"),
		OPT_END,
	};
	const struct opt_cmd cmd = { record_usage, opts, NULL, true };

	o->s.cmdline = argv;
	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return -1;
	if (first < argc)
		o->s.argv = argv + first;
	if (!o->s.record)
		o->s.record = o->runs ? DEFAULT_PREFIX : DEFAULT_OUTPUT;
	o->s.start_sink = session_record_start;
	if (o->s.all_cpus || o->s.cpus)
		return check_all_cpus(o);
	if (!!o->s.argv == !!o->s.pid) {
		cmd_error("record: give either -p PID, -a or -- COMMAND");
		return -1;
	}
	if (o->runs && !o->s.argv) {
		cmd_error("record: --runs repeats a command: give -- COMMAND");
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
		samples += snap->ev[e].nsamples ? snap->ev[e].nsamples : snap->ev[e].samples;
	fprintf(stderr, "cyctop record: %" PRIu64 " samples, %" PRIu64 " lost, %" PRIu64
			" records (%.1f KB) written to %s\n",
		samples, snap ? snap->lost : 0, records, (double)bytes / 1024, path);
	int rc = snap ? cmd_watch_status(o->s.argv != NULL, snap->ended, snap->exit_status) : 1;
	snapshot_free(snap);
	return rc;
}

/* One recording into O->s.record. */
static int record_one(struct record_opts *o)
{
	char err[512];

	if (keep_old(o->s.record) < 0)
		return 1;
	struct session *s = session_open(&o->s, err, sizeof(err));
	if (!s) {
		cmd_error("record: %s", err);
		return 1;
	}
	if (session_events(s)->notice[0])
		cmd_error("%s", session_events(s)->notice);
	double end = o->duration > 0 ? cmd_now_s() + o->duration : 0;
	while (!ui_pending_signal() && !session_poll(s, 100) && !(end && cmd_now_s() >= end) &&
	       !session_record_failed(s))
		;
	session_poll(s, 0);
	int rc = session_record_finish(s, err, sizeof(err));
	if (rc < 0)
		cmd_error("record: %s", err);
	else
		rc = report(s, o);
	session_close(s);
	return rc < 0 ? 1 : rc;
}

static int record_main(int argc, char **argv)
{
	struct record_opts o;

	if (parse_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	ui_install_signals();
	if (!o.runs)
		return record_one(&o);
	/* --runs: the same recording N times; the first failed run (or a
	 * signal) ends the series, and its status is cyctop's */
	const char *prefix = o.s.record;
	char path[PATH_MAX];
	int rc = 0;
	for (int i = 1; i <= o.runs && rc == 0 && !ui_pending_signal(); i++) {
		if (snprintf(path, sizeof(path), "%s.%d.data", prefix, i) >= (int)sizeof(path)) {
			cmd_error("record: -o %s: too long a prefix", prefix);
			return EXIT_USAGE;
		}
		o.s.record = path;
		rc = record_one(&o);
	}
	return rc ? rc : cmd_watch_status(false, false, -1);
}

const struct cmd_entry cmd_record_entry = {
	"record",
	"record [-o FILE] [-e LIST] [-g] [-d SECS] (-p PID | -a [-C LIST] | -- COMMAND)\n"
	"  cyctop record --runs N [-o PREFIX] [-e LIST] -- COMMAND   (PREFIX.1.data ...)",
	record_main,
};

/* cyctop [OPTIONS] -- COMMAND | -p PID: option parsing and the batch loop. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/cgroup.h"
#include "engine/mux.h"
#include "engine/pprof.h"
#include "tui/top-pprof.h"
#include "engine/runs.h"
#include "engine/session.h"
#include "engine/symbols.h"
#include "tui/child-output.h"
#include "tui/cmd.h"
#include "tui/opt.h"
#include "tui/top.h"
#include "tui/tui.h"
#include "tui/ui.h"

struct top_opts {
	struct session_opts s;
	int batch;
	double delay;
	long iterations;   /* 0: until the target ends */
	enum out_format format;
	const char *flame_metric; /* --flame-metric: --format flame's colours */
	int window;
	enum arch_tree tree;
	const char *theme;
	char **files;      /* -i: counts files, or one perf.data file */
	int nfiles;
	struct session_file_opts in; /* -i perf.data: --symfs, --model */
	uint32_t tid;      /* --tid: one thread's functions; 0: all */
	int64_t process;   /* --process: -a, one process's functions; -1: all */
	const char *stall; /* --stall: the asm view's stall-cycle reference */
	const char *baseline; /* --baseline FILE: the view's deltas against it */
	int quit_at_end;   /* --quit-at-end: the view ends with the program */
	double percent_limit; /* --percent-limit: the view's floor */
	bool mux_runs;     /* --mux runs */
	bool slice_given;  /* --mux-slice given */
	long runs;         /* --runs N; 0: not given (1) */
	const char *child_output; /* --child-output: FILE, null, tty; NULL: the mode's */
	const char *output; /* -o: where --format pprof goes; NULL: stdout */
	bool pprof_in;     /* -i FILE is a pprof profile */
	const char *cgroup; /* --cgroup PATH as given; its directory goes in s */
	char cgroup_dir[PATH_MAX], cgroup_rel[PATH_MAX];
};

/* The combinations that make no sense, once every option is known. */
static int check_mux_options(const struct top_opts *o)
{
	if (o->mux_runs && !o->s.argv) {
		cmd_error("--mux runs needs -- COMMAND (a process cannot be run again), not -p");
		return -1;
	}
	if (o->mux_runs && !o->batch) {
		cmd_error("--mux runs prints the merged table at the end: use it with -b");
		return -1;
	}
	if (o->runs && !o->mux_runs) {
		cmd_error("--runs %ld: repetitions are for --mux runs", o->runs);
		return -1;
	}
	if (o->slice_given && o->mux_runs) {
		cmd_error("--mux-slice %u: time slices are for --mux time, not runs",
			  o->s.slice_ms);
		return -1;
	}
	if (o->s.call_graph && o->mux_runs) {
		cmd_error("--call-graph with --mux runs: the runs' stacks are not merged");
		return -1;
	}
	if (o->flame_metric && o->format != OUT_FLAME) {
		cmd_error("--flame-metric %s: it colours --format flame", o->flame_metric);
		return -1;
	}
	if ((o->format == OUT_FOLDED || o->format == OUT_FLAME) && !o->s.call_graph) {
		cmd_error("--format %s needs -g (or --call-graph): stacks to fold",
			  o->format == OUT_FLAME ? "flame" : "folded");
		return -1;
	}
	return 0;
}

static const char top_usage[] =
	"usage: cyctop [OPTIONS] -- COMMAND [ARGS...]\n"
	"       cyctop [OPTIONS] -p PID\n"
	"       cyctop [OPTIONS] -a\n"
	"       cyctop [OPTIONS] --cgroup PATH\n"
	"       cyctop tree|list|demo ... (cyctop --help)\n"
	"options:";

static const char *const mux_modes[] = { "time", "runs", NULL };

/* -A TREE, or auto: the host's (TREE_NONE) */
static int arch_or_auto(void *value, const char *arg)
{
	enum arch_tree *t = value;

	*t = tree_from_name(arg);
	if (*t == TREE_NONE && strcmp(arg, "auto") != 0) {
		cmd_error("unknown --arch '%s' (core2, ia64, amd, intel, topdown, zen, sw, wall or auto)",
			  arg);
		return -1;
	}
	return 0;
}

/* --percent-limit P: 0 to 100 */
static int percent_limit(void *value, const char *arg)
{
	double *out = value;
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= 0 && v <= 100)) {
		cmd_error("--percent-limit '%s': a percentage from 0 to 100", arg);
		return -1;
	}
	*out = v;
	return 0;
}

/* -i FILE [FILE...]: the operands after the options are more files. */
static int input_files(struct top_opts *o, const char *input, int argc, char **argv,
		       int first)
{
	o->nfiles = 1 + argc - first;
	o->files = calloc((size_t)o->nfiles, sizeof(*o->files));
	if (!o->files) {
		cmd_error("out of memory");
		return -1;
	}
	o->files[0] = (char *)input;
	memcpy(o->files + 1, argv + first, (size_t)(argc - first) * sizeof(*argv));
	return 0;
}

/* -i a perf.data file or a pprof profile: one, as recorded. */
static int check_session_input(struct top_opts *o)
{
	o->in.path = o->files[0];
	if (o->pprof_in && (o->in.symfs || o->in.model)) {
		cmd_error("-i %s: --symfs and --model are for perf.data; a pprof "
			  "profile names its functions itself", o->in.path);
		return -1;
	}
	if (o->nfiles > 1) {
		cmd_error("-i %s: one perf.data file at a time", o->in.path);
		return -1;
	}
	if (o->mux_runs || o->runs || o->slice_given || o->s.max_counters) {
		cmd_error("-i %s: --mux, --mux-slice, --runs and --counters are for "
			  "watching; a session keeps the plan it was recorded with",
			  o->in.path);
		return -1;
	}
	if (o->flame_metric && o->format != OUT_FLAME) {
		cmd_error("--flame-metric %s: it colours --format flame", o->flame_metric);
		return -1;
	}
	if ((o->format == OUT_FOLDED || o->format == OUT_FLAME) && !o->batch) {
		cmd_error("--format %s is batch output: add -b",
			  o->format == OUT_FLAME ? "flame" : "folded");
		return -1;
	}
	return 0;
}

/* -i DIR: a directory is no input, unless perf record's directory format
 * (DIR/data, perf record --threads) */
static int check_not_directory(const char *path)
{
	char data[PATH_MAX];
	struct stat st;

	snprintf(data, sizeof(data), "%s/data", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(data, F_OK) != 0) {
		cmd_error("-i %s: is a directory (want a perf.data file, a pprof profile or "
			  "counts files)", path);
		return -1;
	}
	return 0;
}

/* -i: what a recorded session or counts files leave out. */
static int check_input(struct top_opts *o, bool after_dashes)
{
	o->in.processes = o->s.all_cpus;
	for (int i = 0; i < o->nfiles; i++)
		if (check_not_directory(o->files[i]) < 0)
			return -1;
	if (o->child_output) {
		cmd_error("--child-output %s: only a launched command (-- COMMAND) has output to "
			  "send, not -i", o->child_output);
		return -1;
	}
	if (o->s.cpus) {
		cmd_error("-C %s is for watching: a recording has the CPUs it was "
			  "recorded on", o->s.cpus);
		return -1;
	}
	if (o->cgroup) {
		cmd_error("--cgroup %s is for watching: a recording has the processes it "
			  "was recorded with", o->cgroup);
		return -1;
	}
	if (o->s.pid || after_dashes) {
		cmd_error("-i takes files, not -p or a command");
		return -1;
	}
	if (o->s.call_graph) {
		cmd_error("-g/--call-graph is for watching: a recorded session has the "
			  "stacks it was recorded with");
		return -1;
	}
	/* batch output is of sessions only: whatever is not one gets the
	 * reader's error (naming the file and the offset) */
	o->pprof_in = session_is_pprof(o->files[0]);
	o->in.keep_threads = o->format == OUT_PPROF;
	if (session_is_perfdata(o->files[0]) || o->pprof_in || o->batch)
		return check_session_input(o);
	if (o->in.symfs || o->in.model) {
		cmd_error("--symfs and --model are for -i perf.data, not counts files");
		return -1;
	}
	return 0;
}

/* -a, --cgroup: every process (of the cgroup), so no command, pid or
 * thread of one. */
static int check_all_cpus(const struct top_opts *o)
{
	const char *what = o->cgroup ? "--cgroup watches a cgroup's processes"
				     : "-a watches every process";

	if (o->s.argv || o->s.pid || o->tid) {
		cmd_error("%s: not with %s (zoom into a process in the processes view)", what,
			  o->s.pid ? "-p PID" : o->tid ? "--tid" : "a command");
		return -1;
	}
	if (o->mux_runs) {
		cmd_error("--mux runs needs -- COMMAND to run again, not %s",
			  o->cgroup ? "--cgroup" : "-a");
		return -1;
	}
	return check_mux_options(o);
}

/* --cgroup PATH: the directory the session opens (as cyctop serve's),
 * named in the view's header by its path under the hierarchy's root. */
static int check_cgroup(struct top_opts *o)
{
	char err[PATH_MAX + 64];

	if (check_all_cpus(o) < 0)
		return -1;
	if (cgroup_resolve(o->cgroup, o->cgroup_dir, sizeof(o->cgroup_dir), o->cgroup_rel,
			   sizeof(o->cgroup_rel), err, sizeof(err)) < 0) {
		cmd_error("--%s", err);
		return -1;
	}
	o->s.cgroup = o->cgroup_dir;
	return 0;
}

/* -- COMMAND or -p PID (or -a): what to watch. */
static int check_target(struct top_opts *o, bool after_dashes)
{
	if (o->cgroup)
		return check_cgroup(o);
	if (o->s.all_cpus || o->s.cpus)
		return check_all_cpus(o);
	if (o->s.argv && o->s.pid) {
		cmd_error("give either -p PID or -- COMMAND, not both");
		return -1;
	}
	if (o->child_output && !o->s.argv) {
		cmd_error("--child-output %s: only a launched command (-- COMMAND) has output to "
			  "send", o->child_output);
		return -1;
	}
	if (!o->s.argv && !o->s.pid) {
		cmd_error(after_dashes ? "no command given after --"
				       : "nothing to watch: give -- COMMAND or -p PID (cyctop --help)");
		return -1;
	}
	return check_mux_options(o);
}

/* The watch's options into O and *INPUT (-i FILE: the first file); the
 * table lives on the stack and points at the caller's storage, as every
 * command's does.  Returns opt_parse's index of the first operand, or -1. */
static int parse_top_options(int argc, char **argv, struct top_opts *o, const char **input)
{
	const struct opt opts[] = {
		OPT_EVENTS(&o->s.events,
			   "libpfm4 events, paper names or @presets; EVENT/SAV sets the\n"
			   "sample-after value.  Default cycles (cpu-clock without a PMU);\n"
			   "without /SAV 4000 Hz as perf record and perf top: the clocks\n"
			   "every 250 us, generic cycles in frequency mode (samples weigh\n"
			   "their periods); other hardware events the model table's SAV\n"
			   "(the papers'), else 2,000,000; other software events 1"),
		OPT_PID(&o->s.pid, "attach to a running process (all its threads)"),
		OPT_FLAG('a', "all-cpus", &o->s.all_cpus,
			 "every process on every CPU, as perf top -a (needs\n"
			 "perf_event_paranoid <= 0, or CAP_PERFMON): the processes\n"
			 "view first; with -i, a system-wide recording's processes"),
		OPT_STRING('C', "cpu", &o->s.cpus, "LIST", "these CPUs only (0,2-3; implies -a)"),
		OPT_STRING(0, "cgroup", &o->cgroup, "PATH",
			   "the processes of one cgroup v2 on every CPU (-C: those), as\n"
			   "perf -G: a directory of its hierarchy, or a path relative to\n"
			   "its root; the processes view first"),
		OPT_FLAG('b', "batch", &o->batch, "print the hotspot table every --delay seconds"),
		OPT_FLAG(0, "quit-at-end", &o->quit_at_end,
			 "the view ends when the program does (for scripts); by\n"
			 "default it stays on the final profile until q"),
		OPT_CALLBACK(0, "percent-limit", &o->percent_limit, percent_limit, "P",
			     "the view hides functions under P% of every event (as\n"
			     "perf top; % changes it)"),
		OPT_DELAY(&o->delay, "refresh interval (default 1)"),
		OPT_INT('n', "iterations", &o->iterations, 1, LONG_MAX, "N",
			"batch: number of tables (default: until the target ends)"),
		OPT_FORMAT(&o->format, opt_formats_batch,
			   "batch output: text, csv, json, folded (the call stacks\n"
			   "of -g, once at the end, for flame graphs), pprof (one\n"
			   "gzipped profile.proto at the end, for go tool pprof) or\n"
			   "flame (the stacks of -g as an SVG flame graph, at the end)"),
		OPT_STRING('o', "output", &o->output, "FILE",
			   "--format pprof or flame: write to FILE (default stdout)"),
		OPT_STRING(0, "flame-metric", &o->flame_metric, "M",
			   "--format flame: colour frames by metric M (CPI, an event:\n"
			   "\"cache-misses per 1000 cycles (self)\", or a prefix; none:\n"
			   "by name); default the first the events give"),
		OPT_FLAG(0, "window", &o->window,
			 "batch: the last interval instead of the cumulative profile"),
		OPT_CALLBACK('A', "arch", &o->tree, arch_or_auto, "TREE",
			     "core2, ia64, amd, intel, topdown, zen, sw, wall or auto: the\n"
			     "tree the tree view opens with"),
		OPT_MMAP_PAGES(&o->s.ring_pages,
			       "data pages of each CPU's sample ring, a power of two (default 64;\n"
			       "more with -g dwarf or off-cpu)"),
		OPT_G(&o->s, "collect call stacks: --call-graph dwarf"),
		OPT_CALL_GRAPH(&o->s,
			       "call stacks of the samples: dwarf (unwind a copy of the user\n"
			       "stack, 8192 bytes a sample), dwarf,SIZE (SIZE bytes, a\n"
			       "multiple of 8 up to 65528) or fp (frame pointers: cheap,\n"
			       "wrong in code built without them)"),
		OPT_STRING('i', "input", input, "FILE...",
			   "open a recorded session (perf.data, from cyctop record or\n"
			   "perf record; -i - reads perf record -o - on stdin) or a\n"
			   "pprof profile (FILE.pb.gz, any producer's) in every\n"
			   "view, or counts files in the tree and ILP views"),
		OPT_SYMFS(&o->in.symfs, "-i perf.data: look for the recorded binaries under DIR"),
		OPT_MODEL_NAME(&o->in.model,
			       "-i perf.data: name raw events with this model's tables"),
		OPT_INT(0, "tid", &o->tid, 1, INT_MAX, "TID",
			"the functions of thread TID only (H in the interactive view)"),
		OPT_INT(0, "process", &o->process, 0, INT_MAX, "PID",
			"-a: the functions of process PID only (Enter in the\n"
			"processes view)"),
		OPT_NO_DEMANGLE(&o->s.naming, "C++ and Rust functions by their ELF (mangled) names"),
		OPT_DEMANGLE_PARAMS(&o->s.naming,
				    "C++ names with their parameters, as perf 6.4 and later"),
		OPT_STRING(0, "theme", &o->theme, "NAME",
			   "a theme (default, light, mono, high-contrast) or a path"),
		OPT_STRING(0, "child-output", &o->child_output, "F",
			   "where a launched command's stdout and stderr go: FILE,\n"
			   "null or tty (default: a log in $TMPDIR the view's status\n"
			   "line names; with -b, cyctop's own stdout and stderr, both\n"
			   "to stderr when stdout holds json, csv, folded, pprof, flame)"),
		OPT_STRING(0, "baseline", &o->baseline, "FILE",
			   "the view's hotspots, tree, asm lines and flame colours as\n"
			   "deltas against this recording (perf.data, pprof) or counts\n"
			   "file (D: absolute, delta, delta %); with -b: --format\n"
			   "flame's baseline-delta"),
		OPT_STRING(0, "stall", &o->stall, "EVENT",
			   "the asm view's stall-cycle column (default: the model's,\n"
			   "RS_UOPS_DISPATCHED.CYCLES_NONE or BACK_END_BUBBLE.ALL)"),
		OPT_COUNTERS(&o->s.max_counters,
			     "plan groups for at most N counters (forces multiplexing;\n"
			     "on software events: N events per group beside cpu-clock)"),
		OPT_ENUM(0, "mux", &o->mux_runs, mux_modes, "MODE",
			 "more groups than one: time (rotate them in time slices,\n"
			 "the default) or runs (run COMMAND once per group; needs -b)"),
		OPT_MUX_SLICE(&o->s.slice_ms,
			      "time-slice length in milliseconds, 1..10000 (default 100)"),
		OPT_INT(0, "runs", &o->runs, 1, SNAP_MAX_RUNS, "N",
			"--mux runs: run COMMAND N times per group (default 1)"),
		OPT_END,
	};
	const struct opt_cmd cmd = { top_usage, opts, NULL, true };

	return opt_parse(&cmd, argc, argv, 1);
}

static int parse_top_args(int argc, char **argv, struct top_opts *o)
{
	const char *input = NULL;

	*o = (struct top_opts){ .delay = 1.0, .tree = TREE_NONE, .process = -1 };
	int first = parse_top_options(argc, argv, o, &input);
	if (first < 0)
		return -1;
	o->in.naming = o->s.naming;  /* -i's functions named as a watch's */
	o->slice_given = o->s.slice_ms != 0;
	struct top_pprof_opts po = { o->format, o->output, o->batch, o->window, o->mux_runs,
				     o->tid };
	if (top_pprof_check(&po) < 0)
		return -1;
	bool after_dashes = first > 1 && strcmp(argv[first - 1], "--") == 0;
	if (o->baseline && o->batch && o->format != OUT_FLAME) {
		cmd_error("--baseline %s: deltas in the interactive view and --format flame; in "
			  "batch: cyctop diff BASE NEW", o->baseline);
		return -1;
	}
	if (o->process >= 0 && !o->s.all_cpus && !o->s.cpus && !o->cgroup) {
		cmd_error("--process %lld: zooms into a process of -a or --cgroup (else use -p)",
			  (long long)o->process);
		return -1;
	}
	if (input)
		return input_files(o, input, argc, argv, first) < 0 ? -1
								     : check_input(o, after_dashes);
	if (first < argc)
		o->s.argv = argv + first;
	return check_target(o, after_dashes);
}

/* How the last table ended: the target's end and status, for cyctop's own;
 * an event the kernel accepted but never scheduled while nothing rotated
 * (arm_pmuv3 takes CHAIN, 0x1e, and never counts it), "" if none. */
struct batch_end {
	bool ended;
	int exit_status;
	char never[EVENT_NAME_MAX];
	char pmu[64];
};

static int emit(struct session *s, const struct top_opts *o, int first, struct batch_end *end,
		struct top_folded *folded)
{
	struct snapshot *snap = session_snapshot(s);

	if (!snap) {
		cmd_error("out of memory taking a snapshot");
		return -1;
	}
	end->ended = snap->ended;
	end->exit_status = snap->exit_status;
	end->never[0] = '\0';
	for (int e = 0; snap->ended && snap->n_groups <= 1 && e < snap->n_events; e++)
		if (!snap->ev[e].counted) {
			snprintf(end->never, sizeof(end->never), "%s", snap->ev[e].name);
			snprintf(end->pmu, sizeof(end->pmu), "%s", snap->pmu);
			break;
		}
	if (o->format != OUT_PPROF)   /* written once, at the end */
		top_print(stdout, snap, o->format, o->window, first, folded);
	snapshot_free(snap);
	return 0;
}

/* Whether the reader of stdout has gone (head -1 read its line): a pipe
 * whose read end is closed polls POLLERR, before anything is written, so
 * the watch ends at once and not at the next table. */
static bool stdout_gone(void)
{
	struct pollfd p = { STDOUT_FILENO, 0, 0 };

	return (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) ||
	       (ferror(stdout) && errno == EPIPE);
}

/* cyctop's exit status after the last table: 1 with one line when an event
 * of a launched command was never counted, else cmd_watch_status's. */
static int batch_status(bool launched, const struct batch_end *end)
{
	if (launched && end->never[0]) {
		cmd_error("event '%s' was never counted: the kernel's PMU (%s) accepted it but "
			  "never scheduled it", end->never, end->pmu);
		return 1;
	}
	return cmd_watch_status(launched, end->ended, end->exit_status);
}

/* Refreshes every --delay seconds until the target ends, N tables were
 * printed, or a signal arrives; the last table always covers the end.
 * Returns cyctop's exit status (cmd_watch_status), EXIT_BROKEN_PIPE when
 * stdout's reader left, 1 on an error. */
static int run_batch(struct session *s, const struct top_opts *o, struct top_folded *folded)
{
	double next = cmd_now_s() + o->delay;
	struct batch_end end = { false, -1, "", "" };
	bool launched = o->s.argv != NULL && !o->in.path;
	long printed = 0;
	int first = 1;

	while (!ui_pending_signal()) {
		double left = next - cmd_now_s();
		int ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		bool done = session_poll(s, ms > 100 ? 100 : ms);
		if (stdout_gone())
			return EXIT_BROKEN_PIPE;
		if (!done && cmd_now_s() < next)
			continue;
		if (emit(s, o, first, &end, folded) < 0)
			return 1;
		if (stdout_gone())
			return EXIT_BROKEN_PIPE;
		first = 0;
		printed++;
		next += o->delay;
		if (done || end.ended || (o->iterations && printed >= o->iterations))
			return batch_status(launched, &end);
	}
	session_poll(s, 0);
	if (emit(s, o, first, &end, folded) < 0)
		return 1;
	return stdout_gone() ? EXIT_BROKEN_PIPE : batch_status(launched, &end);
}

static int run_tui(struct session *s, const struct top_opts *o, const char *child_log)
{
	struct tui_opts to = { .sess = s, .files = o->files, .nfiles = o->nfiles,
			       .tree = o->tree, .delay = o->delay, .theme = o->theme,
			       .stall_event = o->stall, .launched = o->s.argv != NULL && !o->in.path,
			       .quit_at_end = o->quit_at_end, .child_log = child_log,
			       .baseline = o->baseline, .percent_limit = o->percent_limit };

	return tui_run(&to);
}

static bool stop_requested(void)
{
	return ui_pending_signal() != 0;
}

/* Batch json, csv, folded, or pprof and flame without -o: stdout holds
 * that format alone (the launched command's output goes to stderr). */
static bool machine_stdout(const struct top_opts *o)
{
	return o->batch && o->format != OUT_TEXT &&
	       !((o->format == OUT_PPROF || o->format == OUT_FLAME) && o->output);
}

/* --mux runs: every run first, then the merged table once. */
static int watch_runs(const struct top_opts *o)
{
	struct runs_opts ro = { o->s, o->runs ? (int)o->runs : 1, stop_requested };
	struct child_output out;
	char err[512];

	ui_install_signals();
	if (child_output_open(&out, o->child_output, false, machine_stdout(o),
			      &ro.s.child_io) < 0)
		return 1;
	struct snapshot *snap = runs_execute(&ro, err, sizeof(err));
	child_output_close(&out);
	if (!snap) {
		cmd_error("%s", err);
		return 1;
	}
	if (snap->notice[0])
		cmd_error("%s", snap->notice);
	if (snap->spread > RUNS_UNSTABLE)
		cmd_error("unstable workload: the reference %s varies by %.1f%% across %d runs "
			  "(more than %.0f%%)", snap->reference, 100 * snap->spread, snap->n_runs,
			  100 * RUNS_UNSTABLE);
	top_print(stdout, snap, o->format, o->window, 1, NULL);  /* no stacks: not folded */
	int rc = cmd_watch_status(true, snap->ended, snap->exit_status);  /* a failed run's */
	snapshot_free(snap);
	return rc;
}

static int watch_session(struct top_opts *o, FILE *pprof_out);

static int watch(struct top_opts *o)
{
	if (o->mux_runs)
		return watch_runs(o);
	FILE *pprof_out = o->format == OUT_PPROF ? top_pprof_open(o->output) : NULL;
	if (o->format == OUT_PPROF && !pprof_out)
		return 1;
	int rc = watch_session(o, pprof_out);
	if (top_pprof_close(pprof_out, o->output) < 0 && rc == 0)
		rc = 1;
	return rc;
}

static int watch_session(struct top_opts *o, FILE *pprof_out)
{
	char err[512];

	/* a recorded session is opened first: a bad file is the first thing said */
	struct session *s = !o->in.path ? NULL
			    : o->pprof_in ? session_open_pprof(o->in.path, err, sizeof(err))
			    : session_open_file(&o->in, err, sizeof(err));
	if (o->in.path && !s) {
		cmd_error("%s%s", err, access(o->in.path, R_OK) == 0 && !o->pprof_in &&
			  !session_is_perfdata(o->in.path)
			  ? " (counts files in batch: cyctop tree FILE)" : "");
		return 1;
	}
	if (o->batch) {
		ui_install_signals();
	} else if (!ui_have_tty()) {
		cmd_error("the interactive view needs a terminal: use -b for batch output");
		session_close(s);
		return EXIT_USAGE;
	}
	struct child_output out = { -1, -1, false, "" };
	if (!s && o->s.argv && child_output_open(&out, o->child_output, !o->batch,
						 machine_stdout(o), &o->s.child_io) < 0)
		return 1;
	if (!s)
		s = session_open(&o->s, err, sizeof(err));
	if (!s || (pprof_out && session_keep_threads(s) < 0)) {
		cmd_error("%s", s ? "out of memory" : err);
		session_close(s);
		child_output_close(&out);
		return 1;
	}
	char said[sizeof(session_events(s)->notice)];
	snprintf(said, sizeof(said), "%s", session_events(s)->notice);
	if (said[0])
		cmd_error("%s", said);
	session_set_thread_filter(s, o->tid);
	session_set_process_filter(s, o->process);
	struct top_folded folded = { .svg = o->format == OUT_FLAME, .metric = o->flame_metric };
	/* --format flame's baseline-delta colours */
	struct baseline *base = o->batch && o->baseline
				? baseline_open(o->baseline, &o->s.naming, err, sizeof(err)) : NULL;
	folded.baseline = base;
	if (o->batch && o->baseline && !base) {
		cmd_error("%s", err);
		session_close(s);
		child_output_close(&out);
		return 1;
	}
	if (folded.svg && o->output && !(folded.out = fopen(o->output, "w"))) {
		cmd_error("-o %s: %s", o->output, strerror(errno));
		baseline_free(base);
		session_close(s);
		child_output_close(&out);
		return 1;
	}
	int rc = o->batch ? run_batch(s, o, &folded)
			  : run_tui(s, o, out.path[0] ? out.path : NULL);
	if (o->batch && (o->format == OUT_FOLDED || o->format == OUT_FLAME) &&
	    rc != EXIT_BROKEN_PIPE && top_print_finish(&folded) < 0 && rc == 0)
		rc = EXIT_USAGE;
	free(folded.text);  /* when not written: stdout's reader left */
	baseline_free(base);
	if (folded.svg && o->output && folded.out && fclose(folded.out) != 0 && rc == 0) {
		cmd_error("-o %s: %s", o->output, strerror(errno));
		rc = 1;
	}
	/* what the session found to say on the way (kernel functions it
	 * could not name at the first kernel sample) */
	const char *later = session_events(s)->notice;
	if (strncmp(later, said, strlen(said)) == 0 && later[strlen(said)])
		cmd_error("%s", later + strlen(said) + (said[0] ? 2 : 0));
	if (pprof_out && rc != EXIT_BROKEN_PIPE &&
	    top_pprof_write(s, pprof_out, o->output, o->in.path) < 0)
		rc = 1;
	session_close(s);
	child_output_close(&out);
	return rc;
}

int top_main(int argc, char **argv)
{
	struct top_opts o;
	int rc;

	if (parse_top_args(argc, argv, &o) < 0) {
		free(o.files);
		return EXIT_USAGE;
	}
	char **files = o.files;  /* input_files' array, freed at the end */
	if (o.in.path) {  /* a recorded session: every view, as live */
		o.files = NULL;
		o.nfiles = 0;
		rc = watch(&o);
	} else if (o.files) {
		rc = run_tui(NULL, &o, NULL);
	} else {
		rc = watch(&o);
	}
	free(files);
	return rc;
}

/* The demo workloads live next to cyctop in the build tree, or in
 * pkglibexecdir once installed. */
static int demo_path(char *buf, size_t sz)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, sz, "%s/workloads/cyctop-demo", self);
			if (access(buf, X_OK) == 0)
				return 0;
		}
	}
	snprintf(buf, sz, "%s/cyctop-demo", PKGLIBEXECDIR);
	return access(buf, X_OK) == 0 ? 0 : -1;
}

/* The watch options that make sense for the demo: events, delay, theme. */
static int parse_demo_args(int argc, char **argv, struct top_opts *o)
{
	const struct opt opts[] = {
		OPT_EVENTS(&o->s.events, "the events to watch the workloads with (as cyctop -e)"),
		OPT_DELAY(&o->delay, "refresh interval (default 2)"),
		OPT_STRING(0, "theme", &o->theme, "NAME",
			   "a theme (default, light, mono, high-contrast) or a path"),
		OPT_END,
	};
	const struct opt_cmd cmd = { "usage: cyctop demo [-e LIST] [-d SECS] [--theme NAME]",
				     opts, NULL, true };

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return -1;
	if (first < argc) {
		cmd_error("demo: unexpected argument '%s' (the demo runs its own workloads)",
			  argv[first]);
		return -1;
	}
	return 0;
}

int demo_main(int argc, char **argv)
{
	char path[PATH_MAX + 32];
	char secs[] = "12";
	char kernel[] = "all";
	char *dargv[] = { path, kernel, secs, NULL };
	struct top_opts o;

	memset(&o, 0, sizeof(o));
	o.process = -1;
	o.delay = 2.0;
	if (parse_demo_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	if (demo_path(path, sizeof(path)) < 0) {
		cmd_error("demo: the workload program cyctop-demo is not installed (%s)", path);
		return 1;
	}
	o.s.argv = dargv;
	o.window = 1;
	o.tree = TREE_NONE;
	/* without a terminal (CI, a pipe) the demo prints tables instead */
	o.batch = !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO);
	return watch(&o);
}

/* cyctop: a top-like profiler built on hardware performance counters and on
 * cycle accounting.  This file dispatches to the subcommands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui/cmd.h"
#include "tui/opt.h"
#include "tui/top.h"

static const struct cmd_entry *const commands[] = {
	&cmd_tree_entry,
	&cmd_list_entry,
	&cmd_annotate_entry,
	&cmd_record_entry,
	&cmd_encode_entry,
	&cmd_diff_entry,
	&cmd_selftest_entry,
	&cmd_serve_entry,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* The watch options people reach for first, one line each; the whole
 * table is cyctop -b --help's (tui/top.c).  Shown only, never parsed. */
#define SHOWN(s, l, a, h) { .short_name = s, .long_name = l, .argh = a, .help = h, \
			   .kind = (a) ? OPTK_STRING : OPTK_FLAG }
static const struct opt common_opts[] = {
	SHOWN('e', "events", "LIST", "events to sample (default cycles; cpu-clock without a PMU)"),
	SHOWN('g', NULL, NULL, "collect call stacks (dwarf unwinding)"),
	SHOWN('b', "batch", NULL, "print tables instead of the view"),
	SHOWN('d', "delay", "SECS", "refresh interval (default 1)"),
	SHOWN('p', "pid", "PID", "watch a running process"),
	SHOWN('a', "all-cpus", NULL, "watch every process on every CPU"),
	SHOWN('i', "input", "FILE", "open a recording (perf.data, pprof) or counts files"),
	SHOWN(0, "format", "F", "with -b: text, csv, json, folded, pprof or flame"),
	OPT_END,
};

static void usage(FILE *out)
{
	fprintf(out, "usage: cyctop [OPTIONS] -- COMMAND [ARGS...]   watch a command\n"
		     "       cyctop [OPTIONS] -p PID                 watch a running process\n"
		     "       cyctop [OPTIONS] -a [-C LIST]           watch every process (all CPUs)\n"
		     "       cyctop [OPTIONS] --cgroup PATH          watch one cgroup's processes\n"
		     "       cyctop [OPTIONS] -i perf.data           open a recorded session\n"
		     "       cyctop report [FILE] [OPTIONS]          the same (default perf.data)\n"
		     "       cyctop demo [-e LIST] [-d SECS] [--theme NAME]   watch the bundled demo workloads\n"
		     "\ncommon options (every one: cyctop -b --help):\n");
	opt_help_rows(out, common_opts);
	fprintf(out, "\nother commands (cyctop help COMMAND for each one's options):\n");
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  cyctop %s\n", commands[i]->usage);
	fprintf(out, "\nSee cyctop(1) and README.md.\n");
}

static const struct cmd_entry *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (strcmp(name, commands[i]->name) == 0)
			return commands[i];
	return NULL;
}

/* A word that is no command may be the program the user meant to watch:
 * a path to an executable file, or a name on $PATH, as a shell finds it. */
static bool is_program(const char *word)
{
	struct stat st;
	char path[4096];

	if (strchr(word, '/'))
		return stat(word, &st) == 0 && S_ISREG(st.st_mode) && access(word, X_OK) == 0;
	const char *dirs = getenv("PATH");
	for (const char *d = dirs ? dirs : ""; *d;) {
		size_t n = strcspn(d, ":");
		snprintf(path, sizeof(path), "%.*s/%s", (int)n, n ? d : ".", word);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0)
			return true;
		d += n + (d[n] == ':');
	}
	return false;
}

/* Not a command: the program to watch (said, not run: a mistyped command
 * that happens to be a program's name must not start it), a file to open,
 * or a guess. */
static int unknown_command(int argc, char **argv)
{
	const char *names[N_COMMANDS + 3];
	char args[512] = "";

	if (is_program(argv[1])) {
		for (int i = 1; i < argc && strlen(args) < 400; i++)
			snprintf(args + strlen(args), sizeof(args) - strlen(args), " %s", argv[i]);
		cmd_error("%s is a program: to watch it, cyctop --%s", argv[1], args);
		return EXIT_USAGE;
	}
	struct stat st;
	if (stat(argv[1], &st) == 0 && S_ISREG(st.st_mode) && access(argv[1], X_OK) == 0) {
		/* a program here but not on $PATH: the shell wants ./NAME */
		for (int i = 2; i < argc && strlen(args) < 400; i++)
			snprintf(args + strlen(args), sizeof(args) - strlen(args), " %s", argv[i]);
		cmd_error("%s is a program: to watch it, cyctop -- ./%s%s", argv[1], argv[1], args);
		return EXIT_USAGE;
	}
	if (stat(argv[1], &st) == 0 && S_ISREG(st.st_mode)) {
		cmd_error("%s is a file: to open it, cyctop -i %s", argv[1], argv[1]);
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i]->name;
	names[N_COMMANDS] = "demo";
	names[N_COMMANDS + 1] = "help";
	names[N_COMMANDS + 2] = "report";
	const char *g = opt_closest(argv[1], names, N_COMMANDS + 3);
	if (g)
		cmd_error("unknown command '%s': did you mean '%s'? (see cyctop --help)", argv[1],
			  g);
	else
		cmd_error("unknown command '%s' (see cyctop --help)", argv[1]);
	return EXIT_USAGE;
}

static int dispatch(int argc, char **argv);

/* cyctop help [COMMAND]: cyctop COMMAND --help */
static int help_main(int argc, char **argv)
{
	char help[] = "--help";

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (argc > 2) {
		cmd_error("help: one command at a time (cyctop help %s)", argv[1]);
		return EXIT_USAGE;
	}
	if (!find_command(argv[1]) && strcmp(argv[1], "demo") != 0 &&
	    strcmp(argv[1], "report") != 0) {
		if (strcmp(argv[1], "help") == 0) {
			usage(stdout);
			return 0;
		}
		return unknown_command(argc, argv);
	}
	char *hargv[] = { argv[0], argv[1], help, NULL };
	return dispatch(3, hargv);
}

/* cyctop report [FILE] [OPTIONS] (perf's habit): cyctop -i FILE OPTIONS,
 * FILE perf.data unless given; with -i/--input in OPTIONS, as they say. */
static int report_main(int argc, char **argv)
{
	char **v = calloc((size_t)argc + 4, sizeof(*v));
	char self[] = "cyctop", dash_i[] = "-i", dflt[] = "perf.data";
	bool has_input = false;
	int n = 0, rest = argc - 1;

	if (!v) {
		cmd_error("out of memory");
		return 1;
	}
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		has_input |= strcmp(argv[i], "-i") == 0 || strncmp(argv[i], "--input", 7) == 0 ||
			     (strncmp(argv[i], "-i", 2) == 0 && argv[i][2] != '-');
	v[n++] = self;
	if (!has_input) {
		v[n++] = dash_i;
		/* the file first: after the options, a word may be an
		 * option's value (report -n 1), which only top.c's table knows */
		if (rest > 0 && argv[1][0] != '-') {
			v[n++] = argv[1];
			argv++;
			rest--;
		} else {
			v[n++] = dflt;
		}
	}
	memcpy(v + n, argv + 1, (size_t)rest * sizeof(*v));
	n += rest;
	int rc = top_main(n, v);
	free(v);
	return rc;
}

static int dispatch(int argc, char **argv)
{
	const struct cmd_entry *c = find_command(argv[1]);

	if (c)
		return c->exec(argc - 1, argv + 1);
	if (strcmp(argv[1], "demo") == 0)
		return demo_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "help") == 0)
		return help_main(argc - 1, argv + 1);
	if (strcmp(argv[1], "report") == 0) {
		if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
			char *hargv[] = { argv[0], argv[2], NULL };
			return top_main(2, hargv);
		}
		return report_main(argc - 1, argv + 1);
	}
	if (argv[1][0] == '-')
		return top_main(argc, argv);
	return unknown_command(argc, argv);
}

int main(int argc, char **argv)
{
	/* libdwfl would ask debuginfod servers for every module without local
	 * debuginfo, over the network, on the sampling path: opt-in only. */
	if (!getenv("CYCTOP_DEBUGINFOD"))
		unsetenv("DEBUGINFOD_URLS");
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("%s\n", PACKAGE_STRING);
		return 0;
	}
	return dispatch(argc, argv);
}

/* cyctop: a top-like profiler built on hardware performance counters and on
 * cycle accounting.  This file dispatches to the subcommands. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd.h"
#include "tui/top.h"

static const struct cmd_entry *const commands[] = {
	&cmd_tree_entry,
	&cmd_list_entry,
	&cmd_annotate_entry,
	&cmd_record_entry,
	&cmd_encode_entry,
	&cmd_diff_entry,
	&cmd_serve_entry,
};

static void usage(FILE *out)
{
	fprintf(out, "usage: cyctop [OPTIONS] -- COMMAND [ARGS...]   watch a command\n"
		     "       cyctop [OPTIONS] -p PID                 watch a running process\n"
		     "       cyctop [OPTIONS] -a [-C LIST]           watch every process (all CPUs)\n"
		     "       cyctop [OPTIONS] -i perf.data           open a recorded session\n"
		     "       cyctop demo [-e LIST] [-d SECS] [--theme NAME]   watch the bundled demo workloads\n"
		     "(cyctop -b --help lists the watch options)\n\nother commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  cyctop %s\n", commands[i]->usage);
	fprintf(out, "\nSee cyctop(1) and README.md.\n");
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
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i]->name) == 0)
			return commands[i]->exec(argc - 1, argv + 1);
	if (strcmp(argv[1], "demo") == 0)
		return demo_main(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return top_main(argc, argv);
	cmd_error("unknown command '%s' (cyctop --help)", argv[1]);
	return EXIT_USAGE;
}

/* cyctop encode: the perf_event_attr cyctop opens for each event, as
 * event,type,config,config1 CSV rows (libpfm4 plus arch/pfm-fix.c), the way
 * libpfm4's check_events shows an encoding. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "engine/events.h"
#include "engine/pfm.h"
#include "tui/cmd.h"

/* A CSV field: quoted when it holds a comma or a quote (perf's cpu/a=1,b=2/
 * syntax), quotes doubled (RFC 4180). */
static void print_field(const char *s)
{
	if (!strpbrk(s, ",\"")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void print_rows(const struct ev_list *l)
{
	for (int i = 0; i < l->n; i++) {
		const struct ev_spec *ev = &l->ev[i];
		print_field(ev->asked[0] ? ev->asked : ev->name);
		printf(",%u,0x%llx,0x%llx\n", ev->attr.type, (unsigned long long)ev->attr.config,
		       (unsigned long long)ev->attr.config1);
	}
}

static const struct arch_model *encode_model(const char *name)
{
	const struct arch_model *m = name ? model_find(name) : events_host_model();

	if (!m)
		cmd_error("unknown model '%s' (cyctop list models)", name);
	else if (name && !m->pfm_force && strcmp(m->name, "perf") != 0)
		cmd_error("model %s has no encodings: libpfm4 has no PMU for it", m->name),
			m = NULL;
	return m;
}

static int cmd_encode_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct ev_list l;
	const char *model_name = NULL;
	char err[512];
	int ch;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "m:h", longopts, NULL)) != -1) {
		if (ch == 'm')
			model_name = optarg;
		else if (ch == 'h') {
			printf("usage: cyctop %s\n", cmd_encode_entry.usage);
			return 0;
		} else
			return EXIT_USAGE;
	}
	if (optind == argc) {
		cmd_error("encode: which events? (cyctop encode [--model PMU] EVENT...)");
		return EXIT_USAGE;
	}
	const struct arch_model *m = encode_model(model_name);
	if (!m)
		return EXIT_USAGE;
	if (pfm_setup(m->pfm_force, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return 1;
	}
	printf("event,type,config,config1\n");
	for (int i = optind; i < argc; i++) {
		if (events_parse(argv[i], m, &l, err, sizeof(err)) < 0) {
			cmd_error("%s", err);
			return 1;
		}
		print_rows(&l);
	}
	return 0;
}

const struct cmd_entry cmd_encode_entry = {
	"encode",
	"encode [--model PMU] EVENT...   the perf_event_attr of each event (CSV: "
	"event,type,config,config1)",
	cmd_encode_exec,
};

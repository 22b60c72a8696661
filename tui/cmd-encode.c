/* cyctop encode: the perf_event_attr cyctop opens for each event, as
 * event,type,config,config1 CSV rows (libpfm4 plus arch/pfm-fix.c), the way
 * libpfm4's check_events shows an encoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/events.h"
#include "engine/pfm.h"
#include "tui/cmd.h"
#include "tui/opt.h"

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

/* One item of the command line: its rows, or its one line on stderr; the
 * others go on (libpfm4's check_events reports each event it is given). */
struct encode_state {
	const struct arch_model *model;
	bool host;         /* no --model: the host's, which may lack a PMU */
	struct pfm_host *pfm;
	int failed;
	struct ev_list l;  /* the item's events */
};

/* An attr only a hardware PMU counts, on a host without one: the row is
 * what perf would open; that it cannot count here goes to stderr. */
static void say_uncountable(const struct encode_state *st)
{
	for (int i = 0; st->host && !pfm_host_hardware(st->pfm) && i < st->l.n; i++) {
		const struct ev_spec *ev = &st->l.ev[i];
		uint32_t t = ev->attr.type;
		const char *name = ev->asked[0] ? ev->asked : ev->name;
		bool cycles = strcasecmp(name, "cycles") == 0 || strcasecmp(name, "cpu-cycles") == 0;
		if (t == PERF_TYPE_HARDWARE || t == PERF_TYPE_HW_CACHE || t == PERF_TYPE_RAW)
			cmd_error("event '%s': this host has no hardware PMU: it cannot count it%s",
				  name, cycles ? " (a watch counts cpu-clock instead)" : "");
	}
}

static int encode_item(char *item, void *arg, char *err, size_t errsz)
{
	struct encode_state *st = arg;

	if (events_encode(item, st->model, st->pfm, &st->l, err, errsz) < 0) {
		cmd_error("%s", err);
		st->failed++;
		return 0;
	}
	print_rows(&st->l);
	fflush(stdout);  /* the row before what stderr says of it */
	say_uncountable(st);
	return 0;
}

/* --model must give libpfm4 a PMU (the host's when not given), or encode
 * from its own table (Arm). */
static const struct arch_model *encode_model(const struct arch_model *m, struct pfm_host *pfm)
{
	if (!m)
		return events_host_model(pfm);
	if (!model_is_hardware(m) && strcmp(m->name, "perf") != 0) {
		cmd_error("model %s has no encodings: libpfm4 has no PMU for it", m->name);
		return NULL;
	}
	return m;
}

/* The rows of each of the N events of ARGV under MODEL (the host's when
 * NULL), encoded through PFM.  The exit status. */
static int encode_all(const struct arch_model *model, struct pfm_host *pfm, int n, char **argv)
{
	char err[512];
	const struct arch_model *m = encode_model(model, pfm);

	if (!m)
		return EXIT_USAGE;
	if (pfm_setup(pfm, m->pfm_force, err, sizeof(err)) < 0) {
		cmd_error("%s", err);
		return 1;
	}
	struct encode_state *st = calloc(1, sizeof(*st));  /* an ev_list is 20 KB */
	if (!st) {
		cmd_error("out of memory");
		return 1;
	}
	printf("event,type,config,config1\n");
	st->model = m;
	st->host = model == NULL;
	st->pfm = pfm;
	for (int i = 0; i < n; i++)
		if (events_foreach(argv[i], encode_item, st, err, sizeof(err)) < 0) {
			cmd_error("%s", err);  /* an empty item in a comma list */
			st->failed++;
		}
	int rc = st->failed ? 1 : 0;
	free(st);
	return rc;
}

static int cmd_encode_exec(int argc, char **argv)
{
	const struct arch_model *model = NULL;
	const struct opt opts[] = {
		OPT_MODEL(&model, "encode for this model's PMU (default: the host's)"),
		OPT_END,
	};
	const struct opt_cmd cmd = { "usage: cyctop encode [--model PMU] EVENT...", opts,
				     "The perf_event_attr cyctop opens for each EVENT, as CSV rows:\n"
				     "event,type,config,config1.  An event that cannot be encoded is one line\n"
				     "on stderr; the others are still encoded, and the exit status is 1.\n"
				     "Each event is encoded as asked: cycles is the hardware event (type 0,\n"
				     "config 0) even where a watch counts cpu-clock for it, and a hardware\n"
				     "event on a host without a PMU is said on stderr (exit status 0).\n", false };

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return EXIT_USAGE;
	if (first == argc) {
		cmd_error("encode: which events? (cyctop encode [--model PMU] EVENT...)");
		return EXIT_USAGE;
	}
	struct pfm_host *pfm = pfm_host_new();
	if (!pfm) {
		cmd_error("out of memory");
		return 1;
	}
	int rc = encode_all(model, pfm, argc - first, argv + first);
	pfm_host_free(pfm);
	return rc;
}

const struct cmd_entry cmd_encode_entry = {
	"encode",
	"encode [--model PMU] EVENT...   the perf_event_attr of each event (CSV: "
	"event,type,config,config1)",
	cmd_encode_exec,
};

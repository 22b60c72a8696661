/* Event lists (engine/events.c) on the host's model.
 *
 * These tests are for a host without a hardware PMU: the kernel's PMUs come
 * from a fake sysfs with none (tests/unit/fake-sysfs.h), whatever the machine and
 * whatever CPU libpfm4 takes it for. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arch/model.h"
#include "engine/events.h"
#include "engine/pfm.h"
#include "fake-sysfs.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

static const struct arch_model *host;

static int group_setup(void **state)
{
	char err[256];

	(void)state;
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	if (pfm_setup(pfmh, NULL, err, sizeof(err)) != 0) {
		fprintf(stderr, "pfm_setup: %s\n", err);
		return -1;
	}
	host = events_host_model(pfmh);
	return host ? 0 : -1;
}

static void need_pmu_less_host(void)
{
	assert_null(pfm_host_pmu(pfmh));
	assert_false(pfm_host_hardware(pfmh));
	assert_string_equal(host->name, "perf");
}

static void parse_ok(const char *list, struct ev_list *l)
{
	char err[256] = "";

	if (events_parse(list, host, pfmh, l, err, sizeof(err)) != 0) {
		fprintf(stderr, "events_parse(\"%s\"): %s\n", list, err);
		fail();
	}
	assert_ptr_equal(l->model, host);
}

/* Parsing LIST fails with one line containing every one of WHAT (NULL-ended). */
static void parse_fails(const char *list, ...)
{
	struct ev_list l;
	char err[256] = "";
	va_list ap;
	const char *what;

	if (events_parse(list, host, pfmh, &l, err, sizeof(err)) == 0) {
		fprintf(stderr, "events_parse(\"%s\") accepted (%d events)\n", list, l.n);
		fail();
	}
	if (!err[0] || strchr(err, '\n')) {
		fprintf(stderr, "events_parse(\"%s\"): error not one line: '%s'\n", list, err);
		fail();
	}
	va_start(ap, list);
	while ((what = va_arg(ap, const char *)) != NULL)
		if (!strstr(err, what)) {
			fprintf(stderr, "events_parse(\"%s\"): error '%s' lacks '%s'\n", list, err,
				what);
			va_end(ap);
			fail();
		}
	va_end(ap);
}

static void test_cpu_clock(void **state)
{
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	parse_ok("cpu-clock", &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ev[0].name, "cpu-clock");
	assert_true(l.ev[0].software);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(l.ev[0].attr.size, sizeof(struct perf_event_attr));
	/* perf's default -F 4000: on a clock, a fixed 250 us */
	assert_int_equal(l.ev[0].sav, 250000);
	assert_false(l.ev[0].attr.freq);
	assert_string_equal(l.notice, "");
	/* a SAV given is kept */
	parse_ok("cpu-clock/1000000", &l);
	assert_int_equal(l.ev[0].sav, 1000000);
	assert_false(l.ev[0].attr.freq);
}

/* EVENT:u, :k, :u:k as perf reads them: the levels named are counted, the
 * others excluded; none named, user and kernel (perf's default; never the
 * hypervisor, as libpfm4 encodes it).  The event's row in the model's
 * table carries no modifier of its own. */
static void test_privilege_levels(void **state)
{
	static const struct {
		const char *list;
		int user, kernel, hv;  /* exclude_* */
	} cases[] = {
		{ "cpu-clock", 0, 0, 1 },        { "cpu-clock:u", 0, 1, 1 },
		{ "cpu-clock:k", 1, 0, 1 },      { "cpu-clock:u:k", 0, 0, 1 },
		{ "page-faults:u", 0, 1, 1 },    { "task-clock:k/5000", 1, 0, 1 },
	};
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_ok(cases[i].list, &l);
		assert_int_equal(l.n, 1);
		if (l.ev[0].attr.exclude_user != cases[i].user ||
		    l.ev[0].attr.exclude_kernel != cases[i].kernel ||
		    l.ev[0].attr.exclude_hv != cases[i].hv) {
			fprintf(stderr, "%s: exclude user %d kernel %d hv %d\n", cases[i].list,
				l.ev[0].attr.exclude_user, l.ev[0].attr.exclude_kernel,
				l.ev[0].attr.exclude_hv);
			fail();
		}
	}
}

static void test_sav_suffix(void **state)
{
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	parse_ok("page-faults/1", &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ev[0].name, "page-faults");
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_PAGE_FAULTS);
	assert_int_equal(l.ev[0].sav, 1);

	parse_ok("cpu-clock/250000,task-clock", &l);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.ev[0].sav, 250000);
	assert_string_equal(l.ev[1].name, "task-clock");
	assert_int_equal(l.ev[1].attr.config, PERF_COUNT_SW_TASK_CLOCK);
	assert_int_equal(l.ev[1].sav, 250000);

	/* an alias resolves to the table's primary name */
	parse_ok("faults", &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ev[0].name, "page-faults");
	assert_int_equal(l.ev[0].sav, 1);
}

static void test_cycles_fallback(void **state)
{
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	parse_ok("cycles", &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.ev[0].name, "cpu-clock");
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(l.ev[0].sav, 250000);
	assert_non_null(strstr(l.notice, "no hardware PMU"));
	assert_non_null(strstr(l.notice, "cycles"));

	/* the fallback and an explicit cpu-clock are one event */
	parse_ok("cycles,cpu-clock", &l);
	assert_int_equal(l.n, 1);
}

static void test_sw_preset(void **state)
{
	static const char *const want[] = { "cpu-clock", "task-clock", "page-faults",
					    "context-switches" };
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	parse_ok("@sw", &l);
	assert_int_equal(l.n, 4);
	for (int i = 0; i < 4; i++) {
		assert_string_equal(l.ev[i].name, want[i]);
		assert_true(l.ev[i].software);
		assert_int_equal(l.ev[i].attr.type, PERF_TYPE_SOFTWARE);
	}
	assert_int_equal(l.ev[0].sav, 250000);
	assert_int_equal(l.ev[2].sav, 1);
}

static void test_duplicates_collapse(void **state)
{
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	parse_ok("cpu-clock,cpu-clock", &l);
	assert_int_equal(l.n, 1);
	parse_ok("page-faults,faults,page-faults/7", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].sav, 1);   /* the first one wins */
	parse_ok("@sw,cpu-clock,page-faults", &l);
	assert_int_equal(l.n, 4);
	parse_ok("page-faults,@sw", &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.ev[0].name, "page-faults");
	assert_string_equal(l.ev[1].name, "cpu-clock");
}

static void test_errors(void **state)
{
	(void)state;
	need_pmu_less_host();
	parse_fails("cpu-clock/0", "cpu-clock/0", "sample-after", NULL);
	parse_fails("page-faults,cpu-clock/0", "cpu-clock/0", NULL);
	parse_fails("/5", "/5", NULL);
	parse_fails("", "empty event list", NULL);
	/* left to right: the first culprit is the unknown event a */
	parse_fails("a,,b", "'a'", "unknown event", NULL);
	parse_fails("cpu-clock,,b", "empty event name", "cpu-clock,,b", NULL);
	parse_fails("cpu-clock,,page-faults", "empty event name", "cpu-clock,,page-faults", NULL);
	parse_fails("cpu-clock,", "empty event name", NULL);
	parse_fails(",cpu-clock", "empty event name", NULL);
	parse_fails("cpu-clock, ", "empty event name", NULL);
	parse_fails("no_such_event", "no_such_event", "unknown event", NULL);
	parse_fails("cpu-clock,no_such_event", "no_such_event", NULL);
	parse_fails("cpu-clock/99999999999999999999999", "cpu-clock/99999999999999999999999",
		    NULL);
	parse_fails("@no_such_preset", "no_such_preset", NULL);
	parse_fails("@sw/5", "@sw", NULL);
}

static void test_hardware_event_of_core_model(void **state)
{
	(void)state;
	need_pmu_less_host();
	parse_fails("RS_UOPS_DISPATCHED.CYCLES_NONE", "RS_UOPS_DISPATCHED.CYCLES_NONE",
		    "hardware event", "core model", "no hardware PMU", NULL);
	parse_fails("cpu-clock,CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.CORE", "hardware event",
		    "core model", NULL);
}

static void test_core_preset_refused(void **state)
{
	(void)state;
	need_pmu_less_host();
	parse_fails("@big4", "@big4", "Core2", "perf model", NULL);
	parse_fails("cpu-clock,@big4", "@big4", NULL);
}

/* Distinct libpfm4 strings that the perf table does not alias to one row. */
static size_t distinct_list(char *buf, size_t sz, int n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sz - len, "%sperf::cpu-clock:period=%d",
					i ? "," : "", i + 1);
	assert_true(len < sz);
	return len;
}

static void test_too_many_events(void **state)
{
	char list[2048];
	struct ev_list l;

	(void)state;
	need_pmu_less_host();
	distinct_list(list, sizeof(list), EVENTS_MAX);
	parse_ok(list, &l);
	assert_int_equal(l.n, EVENTS_MAX);

	/* a duplicate of an event already in a full list still collapses */
	size_t len = strlen(list);
	snprintf(list + len, sizeof(list) - len, ",perf::cpu-clock:period=1");
	parse_ok(list, &l);
	assert_int_equal(l.n, EVENTS_MAX);

	distinct_list(list, sizeof(list), EVENTS_MAX + 1);
	parse_fails(list, "too many events", NULL);
}

static void test_default_sav(void **state)
{
	struct ev_spec ev;
	const struct arch_model *core = model_find("core");
	const struct arch_model *perf = model_find("perf");

	(void)state;
	assert_non_null(core);
	assert_non_null(perf);
	memset(&ev, 0, sizeof(ev));
	ev.attr.type = PERF_TYPE_SOFTWARE;
	ev.attr.config = PERF_COUNT_SW_CPU_CLOCK;
	snprintf(ev.name, sizeof(ev.name), "cpu-clock");
	/* perf's -F 4000, which the kernel makes a fixed 250 us on a clock */
	assert_int_equal(events_default_sav(&ev, perf), 250000);
	assert_false(events_default_freq(&ev, perf));
	ev.attr.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_int_equal(events_default_sav(&ev, perf), 250000);
	assert_false(events_default_freq(&ev, perf));
	/* counts of rare events: every event */
	ev.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	assert_int_equal(events_default_sav(&ev, perf), 1);
	ev.attr.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	assert_int_equal(events_default_sav(&ev, perf), 1);
	ev.attr.config = PERF_COUNT_SW_CPU_MIGRATIONS;
	assert_int_equal(events_default_sav(&ev, perf), 1);

	/* hardware: the model table's value, else 2,000,000 */
	ev.attr.type = PERF_TYPE_RAW;
	ev.attr.config = 0x3c;
	snprintf(ev.name, sizeof(ev.name), "MEM_LOAD_RETIRED.L2_LINE_MISS");
	const struct arch_event *row = model_lookup(core, ev.name);
	assert_non_null(row);
	assert_true(row->sav > 0 && row->sav != 2000000);
	assert_int_equal(events_default_sav(&ev, core), row->sav);
	snprintf(ev.name, sizeof(ev.name), "NOT_IN_ANY_TABLE");
	assert_int_equal(events_default_sav(&ev, core), 2000000);
	ev.attr.type = PERF_TYPE_HARDWARE;
	ev.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	snprintf(ev.name, sizeof(ev.name), "cycles");
	/* generic cycles: frequency mode (-F 4000), each sample its period */
	assert_true(events_default_freq(&ev, perf));
	assert_int_equal(events_default_sav(&ev, perf), 1);
	/* a model's cycle event with a table SAV keeps it (the papers' method) */
	ev.attr.type = PERF_TYPE_RAW;
	ev.attr.config = 0x3c;
	snprintf(ev.name, sizeof(ev.name), "CPU_CLK_UNHALTED.CORE");
	snprintf(ev.asked, sizeof(ev.asked), "CPU_CLK_UNHALTED.CORE");
	row = model_lookup(core, ev.name);
	assert_non_null(row);
	assert_false(events_default_freq(&ev, core));
	assert_int_equal(events_default_sav(&ev, core), row->sav ? row->sav : 2000000);
	/* "cycles:u" asked is the generic cycles too */
	snprintf(ev.name, sizeof(ev.name), "cycles");
	snprintf(ev.asked, sizeof(ev.asked), "cycles:u");
	assert_true(events_default_freq(&ev, perf));
	snprintf(ev.asked, sizeof(ev.asked), "cyclesx");
	ev.attr.type = PERF_TYPE_RAW;
	assert_false(events_default_freq(&ev, perf));
}

static int count_item(char *item, void *arg, char *err, size_t errsz)
{
	char (*items)[64] = arg;
	int n = 0;

	(void)err;
	(void)errsz;
	while (items[n][0])
		n++;
	snprintf(items[n], sizeof(items[n]), "%s", item);
	return 0;
}

/* Commas inside perf's cpu/.../ belong to the event (perf does not quote
 * them in -e lists); EVENT/SAV still splits at its comma. */
static void test_list_split_keeps_pmu_syntax(void **state)
{
	char items[8][64];
	char err[256];

	(void)state;
	memset(items, 0, sizeof(items));
	assert_int_equal(events_foreach("cpu-clock,cpu/event=0xb1,umask=0x1,cmask=1,inv/,"
					"page-faults/100,cpu_core/UOPS_EXECUTED.THREAD,cmask=0x6/u,"
					"task-clock", count_item, items, err, sizeof(err)), 0);
	assert_string_equal(items[0], "cpu-clock");
	assert_string_equal(items[1], "cpu/event=0xb1,umask=0x1,cmask=1,inv/");
	assert_string_equal(items[2], "page-faults/100");
	assert_string_equal(items[3], "cpu_core/UOPS_EXECUTED.THREAD,cmask=0x6/u");
	assert_string_equal(items[4], "task-clock");
	assert_string_equal(items[5], "");
}

/* Hybrid parts: the same raw event on cpu_core and cpu_atom opens with each
 * PMU's sysfs type and keeps its PMU in the name, so counts, sessions and
 * groups tell them apart; a PMU the kernel lacks is named in the error. */
static void test_hybrid_pmus_apart(void **state)
{
	struct ev_list l;
	char err[256] = "";

	(void)state;
	fake_sysfs_install(fake_sysfs_make("cpu_core,cpu_atom", ""));
	assert_int_equal(pfm_setup(pfmh, NULL, err, sizeof(err)), 0);
	assert_int_equal(events_parse("cpu_core/event=0x3c/,cpu_atom/event=0x3c/", host, pfmh, &l, err,
				      sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.ev[0].name, "cpu_core/event=0x3c/");
	assert_string_equal(l.ev[1].name, "cpu_atom/event=0x3c/");
	assert_int_equal(l.ev[0].attr.config, 0x3c);
	assert_int_equal(l.ev[1].attr.config, 0x3c);
	assert_int_equal(l.ev[0].attr.type, 4);   /* fake-sysfs.h numbers them from 4 */
	assert_int_equal(l.ev[1].attr.type, 5);
	assert_int_equal(l.ev[0].attr.exclude_kernel, 1);
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	assert_int_equal(pfm_setup(pfmh, NULL, err, sizeof(err)), 0);
	parse_fails("cpu_core/event=0x3c/", "cpu_core", "no PMU", NULL);
}

int main(void)
{
	pfmh = pfm_host_new();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_clock),
		cmocka_unit_test(test_privilege_levels),
		cmocka_unit_test(test_sav_suffix),
		cmocka_unit_test(test_cycles_fallback),
		cmocka_unit_test(test_sw_preset),
		cmocka_unit_test(test_duplicates_collapse),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hardware_event_of_core_model),
		cmocka_unit_test(test_core_preset_refused),
		cmocka_unit_test(test_too_many_events),
		cmocka_unit_test(test_default_sav),
		cmocka_unit_test(test_list_split_keeps_pmu_syntax),
		cmocka_unit_test(test_hybrid_pmus_apart),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}

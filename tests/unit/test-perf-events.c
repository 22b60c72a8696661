/* perf's core events (issue 25): the generated tables (arch/perf-events-data.c)
 * encode as perf does, through the engine, for every model that has one.
 *
 * References: Linux perf tools/perf/pmu-events/arch, Linux 6.12.117 (Debian
 * linux-source-6.12 6.12.117-1~deb12u1); the per-directory versions of
 * x86/mapfile.csv (sapphirerapids v1.23, graniterapids v1.02, sierraforest
 * v1.04, amdzen5 v1 ...).  tests/unit/perf-events-sample.inc is the generator's
 * sample: every event of a special kind (select > 0xff, CounterMask, Invert,
 * EdgeDetect, AnyThread, an MSR value), up to 8 of each, and every n-th other
 * event, each with the config and config1 the kernel's format strings give,
 * and its JSON file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "arch/model.h"
#include "arch/perf-events.h"
#include "arch/pfm-fix.h"
#include "engine/events.h"
#include "engine/pfm.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

struct sample_row {
	const char *table, *name;
	unsigned long long config, config1;
	const char *file;
};

static const struct sample_row sample[] = {
#include "perf-events-sample.inc"
};

static bool setup_model(const struct arch_model *m)
{
	char err[256] = "";

	if (pfm_setup(pfmh, m->pfm_force, err, sizeof(err)) != 0) {
		fprintf(stderr, "pfm_setup(%s): %s\n", m->name, err);
		return false;
	}
	return true;
}

/* NAME through events_parse under M: its attr. */
static bool encode(const struct arch_model *m, const char *name, struct perf_event_attr *attr)
{
	static struct ev_list l;
	char err[512] = "";

	if (events_parse(name, m, pfmh, &l, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s: %s\n", m->name, name, err);
		return false;
	}
	*attr = l.ev[0].attr;
	return true;
}

/* The sample of every table, on every model that uses it; at least 20
 * events a table. */
static void test_sample_encodes_as_perf(void **state)
{
	const struct arch_model *m;
	int bad = 0;

	(void)state;
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		if (!m->perf_events || !setup_model(m))
			continue;
		int n = 0;
		for (size_t k = 0; k < sizeof(sample) / sizeof(sample[0]); k++) {
			struct perf_event_attr a;
			if (strcmp(sample[k].table, m->perf_events) != 0)
				continue;
			n++;
			if (!encode(m, sample[k].name, &a)) {
				bad++;
				continue;
			}
			if (a.config != sample[k].config || a.config1 != sample[k].config1) {
				fprintf(stderr, "%s: %s encodes 0x%llx/0x%llx, %s says 0x%llx/0x%llx\n",
					m->name, sample[k].name, (unsigned long long)a.config,
					(unsigned long long)a.config1, sample[k].file,
					sample[k].config, sample[k].config1);
				bad++;
			}
		}
		if (n < 20) {
			fprintf(stderr, "%s: %d sample events of %s, want >= 20\n", m->name, n,
				m->perf_events);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The sample covers the kinds the issue names, on some table each. */
static void test_sample_has_every_kind(void **state)
{
	int wide = 0, cmask = 0, inv = 0, edge = 0, msr = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(sample) / sizeof(sample[0]); k++) {
		unsigned long long c = sample[k].config;
		bool arm = strncmp(sample[k].file, "arm64/", 6) == 0;
		wide += !arm && (c >> 32) != 0;
		cmask += !arm && ((c >> 24) & 0xff) != 0;
		inv += !arm && ((c >> 23) & 1);
		edge += !arm && ((c >> 18) & 1);
		msr += sample[k].config1 != 0;
	}
	assert_true(wide > 0 && cmask > 0 && inv > 0 && edge > 0 && msr > 0);
}

struct walk {
	const struct arch_model *m;
	int rows, perf_named, bad;
};

/* The first '|' spelling of EV that is a perf event of W's model. */
static bool perf_spelling(const struct walk *w, const struct arch_event *ev,
			  struct arch_code *code, uint64_t *config1, const char **name)
{
	char one[256];

	for (const char *p = ev->name; p && *p;) {
		size_t len = strcspn(p, "|");
		if (len < sizeof(one)) {
			memcpy(one, p, len);
			one[len] = '\0';
			if (model_perf_code(w->m, one, code, config1, name))
				return true;
		}
		p = p[len] ? p + len + 1 : NULL;
	}
	return false;
}

/* A row the trees, presets or ILP sweeps use: where one of its names is
 * perf's, its own fields and the attr cyctop opens for it (libpfm4's
 * string, corrected by arch/pfm-fix.c; the table itself on Arm and the
 * models libpfm4 lacks) equal perf's encoding. */
static void row_matches_perf(const struct arch_event *ev, void *arg)
{
	struct walk *w = arg;
	struct arch_code code;
	uint64_t config1;
	const char *pname;
	struct perf_event_attr a;

	if (!ev->pfm)
		return;
	w->rows++;
	if (!perf_spelling(w, ev, &code, &config1, &pname)) {
		/* a paper or libpfm4 name perf does not have (tests/unit/test-encodings
		 * checks these rows against perfmon's JSON) */
		printf("  %s: %s is no perf event name\n", w->m->name, ev->name);
		return;
	}
	w->perf_named++;
	unsigned long long want = model_code_config(w->m, &code);
	if (model_code_config(w->m, &ev->code) != want) {
		fprintf(stderr, "%s: row %s has 0x%llx, perf's %s (%s) 0x%llx\n", w->m->name,
			ev->name, model_code_config(w->m, &ev->code), pname, w->m->perf_events,
			want);
		w->bad++;
	}
	char primary[EVENT_NAME_MAX];
	snprintf(primary, sizeof(primary), "%.*s", (int)strcspn(ev->name, "|"), ev->name);
	if (!encode(w->m, primary, &a)) {
		w->bad++;
		return;
	}
	if (a.config != want || a.config1 != config1) {
		fprintf(stderr, "%s: %s (%s) opens 0x%llx/0x%llx, perf's %s 0x%llx/0x%llx: a "
			"libpfm4 disagreement needs an arch/pfm-fix.c row\n", w->m->name, primary,
			ev->pfm, (unsigned long long)a.config, (unsigned long long)a.config1, pname,
			want, (unsigned long long)config1);
		w->bad++;
	}
}

static void test_model_rows_match_perf(void **state)
{
	const struct arch_model *m;
	int bad = 0;

	(void)state;
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		if (!m->perf_events)
			continue;
		assert_non_null(model_perf_table(m));
		if (!setup_model(m)) {
			bad++;
			continue;
		}
		struct walk w = { m, 0, 0, 0 };
		model_foreach(m, row_matches_perf, &w);
		printf("%-20s %3d rows, %3d by a perf name, checked against %s\n", m->name, w.rows,
		       w.perf_named, model_perf_table(m)->source);
		/* perf's cortex-a53 JSON lists none of the common events cyctop's
		 * rows use (the kernel's sysfs events name those) */
		assert_true(w.perf_named > 0 || m->encoding == ENC_ARMV8);
		bad += w.bad;
	}
	assert_int_equal(bad, 0);
}

/* Every event perf and libpfm4 both name on a model whose libpfm4 PMU is its
 * own (perf's EVENT.UMASK is libpfm4's EVENT:UMASK): libpfm4's encoding,
 * with arch/pfm-fix.c's corrections, is perf's; a disagreement needs a
 * correction row.  (Emerald and Granite Rapids borrow libpfm4's spr: perf's
 * names encode from their own tables there.) */
static void test_libpfm4_agrees_with_perf(void **state)
{
	const struct arch_model *m;
	int bad = 0, both = 0;

	(void)state;
	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		const struct perf_events_table *t = model_perf_table(m);
		if (!t || !m->pfm_force || model_find(m->pfm_force) != m || !setup_model(m))
			continue;
		for (size_t k = 0; k < t->n; k++) {
			const struct perf_event_row *r = &t->rows[k];
			struct perf_event_attr a;
			struct arch_code code;
			uint64_t config1;
			char name[256], err[256];
			snprintf(name, sizeof(name), "%s", perf_event_name(r));
			char *dot = strchr(name, '.');
			if (dot)
				*dot = ':';
			if (pfm_encode(pfmh, name, &a, NULL, 0, err, sizeof(err)) != 0 ||
			    !model_perf_code(m, perf_event_name(r), &code, &config1, NULL))
				continue;  /* libpfm4 does not know the name */
			/* jevents.py real_event() rewrites these to the architectural
			 * events (inst_retired.any "event=0xc0", cpu_clk_unhalted.thread
			 * "event=0x3c"); libpfm4 keeps perfmon's fixed-counter forms
			 * (0x0100, 0x0200) or UMask: both count the same (the kernel's
			 * FIXED_EVENT_CONSTRAINT(0x00c0, 0), (0x0100, 0) ...) */
			if (!strncasecmp(name, "INST_RETIRED:ANY", 16) ||
			    !strcasecmp(name, "CPU_CLK_UNHALTED:THREAD"))
				continue;
			both++;
			if (a.config != model_code_config(m, &code)) {
				fprintf(stderr, "%s: libpfm4 %s 0x%llx, perf's %s (%s) 0x%llx: needs an "
					"arch/pfm-fix.c row\n", m->name, name,
					(unsigned long long)a.config, perf_event_name(r), t->source,
					model_code_config(m, &code));
				bad++;
			}
		}
	}
	printf("%d events named by both libpfm4 and perf checked\n", both);
	assert_true(both > 1000);
	assert_int_equal(bad, 0);
}

/* The corrections whose event perf knows by the same name (libpfm4's
 * EVENT:UMASK is perf's EVENT.UMASK) have perf's config and config1. */
static void test_corrections_agree_with_perf(void **state)
{
	const struct pfm_fix *f;
	int checked = 0, bad = 0;

	(void)state;
	for (size_t i = 0; (f = pfm_fix_at(i)) != NULL; i++) {
		const struct arch_model *m = model_find(f->pmu);
		char name[256];
		struct arch_code code;
		uint64_t config1;
		snprintf(name, sizeof(name), "%s", f->event);
		char *colon = strchr(name, ':');
		if (colon)
			*colon = '.';
		if (!m || !model_perf_code(m, name, &code, &config1, NULL))
			continue;
		/* perf's jevents.py real_event() writes inst_retired.any as
		 * "event=0xc0" (the architectural event); the correction keeps
		 * perfmon's UMask 0x01 (0x0100): the kernel counts both on FIXED0
		 * (arch/x86/events/intel/core.c FIXED_EVENT_CONSTRAINT(0x00c0, 0)
		 * INST_RETIRED.ANY, (0x0100, 0) INST_RETIRED.PREC_DIST) */
		if (strcasecmp(name, "INST_RETIRED.ANY") == 0)
			continue;
		checked++;
		if (model_code_config(m, &code) != f->config || config1 != pfm_fix_config1(f)) {
			fprintf(stderr, "%s %s: correction 0x%llx/0x%llx, perf's %s 0x%llx/0x%llx\n",
				f->pmu, f->event, (unsigned long long)f->config,
				(unsigned long long)pfm_fix_config1(f), m->perf_events,
				model_code_config(m, &code), (unsigned long long)config1);
			bad++;
		}
	}
	printf("%d corrections checked against perf's tables\n", checked);
	assert_true(checked >= 5);
	assert_int_equal(bad, 0);
}

/* The cases of the issue, by hand: perf x86/sapphirerapids/pipeline.json
 * v1.23 INT_MISC.UNKNOWN_BRANCH_CYCLES EventCode 0xad UMask 0x40 MSRIndex
 * 0x3F7 MSRValue 0x7 (perf: frontend=0x7, config1:0-23); x86/amdzen4/
 * other.json... op_cache_hit_miss.all_op_cache_accesses EventCode 0x28f UMask
 * 0x07 (config bits 32-35 = 0x2). */
static void test_issue_cases(void **state)
{
	struct perf_event_attr a;
	const struct arch_model *spr = model_find("spr"), *zen4 = model_find("zen4");

	(void)state;
	assert_true(setup_model(spr));
	assert_true(encode(spr, "INT_MISC.UNKNOWN_BRANCH_CYCLES", &a));
	assert_int_equal(a.config, 0x40ad);
	assert_int_equal(a.config1, 0x7);
	assert_true(encode(spr, "spr::INT_MISC:UNKNOWN_BRANCH_CYCLES", &a));
	assert_int_equal(a.config, 0x40ad);
	assert_int_equal(a.config1, 0x7);
	assert_true(setup_model(zen4));
	assert_true(encode(zen4, "op_cache_hit_miss.all_op_cache_accesses", &a));
	assert_int_equal(a.config, 0x20000078full);
	assert_true(encode(zen4, "OP_CACHE_HIT_MISS.ALL_OP_CACHE_ACCESSES:c=1:i=1", &a));
	assert_int_equal(a.config, 0x20180078full);
	assert_true(encode(zen4, "ls_l1_d_tlb_miss.all", &a));
	assert_int_equal(a.config, 0xff45);
}

/* Lookups: any case, sorted tables, absent names. */
static void test_table_lookup(void **state)
{
	const struct perf_events_table *t;

	(void)state;
	for (t = perf_events_tables; t->name; t++) {
		assert_true(t->n > 20);
		for (size_t i = 1; i < t->n; i++)
			assert_true(strcasecmp(perf_event_name(&t->rows[i - 1]),
					       perf_event_name(&t->rows[i])) < 0);
		assert_ptr_equal(perf_events_find(t, perf_event_name(&t->rows[t->n / 2])),
				 &t->rows[t->n / 2]);
		assert_null(perf_events_find(t, "no_such.event"));
		assert_true(perf_event_desc(&t->rows[0])[0] != '\0' ||
			    strncmp(t->name, "amdzen", 6) != 0);
	}
	t = perf_events_table("amdzen5");
	assert_non_null(t);
	assert_non_null(perf_events_find(t, "EX_RET_OPS"));
	assert_null(perf_events_table("nonesuch"));
}

int main(void)
{
	pfmh = pfm_host_new();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_lookup),
		cmocka_unit_test(test_issue_cases),
		cmocka_unit_test(test_sample_has_every_kind),
		cmocka_unit_test(test_sample_encodes_as_perf),
		cmocka_unit_test(test_model_rows_match_perf),
		cmocka_unit_test(test_corrections_agree_with_perf),
		cmocka_unit_test(test_libpfm4_agrees_with_perf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

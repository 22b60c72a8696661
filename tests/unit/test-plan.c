/* The group planner (arch/plan.c).
 *
 * Every plan is checked by validate(): each requested event in exactly one
 * group (the user's reference in all of them), the reference exactly once in
 * every group of a multi-group plan, no counter used twice in a group, every
 * counter within the (capped) inventory and allowed by the event's row, and
 * the partner flags true to the groups.
 *
 * Expected group counts:
 * - big4 on Core2: two collections (Levinthal, seeds/000, "Analyzing an
 *   Application": "It will take two data collections as it requires 3 events
 *   that must be programmed into the two general counters").
 * - Core2 has 2 generic + 3 fixed counters; MEM_LOAD_RETIRED.*, IDLE_DURING_DIV
 *   only on PMC0, FP_ASSIST only on PMC1 (Linux intel_core2_event_constraints).
 * - AMD K8/Fam10h: 4 generic counters; the paper's four-event sets are one run
 *   and the indirect L2 method needs several (seeds/004 4.3.3.1, 4.3.3.2).
 * - IA-64: 4 counters (seeds/001: "up to four events in a given run"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "arch/plan.h"
#include "arch/preset.h"

struct req_set {
	int n;
	struct plan_request req[PLAN_MAX_EVENTS];
	char names[PLAN_MAX_EVENTS][128];
};

static struct plan plan;  /* large: one, reused */

static const struct arch_model *must_model(const char *name)
{
	const struct arch_model *m = model_find(name);

	if (!m) {
		fprintf(stderr, "no model %s\n", name);
		fail();
	}
	return m;
}

static void add_row(struct req_set *rs, const struct arch_model *m, const char *name,
		    bool software)
{
	const struct arch_event *row = model_lookup(m, name);

	assert_true(rs->n < PLAN_MAX_EVENTS);
	if (!row && !software) {
		fprintf(stderr, "%s: no row %s\n", m->name, name);
		fail();
	}
	/* the primary spelling, as engine/events.c names a preset's events */
	snprintf(rs->names[rs->n], sizeof(rs->names[0]), "%.*s", (int)strcspn(name, "|"), name);
	rs->req[rs->n].name = rs->names[rs->n];
	rs->req[rs->n].row = row;
	rs->req[rs->n].software = software;
	rs->n++;
}

/* NAMES: comma-separated paper names or @presets, all rows of model M. */
static void requests(struct req_set *rs, const struct arch_model *m, const char *names)
{
	char buf[1024];

	memset(rs, 0, sizeof(*rs));
	snprintf(buf, sizeof(buf), "%s", names);
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
		if (t[0] != '@') {
			add_row(rs, m, t, false);
			continue;
		}
		const struct arch_event *rows[PRESET_MAX_EVENTS];
		uint32_t savs[PRESET_MAX_EVENTS];
		char err[256];
		int k = preset_resolve(preset_find_for(t, m), m, rows, savs, err, sizeof(err));
		if (k < 0) {
			fprintf(stderr, "%s\n", err);
			fail();
		}
		for (int i = 0; i < k; i++)
			add_row(rs, m, rows[i]->name, false);
	}
}

static void software(struct req_set *rs, const struct arch_model *m, const char *names)
{
	char buf[512];

	memset(rs, 0, sizeof(*rs));
	snprintf(buf, sizeof(buf), "%s", names);
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
		add_row(rs, m, t, true);
}

static int index_of(const struct req_set *rs, const char *name)
{
	for (int i = 0; i < rs->n; i++)
		if (strcasecmp(rs->names[i], name) == 0)
			return i;
	fprintf(stderr, "%s not requested\n", name);
	fail();
	return -1;
}

static const struct arch_event *slot_row(const struct req_set *rs, const struct arch_model *m,
					 const struct plan_slot *s)
{
	return s->event == PLAN_ADDED ? model_lookup(m, m->cycles) : rs->req[s->event].row;
}

static bool slot_software(const struct req_set *rs, const struct arch_model *m,
			  const struct plan_slot *s)
{
	if (m->n_generic + m->n_fixed == 0)
		return true;
	return s->event != PLAN_ADDED && rs->req[s->event].software;
}

static void validate_counter(const struct req_set *rs, const struct arch_model *m, int cap,
			     const struct plan_slot *s)
{
	const struct arch_event *row = slot_row(rs, m, s);
	int n_generic = cap && cap < m->n_generic ? cap : m->n_generic;

	if (slot_software(rs, m, s)) {
		assert_int_equal(s->kind, PLAN_NO_COUNTER);
		assert_int_equal(s->counter, -1);
		return;
	}
	if (s->kind == PLAN_GENERIC) {
		assert_in_range(s->counter, 0, n_generic - 1);
		if (row)
			assert_true(event_fits_counter(row, s->counter));
		return;
	}
	assert_int_equal(s->kind, PLAN_FIXED);
	assert_in_range(s->counter, 0, m->n_fixed - 1);
	assert_non_null(row);
	assert_int_equal(row->fixed, s->counter);
}

static void validate_group(const struct req_set *rs, const struct arch_model *m, int cap,
			   int g, int *seen)
{
	const struct plan_group *grp = &plan.groups[g];
	unsigned generic_used = 0, fixed_used = 0;
	int refs = 0, counterless = 0;

	assert_in_range(grp->n, 1, PLAN_MAX_SLOTS);
	for (int i = 0; i < grp->n; i++) {
		const struct plan_slot *s = &grp->slots[i];
		validate_counter(rs, m, cap, s);
		if (s->kind == PLAN_GENERIC) {
			assert_false(generic_used & (1u << s->counter));
			generic_used |= 1u << s->counter;
		} else if (s->kind == PLAN_FIXED) {
			assert_false(fixed_used & (1u << s->counter));
			fixed_used |= 1u << s->counter;
		}
		if (s->event == plan.reference) {
			refs++;
			assert_int_equal(i, grp->ref);
		} else {
			assert_in_range(s->event, 0, rs->n - 1);
			assert_int_equal(plan.event_group[s->event], g);
			seen[s->event]++;
			counterless += s->kind == PLAN_NO_COUNTER;
		}
	}
	/* the reference: exactly once in every group of several, at most once */
	assert_int_equal(refs, grp->ref >= 0);
	if (plan.n_groups > 1)
		assert_int_equal(refs, 1);
	/* no inventory: the cap is on events per group beside the reference */
	if (m->n_generic + m->n_fixed == 0 && cap)
		assert_true(counterless <= cap);
}

static void validate(const struct req_set *rs, const struct arch_model *m, int cap)
{
	int seen[PLAN_MAX_EVENTS] = { 0 };

	assert_ptr_equal(plan.model, m);
	assert_int_equal(plan.n_events, rs->n);
	assert_in_range(plan.n_groups, 1, rs->n);
	assert_string_equal(plan.reference_name, m->cycles);
	for (int g = 0; g < plan.n_groups; g++)
		validate_group(rs, m, cap, g, seen);
	for (int i = 0; i < rs->n; i++) {
		if (i == plan.reference) {
			assert_int_equal(plan.event_group[i], PLAN_EVERY_GROUP);
			assert_int_equal(seen[i], 0);
		} else {
			assert_int_equal(seen[i], 1);
		}
	}
	for (int s = 0; s < plan.n_partners; s++) {
		const struct plan_partners *ps = &plan.partners[s];
		bool together = true;
		assert_in_range(ps->n, 2, PLAN_MAX_PARTNERS);
		assert_non_null(ps->formula);
		for (int k = 1; k < ps->n; k++)
			together &= plan.event_group[ps->ev[k]] == plan.event_group[ps->ev[0]];
		assert_int_equal(ps->together, together);
	}
}

static int plan_ok(const struct req_set *rs, const struct arch_model *m, int cap)
{
	char err[256] = "";
	int g = plan_build(m, rs->req, rs->n, cap, &plan, err, sizeof(err));

	if (g < 0)
		fprintf(stderr, "plan on %s: %s\n", m->name, err);
	assert_true(g > 0);
	assert_int_equal(g, plan.n_groups);
	validate(rs, m, cap);
	return g;
}

static void plan_fails(const struct req_set *rs, const struct arch_model *m, int cap,
		       const char *const *want)
{
	char err[256] = "";

	assert_int_equal(plan_build(m, rs->req, rs->n, cap, &plan, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	for (; *want; want++) {
		if (!strstr(err, *want))
			fprintf(stderr, "'%s' not in: %s\n", *want, err);
		assert_non_null(strstr(err, *want));
	}
}

static int group_of(const struct req_set *rs, const char *name)
{
	return plan.event_group[index_of(rs, name)];
}

static const struct plan_slot *slot_of(const struct req_set *rs, const char *name)
{
	int e = index_of(rs, name), g = plan.event_group[e];

	assert_true(g >= 0);
	for (int i = 0; i < plan.groups[g].n; i++)
		if (plan.groups[g].slots[i].event == e)
			return &plan.groups[g].slots[i];
	fail();
	return NULL;
}

static bool all_fixed_reference(int fixed)
{
	for (int g = 0; g < plan.n_groups; g++) {
		const struct plan_group *grp = &plan.groups[g];
		if (grp->ref < 0 || grp->slots[grp->ref].kind != PLAN_FIXED ||
		    grp->slots[grp->ref].counter != fixed)
			return false;
	}
	return true;
}

/* --- Core2 ---------------------------------------------------------------- */

/* The big 4: 3 events for 2 generic counters (cycles on FIXED1) = two
 * collections, the user's CPU_CLK_UNHALTED.CORE shared by both. */
static void test_core2_big4_two_groups(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "@big4");
	assert_int_equal(rs.n, 4);
	assert_int_equal(plan_ok(&rs, core, 0), 2);
	assert_true(plan.optimal);
	assert_int_equal(plan.reference, index_of(&rs, "CPU_CLK_UNHALTED.CORE"));
	assert_true(all_fixed_reference(1));
	const struct plan_slot *l2 = slot_of(&rs, "MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_int_equal(l2->kind, PLAN_GENERIC);
	assert_int_equal(l2->counter, 0);
	/* the two any-counter events do not both go beside the PMC0-only one */
	assert_int_not_equal(group_of(&rs, "RS_UOPS_DISPATCHED.CYCLES_NONE"),
			     group_of(&rs, "BUS_TRANS_ANY.SELF"));
}

/* First pass: 5 generic-only events on 2 counters = 3 groups; INST_RETIRED on
 * its fixed counter; the non-retired terms RS_UOPS_DISPATCHED and
 * UOPS_RETIRED.ANY together (the triple with FUSED cannot fit 2 counters). */
static void test_core2_first_pass(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "@first-pass");
	assert_int_equal(rs.n, 7);
	assert_int_equal(plan_ok(&rs, core, 0), 3);
	assert_true(plan.optimal);
	assert_true(all_fixed_reference(1));
	const struct plan_slot *inst = slot_of(&rs, "INST_RETIRED.ANY_P");
	assert_int_equal(inst->kind, PLAN_FIXED);
	assert_int_equal(inst->counter, 0);
	assert_int_equal(group_of(&rs, "RS_UOPS_DISPATCHED"), group_of(&rs, "UOPS_RETIRED.ANY"));
	assert_int_not_equal(group_of(&rs, "UOPS_RETIRED.ANY"),
			     group_of(&rs, "UOPS_RETIRED.FUSED"));
	assert_int_equal(plan.n_partners, 1);
	assert_false(plan.partners[0].together);
	assert_int_equal(plan.partners[0].n, 3);
}

/* Arm's threshold sweep (no rows: the engine encodes OP_RETIRED:th=k from
 * the host PMU): CPU_CYCLES on the cycle counter and th=1..8 on 6 event
 * counters = 2 groups; the 7 adjacent pairs are partner sets, all but the
 * one the group boundary splits kept together. */
static void test_arm_threshold_sweep(void **state)
{
	const struct arch_model *v2 = must_model("arm_v2");
	struct req_set rs;

	(void)state;
	memset(&rs, 0, sizeof(rs));
	add_row(&rs, v2, "CPU_CYCLES", false);
	for (int k = 1; k <= 8; k++) {
		snprintf(rs.names[rs.n], sizeof(rs.names[0]), "OP_RETIRED:th=%d", k);
		rs.req[rs.n].name = rs.names[rs.n];
		rs.n++;
	}
	assert_int_equal(plan_ok(&rs, v2, 0), 2);
	assert_int_equal(plan.reference, 0);
	assert_true(all_fixed_reference(0));
	assert_int_equal(plan.n_partners, 7);
	int together = 0;
	for (int s = 0; s < 7; s++) {
		assert_int_equal(plan.partners[s].n, 2);
		assert_int_equal(plan.partners[s].ev[0], s + 1);
		assert_int_equal(plan.partners[s].ev[1], s + 2);
		assert_non_null(strstr(plan.partners[s].formula, "threshold"));
		together += plan.partners[s].together;
	}
	assert_int_equal(together, 6);
	/* N2's five steps fit one group beside the cycles: every pair together */
	rs.n = 6;
	assert_int_equal(plan_ok(&rs, must_model("arm_n2"), 0), 1);
	assert_int_equal(plan.n_partners, 4);
	for (int s = 0; s < 4; s++)
		assert_true(plan.partners[s].together);
}

/* The ILP sweep: CMASK 1..width+1 of the model's dispatch event, 7 events on
 * 2 counters = 4 groups, the added cycles reference in each on FIXED1, and
 * adjacent steps (bin k = C(k+1) - C(k)) paired where they fit: 1-2, 3-4, 5-6. */
static void test_core2_ilp_sweep(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;
	char name[128];

	(void)state;
	assert_non_null(core->ilp_event);
	memset(&rs, 0, sizeof(rs));
	for (int k = 1; k <= core->dispatch_width + 1; k++) {
		snprintf(name, sizeof(name), "%s:c=%d:i=1", core->ilp_event, k);
		add_row(&rs, core, name, false);
	}
	assert_int_equal(rs.n, 7);
	assert_int_equal(plan_ok(&rs, core, 0), 4);
	assert_true(plan.optimal);
	assert_int_equal(plan.reference, PLAN_ADDED);
	assert_true(all_fixed_reference(1));
	for (int k = 0; k < 6; k += 2)
		assert_int_equal(plan.event_group[k], plan.event_group[k + 1]);
	assert_int_equal(plan.n_partners, 6);
	for (int s = 0; s < 6; s++)
		assert_int_equal(plan.partners[s].together, s % 2 == 0);

	/* the @ilp preset carries the reference itself: shared, not added */
	requests(&rs, core, "@ilp");
	assert_int_equal(plan_ok(&rs, core, 0), 4);
	assert_int_equal(plan.reference, 0);
	for (int g = 0; g < plan.n_groups; g++)
		assert_int_equal(plan.groups[g].slots[plan.groups[g].ref].event, 0);
}

/* PMC0-only events never share a group; PMC1-only FP_ASSIST joins one. */
static void test_core2_counter0_only_separated(void **state)
{
	static const char *const pmc0[] = { "MEM_LOAD_RETIRED.L1D_LINE_MISS",
		"MEM_LOAD_RETIRED.L2_LINE_MISS", "MEM_LOAD_RETIRED.DTLB_MISS", "IDLE_DURING_DIV" };
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "MEM_LOAD_RETIRED.L1D_LINE_MISS,MEM_LOAD_RETIRED.L2_LINE_MISS,"
		 "FP_ASSIST,MEM_LOAD_RETIRED.DTLB_MISS,IDLE_DURING_DIV");
	assert_int_equal(plan_ok(&rs, core, 0), 4);
	for (int a = 0; a < 4; a++) {
		assert_int_equal(slot_of(&rs, pmc0[a])->counter, 0);
		for (int b = a + 1; b < 4; b++)
			assert_int_not_equal(group_of(&rs, pmc0[a]), group_of(&rs, pmc0[b]));
	}
	assert_int_equal(slot_of(&rs, "FP_ASSIST")->counter, 1);
	/* the L2-hit partners both need PMC0: reported apart */
	assert_int_equal(plan.n_partners, 1);
	assert_false(plan.partners[0].together);

	/* a matching, not the first free counter: the any-counter event takes PMC1 */
	requests(&rs, core, "RS_UOPS_DISPATCHED.CYCLES_NONE,MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_int_equal(plan_ok(&rs, core, 0), 1);
	assert_int_equal(slot_of(&rs, "RS_UOPS_DISPATCHED.CYCLES_NONE")->counter, 1);
	requests(&rs, core, "FP_ASSIST,IDLE_DURING_DIV");
	assert_int_equal(plan_ok(&rs, core, 0), 1);
	requests(&rs, core, "FP_ASSIST,RS_UOPS_DISPATCHED.CYCLES_NONE,IDLE_DURING_DIV");
	assert_int_equal(plan_ok(&rs, core, 0), 2);
}

/* Partners kept together even when the request order would split them. */
static void test_core2_partners_together(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "UOPS_RETIRED.ANY,BR_CND_EXEC,RS_UOPS_DISPATCHED,BR_CND_MISSP_EXEC");
	assert_int_equal(plan_ok(&rs, core, 0), 2);
	assert_int_equal(group_of(&rs, "UOPS_RETIRED.ANY"), group_of(&rs, "RS_UOPS_DISPATCHED"));
	assert_int_equal(group_of(&rs, "BR_CND_EXEC"), group_of(&rs, "BR_CND_MISSP_EXEC"));
	assert_int_equal(plan.n_partners, 2);
	assert_true(plan.partners[0].together && plan.partners[1].together);

	/* FSB utilization terms and the dispatch rate terms */
	requests(&rs, core, "CPU_CLK_UNHALTED.BUS,RS_UOPS_DISPATCHED,BUS_TRANS_ANY.SELF,"
		 "BUS_DRDY_CLOCKS.ALL_AGENTS,RS_UOPS_DISPATCHED.CYCLES_ANY");
	assert_int_equal(plan_ok(&rs, core, 0), 3);
	assert_int_equal(group_of(&rs, "CPU_CLK_UNHALTED.BUS"),
			 group_of(&rs, "BUS_DRDY_CLOCKS.ALL_AGENTS"));
	assert_int_equal(group_of(&rs, "RS_UOPS_DISPATCHED"),
			 group_of(&rs, "RS_UOPS_DISPATCHED.CYCLES_ANY"));

	/* partners never cost a group: 4 events, 2 groups, whatever pairs */
	requests(&rs, core, "UOPS_RETIRED.ANY,UOPS_RETIRED.FUSED,RS_UOPS_DISPATCHED,"
		 "RS_UOPS_DISPATCHED.CYCLES_ANY");
	assert_int_equal(plan_ok(&rs, core, 0), 2);
	assert_int_equal(group_of(&rs, "UOPS_RETIRED.ANY"), group_of(&rs, "RS_UOPS_DISPATCHED"));
}

/* --counters: 1 generic counter puts each generic event in its own group
 * (FIXED counters stay); a cap above the inventory changes nothing. */
static void test_core2_counter_caps(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "@big4");
	assert_int_equal(plan_ok(&rs, core, 1), 3);
	assert_int_equal(plan.n_generic, 1);
	assert_true(all_fixed_reference(1));
	assert_int_equal(plan_ok(&rs, core, 2), 2);
	assert_int_equal(plan_ok(&rs, core, 8), 2);
	assert_int_equal(plan.n_generic, 2);
	requests(&rs, core, "@first-pass");
	assert_int_equal(plan_ok(&rs, core, 1), 5);
	requests(&rs, core, "@ilp");
	assert_int_equal(plan_ok(&rs, core, 1), 7);
}

/* Software events (page-faults on a Core2 host) use no counter and no room. */
static void test_core2_with_software_events(void **state)
{
	const struct arch_model *core = must_model("core");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "@big4");
	add_row(&rs, core, "page-faults", true);
	add_row(&rs, core, "context-switches", true);
	assert_int_equal(plan_ok(&rs, core, 0), 2);
	assert_int_equal(slot_of(&rs, "page-faults")->kind, PLAN_NO_COUNTER);
	assert_int_equal(plan_ok(&rs, core, 1), 3);
}

/* --- AMD ------------------------------------------------------------------- */

/* Four-event sets are one run (seeds/004 4.3.3.1 "All event data can be
 * collected in a single run"): no room for the reference, not multiplexed,
 * so it is not added; with the reference among them it is shared. */
static void test_amd_four_event_sets_one_group(void **state)
{
	static const char *const models[] = { "amd64_k8", "amd64_fam10h" };
	const struct preset *p;
	struct req_set rs;

	(void)state;
	for (size_t mi = 0; mi < 2; mi++) {
		const struct arch_model *m = must_model(models[mi]);
		int planned = 0;
		for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
			const struct arch_event *rows[PRESET_MAX_EVENTS];
			uint32_t savs[PRESET_MAX_EVENTS];
			char err[256], name[64];
			if (p->tree != TREE_AMD || preset_size(p) > 4 ||
			    preset_resolve(p, m, rows, savs, err, sizeof(err)) < 0)
				continue;
			snprintf(name, sizeof(name), "@%s", p->name);
			requests(&rs, m, name);
			assert_int_equal(plan_ok(&rs, m, 0), 1);
			bool has_clocks = model_lookup(m, "CPU_clocks") == rs.req[0].row;
			assert_int_equal(plan.reference, has_clocks ? 0 : PLAN_ADDED);
			/* the reference is there iff it fits: 4 counters */
			assert_int_equal(plan.groups[0].ref >= 0, has_clocks || rs.n < 4);
			planned++;
		}
		assert_true(planned >= 12);
	}
	requests(&rs, must_model("amd64_fam10h"), "@amd-dc");
	assert_int_equal(plan_ok(&rs, must_model("amd64_fam10h"), 0), 1);
	assert_int_equal(plan.groups[0].ref, -1);
	assert_int_equal(plan.groups[0].n, 4);
}

/* The indirect L2 method: 9 events, 3 per group beside CPU_clocks = 3 runs,
 * the DC and IC refill triples and the page walker pair each together. */
static void test_amd_l2_indirect(void **state)
{
	const struct arch_model *m = must_model("amd64_k8");
	struct req_set rs;

	(void)state;
	requests(&rs, m, "@amd-l2-indirect");
	assert_int_equal(rs.n, 9);
	assert_int_equal(plan_ok(&rs, m, 0), 3);
	assert_true(plan.optimal);
	assert_int_equal(plan.reference, PLAN_ADDED);
	for (int g = 0; g < 3; g++) {
		const struct plan_group *grp = &plan.groups[g];
		assert_int_equal(grp->ref, 0);
		assert_int_equal(grp->slots[0].event, PLAN_ADDED);
		assert_int_equal(grp->slots[0].kind, PLAN_GENERIC);
		assert_int_equal(grp->n, 4);
	}
	assert_int_equal(group_of(&rs, "DC_accesses"), group_of(&rs, "DC_refills_L2"));
	assert_int_equal(group_of(&rs, "DC_accesses"), group_of(&rs, "DC_refills_sys"));
	assert_int_equal(group_of(&rs, "IC_fetches"), group_of(&rs, "IC_refills_L2"));
	assert_int_equal(group_of(&rs, "IC_fetches"), group_of(&rs, "IC_refills_sys"));
	assert_int_equal(group_of(&rs, "L2_requests_TLB"), group_of(&rs, "L2_misses_TLB"));
	assert_int_equal(plan.n_partners, 3);
	for (int s = 0; s < 3; s++)
		assert_true(plan.partners[s].together);
}

/* AMD under caps: the reference takes a generic counter of the smaller PMU. */
static void test_amd_counter_caps(void **state)
{
	const struct arch_model *m = must_model("amd64_fam10h");
	struct req_set rs;

	(void)state;
	requests(&rs, m, "@amd-dc");
	assert_int_equal(plan_ok(&rs, m, 3), 2);
	/* 2 per group: the leading pair of the refill triple stays together */
	assert_int_equal(group_of(&rs, "DC_accesses"), group_of(&rs, "DC_refills_L2"));
	assert_int_not_equal(group_of(&rs, "DC_accesses"), group_of(&rs, "DC_refills_sys"));
	assert_false(plan.partners[0].together);
	assert_int_equal(plan_ok(&rs, m, 2), 4);
	for (int g = 0; g < 4; g++) {
		assert_int_equal(plan.groups[g].n, 2);
		assert_int_equal(plan.groups[g].ref, 0);
	}
	/* a single event still fits one counter, alone */
	requests(&rs, m, "DC_accesses");
	assert_int_equal(plan_ok(&rs, m, 1), 1);
	assert_int_equal(plan.groups[0].ref, -1);
	/* amd-branch, 3 counters: Branches keeps one of its partners */
	requests(&rs, m, "@amd-branch");
	assert_int_equal(plan_ok(&rs, m, 3), 2);
	assert_int_equal(group_of(&rs, "Branches"), group_of(&rs, "Mispred_branches"));
}

/* --- IA-64 ----------------------------------------------------------------- */

static void test_ia64_sets(void **state)
{
	const struct arch_model *m = must_model("ia64");
	struct req_set rs;

	(void)state;
	requests(&rs, m, "@ia64");
	assert_int_equal(rs.n, 7);
	assert_int_equal(plan_ok(&rs, m, 0), 2);
	assert_int_equal(plan.reference, 0);
	requests(&rs, m, "@ia64-detail");
	assert_int_equal(plan_ok(&rs, m, 0), 2);
	assert_int_equal(group_of(&rs, "BE_FLUSH_BUBBLE.XPN"),
			 group_of(&rs, "BE_FLUSH_BUBBLE.BRU"));
	assert_int_equal(group_of(&rs, "BE_EXE_BUBBLE.GRALL"),
			 group_of(&rs, "BE_EXE_BUBBLE.FRALL"));
	assert_int_equal(group_of(&rs, "BE_EXE_BUBBLE.GRALL"), group_of(&rs, "BE_EXE_BUBBLE.GRGR"));
	for (int s = 0; s < plan.n_partners; s++)
		assert_true(plan.partners[s].together);
	assert_int_equal(plan_ok(&rs, m, 2), 5);
}

/* --- software events: the "perf" model (VMs) ------------------------------- */

static void test_software_counter_cap(void **state)
{
	const struct arch_model *m = must_model("perf");
	struct req_set rs;

	(void)state;
	/* cap 1: one event per group, cpu-clock (the user's) in each, shared */
	software(&rs, m, "cpu-clock,task-clock,page-faults,context-switches");
	assert_int_equal(plan_ok(&rs, m, 1), 3);
	assert_int_equal(plan.reference, 0);
	for (int g = 0; g < 3; g++) {
		assert_int_equal(plan.groups[g].n, 2);
		assert_int_equal(plan.groups[g].slots[0].event, 0);
	}
	assert_int_equal(plan_ok(&rs, m, 2), 2);
	assert_int_equal(plan_ok(&rs, m, 3), 1);
	assert_int_equal(plan_ok(&rs, m, 0), 1);
	/* without cpu-clock asked for: added to every group */
	software(&rs, m, "page-faults,context-switches");
	assert_int_equal(plan_ok(&rs, m, 1), 2);
	assert_int_equal(plan.reference, PLAN_ADDED);
	for (int g = 0; g < 2; g++) {
		assert_int_equal(plan.groups[g].n, 2);
		assert_int_equal(plan.groups[g].slots[plan.groups[g].ref].event, PLAN_ADDED);
	}
	/* a single event: one group, the reference added (it takes no room) */
	software(&rs, m, "page-faults");
	assert_int_equal(plan_ok(&rs, m, 1), 1);
	assert_int_equal(plan.groups[0].n, 2);
	/* the generic hardware events of an unknown PMU: capped the same way */
	requests(&rs, m, "cycles,instructions,branches");
	assert_int_equal(plan_ok(&rs, m, 1), 3);
	assert_int_equal(plan_ok(&rs, m, 0), 1);
}

/* --- errors ---------------------------------------------------------------- */

static void test_unplaceable_events(void **state)
{
	const struct arch_model *core = must_model("core");
	const struct arch_model *amd = must_model("amd64_k8");
	struct req_set rs;

	(void)state;
	requests(&rs, core, "RS_UOPS_DISPATCHED,FP_ASSIST");
	plan_fails(&rs, core, 1, (const char *const[]){ "FP_ASSIST", "PMC1", "--counters 1",
							  NULL });
	requests(&rs, amd, "DC_accesses,DC_misses");
	plan_fails(&rs, amd, 1, (const char *const[]){ "DC_accesses", "CPU_clocks",
							 "--counters 1", NULL });
	requests(&rs, amd, "CPU_clocks,Ret_instructions");
	plan_fails(&rs, amd, 1, (const char *const[]){ "Ret_instructions", "CPU_clocks", NULL });
	plan_fails(&rs, amd, -1, (const char *const[]){ "--counters", NULL });
	assert_int_equal(plan_build(amd, rs.req, 0, 0, &plan, (char[64]){ 0 }, 64), -1);
	assert_int_equal(plan_build(amd, rs.req, PLAN_MAX_EVENTS + 1, 0, &plan,
				    (char[64]){ 0 }, 64), -1);
}

static void test_counter_names(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(plan_counter_name(&(struct plan_slot){ 0, PLAN_GENERIC, 1 }, buf,
					      sizeof(buf)), "PMC1");
	assert_string_equal(plan_counter_name(&(struct plan_slot){ 0, PLAN_FIXED, 2 }, buf,
					      sizeof(buf)), "FIXED2");
	assert_string_equal(plan_counter_name(&(struct plan_slot){ 0, PLAN_NO_COUNTER, -1 },
					      buf, sizeof(buf)), "-");
}

/* Every partner-table name is an event of a model of its family. */
static void test_partner_table_resolves(void **state)
{
	const struct plan_partner_def *d;
	const struct arch_model *m;
	size_t rows = 0;

	(void)state;
	for (size_t i = 0; (d = plan_partner_def_at(i)) != NULL; i++, rows++) {
		assert_non_null(d->formula);
		/* the papers, or for the modern models the fact sheet / perf's JSON */
		assert_true(strstr(d->formula, "seeds/") || strstr(d->formula, "MODERN-PMU.md") ||
			    strstr(d->formula, "perf amdzen") || strstr(d->formula, "perf arm64"));
		assert_non_null(d->events[1]);
		for (int k = 0; k < PLAN_MAX_PARTNERS && d->events[k]; k++) {
			bool found = false;
			for (size_t j = 0; (m = model_at(j)) != NULL; j++)
				found |= m->tree == d->tree && model_lookup(m, d->events[k]);
			if (!found)
				fprintf(stderr, "partner %s not in any %s model\n", d->events[k],
					tree_name(d->tree));
			assert_true(found);
		}
	}
	assert_true(rows >= 15);
}

/* --- exactness against brute force ----------------------------------------- *
 * A made-up model (4 generic + 1 fixed counters) with random constraints;
 * the minimal group count found by trying every partition of the events. */

#define SYN_ROWS 8

static struct arch_event syn_rows[SYN_ROWS + 2];
static const struct arch_event *const syn_tables[] = { syn_rows, NULL };
static const struct arch_model syn_model = {
	.name = "synthetic", .pmu_prefix = "synthetic", .desc = "test", .tree = TREE_NONE,
	.n_generic = 4, .n_fixed = 1, .cycles = "REF", .tables = syn_tables,
};
static const char *const syn_names[SYN_ROWS] = { "E0", "E1", "E2", "E3", "E4", "E5", "E6",
	"E7" };

static unsigned syn_allowed(const struct arch_event *row, int cap)
{
	unsigned a = 0;

	for (int k = 0; k < cap; k++)
		if (row->counters == 0 || (row->counters & (1u << k)))
			a |= 1u << k;
	if (row->fixed == 0)
		a |= 1u << 4;
	return a;
}

/* Whether rows MEMBERS (and the reference) can take distinct counters. */
static bool brute_fits(const unsigned *allowed, int n, unsigned used)
{
	if (n == 0)
		return true;
	for (int c = 0; c < 5; c++)
		if ((allowed[0] & (1u << c)) && !(used & (1u << c)) &&
		    brute_fits(allowed + 1, n - 1, used | (1u << c)))
			return true;
	return false;
}

static bool block_fits(const struct req_set *rs, const int *label, int n, int block,
		       bool with_ref, int cap)
{
	unsigned allowed[SYN_ROWS + 1];
	int k = 0;

	if (with_ref)
		allowed[k++] = syn_allowed(&syn_rows[SYN_ROWS], cap);
	for (int i = 0; i < n; i++)
		if (label[i] == block && rs->req[i].row != &syn_rows[SYN_ROWS])
			allowed[k++] = syn_allowed(rs->req[i].row, cap);
	return brute_fits(allowed, k, 0);
}

/* Minimal groups over all set partitions (restricted growth strings). */
static int brute_min_groups(const struct req_set *rs, int cap, bool ref_asked)
{
	int n = rs->n, label[SYN_ROWS], best = -1, all_one[SYN_ROWS] = { 0 };

	if (block_fits(rs, all_one, n, 0, true, cap) ||
	    (!ref_asked && block_fits(rs, all_one, n, 0, false, cap)))
		return 1;
	memset(label, 0, sizeof(label));
	for (;;) {
		int blocks = 0;
		for (int i = 0; i < n; i++)
			blocks = label[i] + 1 > blocks ? label[i] + 1 : blocks;
		bool ok = best < 0 || blocks < best;
		for (int b = 0; ok && b < blocks; b++)
			ok = block_fits(rs, label, n, b, true, cap);
		if (ok)
			best = blocks;
		/* next restricted growth string */
		int i = n - 1;
		for (; i > 0; i--) {
			int max = 0;
			for (int j = 0; j < i; j++)
				max = label[j] > max ? label[j] : max;
			if (label[i] <= max) {
				label[i]++;
				break;
			}
			label[i] = 0;
		}
		if (i == 0)
			return best;
	}
}

static void random_instance(struct req_set *rs, unsigned *seed, bool *ref_asked)
{
	static const uint8_t masks[] = { 0, 0, 0x1, 0x2, 0x3, 0x4, 0x8, 0xc, 0x6, 0x9 };

	for (int r = 0; r <= SYN_ROWS; r++) {
		syn_rows[r].name = r < SYN_ROWS ? syn_names[r] : "REF";
		syn_rows[r].counters = masks[rand_r(seed) % sizeof(masks)];
		syn_rows[r].fixed = (int8_t)(rand_r(seed) % 4 == 0 ? 0 : -1);
	}
	memset(&syn_rows[SYN_ROWS + 1], 0, sizeof(syn_rows[0]));
	memset(rs, 0, sizeof(*rs));
	rs->n = 2 + rand_r(seed) % (SYN_ROWS - 1);
	for (int i = 0; i < rs->n; i++) {
		rs->req[i].row = &syn_rows[i];
		rs->req[i].name = syn_rows[i].name;
	}
	*ref_asked = rand_r(seed) % 3 == 0;
	if (*ref_asked) {
		rs->req[rs->n - 1].row = &syn_rows[SYN_ROWS];
		rs->req[rs->n - 1].name = "REF";
	}
}

static void test_minimal_against_brute_force(void **state)
{
	unsigned seed = 12345;
	int planned = 0, refused = 0, several = 0;
	struct req_set rs;
	bool ref_asked;

	(void)state;
	for (int t = 0; t < 3000; t++) {
		random_instance(&rs, &seed, &ref_asked);
		int cap = rand_r(&seed) % 5;
		int want = brute_min_groups(&rs, cap ? cap : 4, ref_asked);
		char err[256];
		int got = plan_build(&syn_model, rs.req, rs.n, cap, &plan, err, sizeof(err));
		if (got != want)
			fprintf(stderr, "instance %d: planner %d groups, brute force %d (%s)\n", t,
				got, want, got < 0 ? err : "");
		assert_int_equal(got, want);
		if (got < 0) {
			/* the culprit is named: an event or the reference */
			assert_true(strstr(err, "'E") || strstr(err, "REF"));
			assert_null(strchr(err, '\n'));
			refused++;
			continue;
		}
		validate(&rs, &syn_model, cap);
		assert_true(plan.optimal);
		assert_int_equal(plan.reference, ref_asked ? rs.n - 1 : PLAN_ADDED);
		planned++;
		several += got > 1;
	}
	assert_true(planned > 1500 && refused > 1000 && several > 700);
}


/* Arm: 6 event counters and the cycle counter, which takes CPU_CYCLES only
 * (arch/model-arm.c).  Every Arm preset is one group with CPU_CYCLES on the
 * cycle counter; a seventh generic event makes two groups. */
static void test_arm_presets_one_group(void **state)
{
	static const char *const models[] = { "arm_n1", "arm_n2", "arm_v1", "arm_v2",
		"arm_ac57", "arm_ac72", "arm_ac76" };
	const struct preset *p;
	struct req_set rs;
	char name[64], buf[32];

	(void)state;
	for (size_t mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++) {
		const struct arch_model *m = must_model(models[mi]);
		int planned = 0;
		for (size_t i = 0; (p = preset_at(i)) != NULL; i++) {
			if (!preset_for_model(p, m) || p->tree == TREE_SW)
				continue;
			snprintf(name, sizeof(name), "@%s", p->name);
			requests(&rs, m, name);
			assert_int_equal(plan_ok(&rs, m, 0), 1);
			assert_int_equal(plan.reference, 0);  /* CPU_CYCLES is the preset's */
			const struct plan_group *g = &plan.groups[0];
			assert_string_equal(plan_counter_name(&g->slots[g->ref], buf, sizeof(buf)),
					    "FIXED0");
			planned++;
		}
		assert_true(planned >= 1);
	}
	/* 7 event-counter events beside the cycles: two groups on N2 */
	const struct arch_model *n2 = must_model("arm_n2");
	requests(&rs, n2, "CPU_CYCLES,OP_RETIRED,OP_SPEC,STALL_FRONTEND,STALL_BACKEND,"
		 "STALL_BACKEND_MEM,STALL_SLOT,BR_MIS_PRED");
	assert_int_equal(plan_ok(&rs, n2, 0), 2);
	/* only CPU_CYCLES may use the cycle counter */
	requests(&rs, n2, "INST_RETIRED,OP_RETIRED,OP_SPEC,STALL_FRONTEND,STALL_BACKEND,"
		 "STALL_BACKEND_MEM,STALL_SLOT");
	assert_int_equal(plan_ok(&rs, n2, 0), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core2_big4_two_groups),
		cmocka_unit_test(test_core2_first_pass),
		cmocka_unit_test(test_core2_ilp_sweep),
		cmocka_unit_test(test_arm_threshold_sweep),
		cmocka_unit_test(test_core2_counter0_only_separated),
		cmocka_unit_test(test_core2_partners_together),
		cmocka_unit_test(test_core2_counter_caps),
		cmocka_unit_test(test_core2_with_software_events),
		cmocka_unit_test(test_amd_four_event_sets_one_group),
		cmocka_unit_test(test_amd_l2_indirect),
		cmocka_unit_test(test_amd_counter_caps),
		cmocka_unit_test(test_ia64_sets),
		cmocka_unit_test(test_software_counter_cap),
		cmocka_unit_test(test_unplaceable_events),
		cmocka_unit_test(test_counter_names),
		cmocka_unit_test(test_partner_table_resolves),
		cmocka_unit_test(test_minimal_against_brute_force),
		cmocka_unit_test(test_arm_presets_one_group),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

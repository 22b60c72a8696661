/* Tests of engine/annotate.c: a hand-made Core2 profile of hand-assembled
 * code, with exact stall and penalty cycles, block marks and loop figures. */
#include "engine/annotate.h"

#include <elf.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/pfm.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

#define START 0x401000u
#define NI 7   /* instructions of code[] */

/* Block A is a loop; block B returns. */
static const uint8_t code[] = {
	0x8b, 0x07,             /* 00 mov eax, [rdi]       A, loop head */
	0x8b, 0x4f, 0x04,       /* 02 mov ecx, [rdi + 4]   A */
	0x48, 0x83, 0xc7, 0x08, /* 05 add rdi, 8           A */
	0x75, 0xf5,             /* 09 jne 0x00             A, loop tail */
	0x8b, 0x16,             /* 0b mov edx, [rsi]       B */
	0x8b, 0x46, 0x08,       /* 0d mov eax, [rsi + 8]   B */
	0xc3,                   /* 10 ret                  B */
};

#define CORE_EVENTS "RS_UOPS_DISPATCHED.CYCLES_NONE/100,MEM_LOAD_RETIRED.L2_LINE_MISS/10," \
		    "INST_RETIRED.ANY_P/1000"
enum { STALL, L2, INST };

/* Samples per address: stall cycles only in block A, L2 misses in both,
 * retired instructions over the loop, and one address mid-instruction. */
static const uint64_t core_rows[][4] = {
	/* ip          stall  l2  inst */
	{ START + 0x00, 30, 20, 100 },
	{ START + 0x02, 90, 5, 200 },
	{ START + 0x03, 1, 1, 1 },      /* inside mov ecx, [rdi + 4] */
	{ START + 0x05, 0, 0, 300 },
	{ START + 0x09, 0, 0, 400 },
	{ START + 0x0b, 0, 8, 0 },
	{ START + 0x0d, 0, 2, 0 },
};

struct fixture {
	struct asm_func *fn;
	struct ev_list evs;
	struct ip_counts *ipc;
};

/* An ip_counts in one allocation, as profile_ip_counts makes them: ROWS
 * hold the address then N_EVENTS counts. */
static struct ip_counts *make_ipc(const uint64_t *rows, size_t n, int n_events)
{
	size_t ne = (size_t)n_events;
	struct ip_counts *c = malloc(sizeof(*c) + n * sizeof(struct snap_ip) +
				     n * ne * sizeof(uint64_t));
	uint64_t *counts;

	assert_non_null(c);
	c->n_events = n_events;
	c->n = n;
	c->ips = (struct snap_ip *)(c + 1);
	counts = (uint64_t *)(c->ips + n);
	for (size_t k = 0; k < n; k++) {
		c->ips[k].ip = rows[k * (ne + 1)];
		c->ips[k].samples = counts + k * ne;
		c->ips[k].hits = NULL;  /* each sample counts once */
		memcpy(c->ips[k].samples, &rows[k * (ne + 1) + 1], ne * sizeof(uint64_t));
	}
	return c;
}

static void parse_events(const char *force, const char *model, const char *list,
			 struct ev_list *evs)
{
	char err[256] = "";

	if (pfm_setup(pfmh, force, err, sizeof(err)) != 0)
		fail_msg("pfm_setup(%s): %s", force ? force : "NULL", err);
	if (events_parse(list, model_find(model), pfmh, evs, err, sizeof(err)) != 0)
		fail_msg("events_parse(%s): %s", list, err);
}

static int setup_core(void **state)
{
	static struct fixture fx;

	memset(&fx, 0, sizeof(fx));
	parse_events("core", "core", CORE_EVENTS, &fx.evs);
	fx.fn = disasm_bytes(EM_X86_64, code, sizeof(code), START, 0, NULL, NULL);
	fx.ipc = make_ipc(&core_rows[0][0], sizeof(core_rows) / sizeof(core_rows[0]), 3);
	*state = &fx;
	return fx.fn ? 0 : -1;
}

static void teardown_fx(struct fixture *fx)
{
	asm_func_free(fx->fn);
	free(fx->ipc);
}

static int teardown(void **state)
{
	teardown_fx(*state);
	return 0;
}

static struct annotation *annotate(struct fixture *fx, const uint64_t *totals,
				   const char *stall, const struct penalties *pen)
{
	struct annot_opts o = { .stall_event = stall, .pen = pen };
	struct annotation *a = annotation_new(fx->fn, fx->ipc, totals, &fx->evs, &o);

	assert_non_null(a);
	assert_ptr_equal(a->fn, fx->fn);
	assert_int_equal(a->n_events, fx->evs.n);
	return a;
}

static void check_doubles(const double *got, const double *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!(got[i] == want[i]))
			fail_msg("[%zu]: %g, want %g", i, got[i], want[i]);
}

static void check_marks(const struct annotation *a, const enum flow_mark *want)
{
	for (size_t i = 0; i < NI; i++) {
		enum flow_mark m = annotation_mark(a, i);
		if (m != want[i])
			fail_msg("mark of %zu: %s, want %s", i, flow_mark_name(m),
				 flow_mark_name(want[i]));
	}
}

/* ---- the fixture itself ------------------------------------------------ */

static void test_fixture(void **state)
{
	struct fixture *fx = *state;
	const struct flow *f = &fx->fn->flow;

	assert_int_equal(fx->evs.n, 3);
	assert_string_equal(fx->evs.model->name, "core");
	assert_int_equal(fx->evs.ev[STALL].sav, 100);
	assert_int_equal(fx->evs.ev[L2].sav, 10);
	assert_int_equal(fx->evs.ev[INST].sav, 1000);
	assert_int_equal(fx->fn->n, NI);
	assert_int_equal(f->n_blocks, 2);
	assert_int_equal(f->blocks[0].last, 3);
	assert_int_equal(f->blocks[1].first, 4);
	assert_int_equal(f->n_loops, 1);
	assert_int_equal(f->loops[0].head, 0);
	assert_int_equal(f->loops[0].tail, 3);
	assert_int_equal(f->loops[0].load_bytes, 8);
}

/* ---- columns ----------------------------------------------------------- */

static void test_event_index(void **state)
{
	struct fixture *fx = *state;

	assert_int_equal(annot_event_index(&fx->evs, "RS_UOPS_DISPATCHED.CYCLES_NONE"), STALL);
	assert_int_equal(annot_event_index(&fx->evs, "rs_uops_dispatched.cycles_none"), STALL);
	assert_int_equal(annot_event_index(&fx->evs, "RS_UOPS_DISPATCH.CYCLES_NONE"), STALL);
	assert_int_equal(annot_event_index(&fx->evs, "MEM_LOAD_RETIRED.L2_LINE_MISS"), L2);
	assert_int_equal(annot_event_index(&fx->evs, "MEM_LOAD_RETIRED:L2_LINE_MISS"), L2);
	assert_int_equal(annot_event_index(&fx->evs, "INST_RETIRED.ANY"), INST);
	assert_int_equal(annot_event_index(&fx->evs, "INST_RETIRED:ANY_P"), INST);
	assert_int_equal(annot_event_index(&fx->evs, "BUS_TRANS_BURST.SELF"), -1);
	assert_int_equal(annot_event_index(&fx->evs, "no-such-event"), -1);
	assert_int_equal(annot_event_index(&fx->evs, NULL), -1);
}

static void test_columns(void **state)
{
	struct annotation *a = annotate(*state, NULL, NULL, NULL);

	assert_int_equal(a->stall_ev, STALL);
	assert_int_equal(a->inst_ev, INST);
	assert_int_equal(a->bus_ev, -1);
	assert_int_equal(a->sav[STALL], 100);
	assert_int_equal(a->sav[L2], 10);
	assert_int_equal(a->sav[INST], 1000);
	assert_true(a->penalty[STALL] == 0);
	assert_true(a->penalty[L2] == 165);
	assert_true(a->penalty[INST] == 0);
	assert_true(a->has_penalties);
	annotation_free(a);
}

static void test_server_penalties(void **state)
{
	struct penalties server;
	struct annotation *a;

	penalties_default(&server, 1);
	a = annotate(*state, NULL, NULL, &server);
	assert_true(a->penalty[L2] == 300);
	assert_true(a->penalty[STALL] == 0);
	annotation_free(a);
}

/* ---- samples ----------------------------------------------------------- */

static void test_samples(void **state)
{
	static const uint64_t want[NI][3] = {
		{ 30, 20, 100 }, { 90, 5, 200 }, { 0, 0, 300 }, { 0, 0, 400 },
		{ 0, 8, 0 }, { 0, 2, 0 }, { 0, 0, 0 },
	};
	static const uint64_t totals[3] = { 500, 70, 4000 };
	struct annotation *a = annotate(*state, totals, NULL, NULL);

	for (size_t i = 0; i < NI; i++)
		for (int e = 0; e < 3; e++)
			assert_int_equal(annotation_samples(a, i, e), want[i][e]);
	assert_int_equal(a->func_samples[STALL], 120);
	assert_int_equal(a->func_samples[L2], 35);
	assert_int_equal(a->func_samples[INST], 1000);
	assert_int_equal(a->outside, 3);  /* the mid-instruction address */
	assert_int_equal(a->total_samples[STALL], 500);
	assert_int_equal(a->total_samples[L2], 70);
	assert_int_equal(a->total_samples[INST], 4000);
	assert_int_equal(a->hottest, 1);  /* most stall samples */
	annotation_free(a);

	a = annotate(*state, NULL, NULL, NULL);
	assert_int_equal(a->total_samples[STALL], 120);
	assert_int_equal(a->total_samples[L2], 35);
	assert_int_equal(a->total_samples[INST], 1000);
	annotation_free(a);
}

/* ---- cycles and marks -------------------------------------------------- */

static void test_desktop_cycles(void **state)
{
	/* L2 misses x SAV 10 x 165; stall samples x SAV 100. */
	static const double stall[NI] = { 3000, 9000, 0, 0, 0, 0, 0 };
	static const double pen[NI] = { 33000, 8250, 0, 0, 13200, 3300, 0 };
	static const enum flow_mark marks[NI] = {
		MARK_STALLED, MARK_STALLED, MARK_NONE, MARK_NONE, MARK_HIDDEN, MARK_HIDDEN,
		MARK_NONE,
	};
	struct annotation *a = annotate(*state, NULL, NULL, NULL);

	check_doubles(a->stall_cycles, stall, NI);
	check_doubles(a->penalty_cycles, pen, NI);
	assert_true(a->func_penalty == 57750);
	/* A: 41250 penalty cycles with 12000 stalls (>= a quarter: 10312.5);
	 * B: 16500 without any. */
	assert_int_equal(a->block_mark[0], MARK_STALLED);
	assert_int_equal(a->block_mark[1], MARK_HIDDEN);
	check_marks(a, marks);
	assert_int_equal(annotation_mark(a, NI), MARK_NONE);
	annotation_free(a);
}

static void test_server_cycles(void **state)
{
	/* At 300 cycles per miss block A's 12000 stalls fall below a quarter
	 * of its 75000 penalty cycles: hidden too. */
	static const double pen[NI] = { 60000, 15000, 0, 0, 24000, 6000, 0 };
	static const enum flow_mark marks[NI] = {
		MARK_HIDDEN, MARK_HIDDEN, MARK_NONE, MARK_NONE, MARK_HIDDEN, MARK_HIDDEN,
		MARK_NONE,
	};
	struct penalties server;
	struct annotation *a;

	penalties_default(&server, 1);
	a = annotate(*state, NULL, NULL, &server);
	check_doubles(a->penalty_cycles, pen, NI);
	assert_true(a->func_penalty == 105000);
	assert_int_equal(a->block_mark[0], MARK_HIDDEN);
	assert_int_equal(a->block_mark[1], MARK_HIDDEN);
	check_marks(a, marks);
	annotation_free(a);
}

static void test_stall_override(void **state)
{
	/* The user's stall reference, by any alias: retired instructions. */
	static const double stall[NI] = { 100000, 200000, 300000, 400000, 0, 0, 0 };
	const char *names[] = { "INST_RETIRED.ANY_P", "INST_RETIRED:ANY_P", "INST_RETIRED.ANY" };

	for (size_t k = 0; k < 3; k++) {
		struct annotation *a = annotate(*state, NULL, names[k], NULL);
		assert_int_equal(a->stall_ev, INST);
		check_doubles(a->stall_cycles, stall, NI);
		assert_true(a->penalty[L2] == 165);
		assert_true(a->penalty[STALL] == 0);
		assert_int_equal(a->block_mark[0], MARK_STALLED);
		assert_int_equal(a->block_mark[1], MARK_HIDDEN);
		annotation_free(a);
	}
}

static void test_stall_override_unweighs(void **state)
{
	/* The stall column is never weighted: L2 misses as stall reference
	 * leave no penalty cycles at all. */
	struct annotation *a = annotate(*state, NULL, "MEM_LOAD_RETIRED.L2_LINE_MISS", NULL);

	assert_int_equal(a->stall_ev, L2);
	assert_true(a->penalty[L2] == 0);
	assert_false(a->has_penalties);
	assert_true(a->func_penalty == 0);
	assert_true(a->stall_cycles[0] == 200);
	assert_int_equal(a->block_mark[0], MARK_NONE);
	assert_int_equal(a->block_mark[1], MARK_NONE);
	for (size_t i = 0; i < NI; i++)
		assert_int_equal(annotation_mark(a, i), MARK_NONE);
	annotation_free(a);
}

static void test_unknown_stall_override(void **state)
{
	struct annotation *a = annotate(*state, NULL, "no-such-event", NULL);

	assert_int_equal(a->stall_ev, -1);
	assert_true(a->penalty[STALL] == 0);  /* RS_UOPS has no penalty anyway */
	assert_true(a->penalty[L2] == 165);
	assert_true(a->stall_cycles[1] == 0);
	assert_int_equal(a->block_mark[0], MARK_NONE);
	assert_int_equal(a->block_mark[1], MARK_NONE);
	annotation_free(a);
}

/* ---- loops ------------------------------------------------------------- */

static void test_loop_iterations(void **state)
{
	/* (100 + 200 + 300 + 400) samples x 1000 retired over 4 instructions. */
	struct annotation *a = annotate(*state, NULL, NULL, NULL);

	assert_true(a->loop_iters[0] == 250000);
	assert_true(isnan(a->loop_bus_eff[0]));  /* no bus event */
	annotation_free(a);
}

static void test_bus_efficiency(void **state)
{
	/* 50 samples x SAV 1000 = 50000 lines over the loop (3.2e6 bytes) for
	 * 8 bytes x 250000 iterations; bus lines after the loop do not count. */
	static const uint64_t rows[][5] = {
		{ START + 0x00, 0, 0, 400, 50 },
		{ START + 0x09, 0, 0, 600, 0 },
		{ START + 0x0b, 0, 0, 0, 7 },
	};
	struct fixture fx = { 0 };
	struct annotation *a;

	parse_events("core", "core", CORE_EVENTS ",BUS_TRANS_BURST.SELF/1000", &fx.evs);
	fx.fn = disasm_bytes(EM_X86_64, code, sizeof(code), START, 0, NULL, NULL);
	assert_non_null(fx.fn);
	fx.ipc = make_ipc(&rows[0][0], 3, 4);
	a = annotate(&fx, NULL, NULL, NULL);
	assert_int_equal(a->bus_ev, 3);
	assert_true(a->penalty[3] == 0);
	assert_true(a->loop_iters[0] == 250000);
	assert_true(a->loop_bus_eff[0] == 0.625);
	annotation_free(a);
	teardown(&(void *){ &fx });
}

/* ---- navigation -------------------------------------------------------- */

static void test_next_hot(void **state)
{
	struct annotation *a = annotate(*state, NULL, NULL, NULL);

	/* L2 misses 20, 5, 8, 2 of 35 at 0, 1, 4, 5: 10% is 3.5. */
	assert_int_equal(annotation_next_hot(a, -1, L2, 0.1), 0);
	assert_int_equal(annotation_next_hot(a, 0, L2, 0.1), 1);
	assert_int_equal(annotation_next_hot(a, 1, L2, 0.1), 4);
	assert_int_equal(annotation_next_hot(a, 4, L2, 0.1), 0);  /* wraps */
	assert_int_equal(annotation_next_hot(a, 6, L2, 0.1), 0);
	assert_int_equal(annotation_next_hot(a, 0, L2, 0), 1);
	assert_int_equal(annotation_next_hot(a, 4, L2, 0), 5);
	/* Only instruction 0 reaches half: from itself, back to itself. */
	assert_int_equal(annotation_next_hot(a, 0, L2, 0.5), 0);
	assert_int_equal(annotation_next_hot(a, 3, L2, 0.5), 0);
	assert_int_equal(annotation_next_hot(a, 0, L2, 0.6), -1);
	/* Stall samples: 30 and 90 of 120. */
	assert_int_equal(annotation_next_hot(a, 1, STALL, 0.25), 0);
	assert_int_equal(annotation_next_hot(a, 0, STALL, 0.26), 1);
	/* Columns that do not exist. */
	assert_int_equal(annotation_next_hot(a, 0, -1, 0.1), -1);
	assert_int_equal(annotation_next_hot(a, 0, 3, 0.1), -1);
	assert_int_equal(annotation_next_hot(a, 0, EVENTS_MAX, 0.1), -1);
	annotation_free(a);
}

static void test_no_samples(void **state)
{
	struct fixture *fx = *state;
	struct annot_opts o = { 0 };
	struct annotation *a = annotation_new(fx->fn, NULL, NULL, &fx->evs, &o);

	assert_non_null(a);
	assert_int_equal(a->hottest, -1);
	assert_int_equal(a->outside, 0);
	assert_int_equal(a->func_samples[L2], 0);
	assert_true(a->func_penalty == 0);
	assert_int_equal(a->block_mark[0], MARK_NONE);
	assert_int_equal(a->block_mark[1], MARK_NONE);
	assert_true(a->loop_iters[0] == 0);
	assert_int_equal(annotation_next_hot(a, 0, L2, 0.1), -1);
	annotation_free(a);
	/* No options at all: the model's stall event. */
	a = annotation_new(fx->fn, fx->ipc, NULL, &fx->evs, NULL);
	assert_non_null(a);
	assert_int_equal(a->stall_ev, STALL);
	assert_true(a->penalty[L2] == 165);
	annotation_free(a);
}

/* ---- software events --------------------------------------------------- */

static int setup_soft(void **state)
{
	static struct fixture fx;
	static const uint64_t rows[][3] = {
		{ START + 0x00, 5, 1 },
		{ START + 0x02, 7, 0 },
		{ START + 0x0b, 2, 3 },
	};

	memset(&fx, 0, sizeof(fx));
	parse_events(NULL, "perf", "cpu-clock,page-faults", &fx.evs);
	fx.fn = disasm_bytes(EM_X86_64, code, sizeof(code), START, 0, NULL, NULL);
	fx.ipc = make_ipc(&rows[0][0], 3, 2);
	*state = &fx;
	return fx.fn ? 0 : -1;
}

static void test_software(void **state)
{
	struct fixture *fx = *state;
	struct annotation *a = annotate(fx, NULL, NULL, NULL);

	assert_int_equal(fx->evs.n, 2);
	assert_int_equal(a->stall_ev, -1);
	assert_int_equal(a->inst_ev, -1);
	assert_int_equal(a->bus_ev, -1);
	assert_false(a->has_penalties);
	assert_true(a->penalty[0] == 0 && a->penalty[1] == 0);
	assert_true(a->func_penalty == 0);
	for (size_t i = 0; i < NI; i++) {
		assert_true(a->stall_cycles[i] == 0);
		assert_int_equal(annotation_mark(a, i), MARK_NONE);
	}
	assert_int_equal(a->block_mark[0], MARK_NONE);
	assert_true(isnan(a->loop_iters[0]));
	assert_true(isnan(a->loop_bus_eff[0]));
	assert_int_equal(a->func_samples[0], 14);
	assert_int_equal(a->func_samples[1], 4);
	assert_int_equal(a->hottest, 1);
	annotation_free(a);
}

static void test_software_stall_override(void **state)
{
	/* cpu-clock samples x SAV (250 us in ns: perf's 4 kHz) as stall
	 * cycles; still no penalties to set against them. */
	struct fixture *fx = *state;
	struct annotation *a = annotate(fx, NULL, "cpu-clock", NULL);

	assert_int_equal(a->stall_ev, 0);
	assert_int_equal(a->sav[0], 250000);
	assert_true(a->stall_cycles[0] == 5 * 250000.0);
	assert_true(a->stall_cycles[1] == 7 * 250000.0);
	assert_true(a->stall_cycles[4] == 2 * 250000.0);
	assert_false(a->has_penalties);
	assert_int_equal(a->block_mark[0], MARK_NONE);
	assert_int_equal(a->block_mark[1], MARK_NONE);
	annotation_free(a);
}

/* Multiplexed: the stall event counted a quarter of the time, the L2 misses
 * all of it.  Estimated stall cycles are four times the sampled ones, which
 * turns block A's marginal stalls (12000 raw) into clear ones. */
static void test_coverage_scaling(void **state)
{
	struct fixture *fx = *state;
	static const double stall[NI] = { 12000, 36000, 0, 0, 0, 0, 0 };
	double coverage[EVENTS_MAX] = { 0.25, 1, 1 };
	struct annot_opts o = { .coverage = coverage };
	struct annotation *a = annotation_new(fx->fn, fx->ipc, NULL, &fx->evs, &o);

	assert_non_null(a);
	check_doubles(a->stall_cycles, stall, NI);
	assert_true(a->per_sample[0] == 400);
	assert_true(a->per_sample[1] == 10);
	assert_true(a->func_penalty == 57750);
	assert_int_equal(a->block_mark[0], MARK_STALLED);
	assert_int_equal(a->block_mark[1], MARK_HIDDEN);
	annotation_free(a);
}

/* The modern models: the stall column defaults to the model's stall event,
 * and Nehalem weighs its loads by source with its own penalties (arch/
 * model-intel.c nhm_penalties), not with the Core2 paper's. */
static struct annotation *annotate_on(const char *model, const char *list, struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	parse_events(model, model, list, &fx->evs);
	fx->fn = disasm_bytes(EM_X86_64, code, sizeof(code), START, 0, NULL, NULL);
	assert_non_null(fx->fn);
	fx->ipc = make_ipc(&core_rows[0][0], sizeof(core_rows) / sizeof(core_rows[0]), 3);
	return annotate(fx, NULL, NULL, NULL);
}

static void test_modern_models(void **state)
{
	struct fixture fx;
	struct annotation *a;

	(void)state;
	a = annotate_on("nhm", "UOPS_EXECUTED.CORE_STALL_CYCLES/100,MEM_LOAD_RETIRED.LLC_MISS/10,"
			"MEM_LOAD_RETIRED.L2_HIT/1000", &fx);
	assert_int_equal(a->stall_ev, 0);
	assert_true(a->penalty[1] == 180);   /* LLC miss: local DRAM */
	assert_true(a->penalty[2] == 10);    /* L2 hit */
	assert_true(a->has_penalties);
	annotation_free(a);
	teardown_fx(&fx);

	a = annotate_on("skl", "CYCLE_ACTIVITY.STALLS_TOTAL/100,MEM_LOAD_RETIRED.L3_MISS/10,"
			"INST_RETIRED.ANY/1000", &fx);
	assert_int_equal(a->stall_ev, 0);    /* the model's stall event */
	assert_int_equal(a->inst_ev, 2);
	assert_true(a->penalty[1] == 0);     /* direct stall cycles: no penalties */
	assert_false(a->has_penalties);
	annotation_free(a);
	teardown_fx(&fx);

	/* Zen: the no-retire cycles, by perf's spelling */
	a = annotate_on("amd64_fam19h_zen4", "ex_ret_ops:c=1:i=1/100,ex_ret_instr/10,"
			"ls_not_halted_cyc/1000", &fx);
	assert_int_equal(a->stall_ev, 0);
	assert_int_equal(a->inst_ev, 1);
	annotation_free(a);
	teardown_fx(&fx);
}

int main(void)
{
	pfmh = pfm_host_new();
	const struct CMUnitTest core[] = {
		cmocka_unit_test(test_modern_models),
		cmocka_unit_test(test_fixture),
		cmocka_unit_test(test_event_index),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_server_penalties),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_desktop_cycles),
		cmocka_unit_test(test_coverage_scaling),
		cmocka_unit_test(test_server_cycles),
		cmocka_unit_test(test_stall_override),
		cmocka_unit_test(test_stall_override_unweighs),
		cmocka_unit_test(test_unknown_stall_override),
		cmocka_unit_test(test_loop_iterations),
		cmocka_unit_test(test_next_hot),
		cmocka_unit_test(test_no_samples),
	};
	const struct CMUnitTest bus[] = {
		cmocka_unit_test(test_bus_efficiency),
	};
	const struct CMUnitTest soft[] = {
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_software_stall_override),
	};
	int failed = 0;

	failed += cmocka_run_group_tests_name("core", core, setup_core, teardown);
	failed += cmocka_run_group_tests_name("bus", bus, NULL, NULL);
	failed += cmocka_run_group_tests_name("software", soft, setup_soft, teardown);
	return failed;
}

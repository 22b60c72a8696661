/* Tests of arch/flow.c: basic blocks, loops, the per-loop estimates and the
 * penalty/stall classification, on hand-built instruction arrays. */
#include "arch/flow.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* One instruction: address, size, kind, target, bytes loaded and stored. */
#define I(a, s, k, t) { .addr = (a), .size = (s), .kind = (k), .target = (t) }
#define M(a, s, ld, st) { .addr = (a), .size = (s), .kind = FLOW_PLAIN, \
			  .load_bytes = (ld), .store_bytes = (st) }

static void build(const struct flow_insn *insn, size_t n, struct flow *f)
{
	assert_int_equal(flow_build(insn, n, f), 0);
	assert_int_equal(f->n_insns, n);
}

static void check_block(const struct flow *f, size_t b, size_t first, size_t last, int loop)
{
	assert_true(b < f->n_blocks);
	assert_int_equal(f->blocks[b].first, first);
	assert_int_equal(f->blocks[b].last, last);
	assert_int_equal(f->blocks[b].loop, loop);
	for (size_t i = first; i <= last; i++)
		assert_int_equal(f->block_of[i], b);
}

static void check_loop(const struct flow *f, size_t k, size_t head, size_t tail, int parent,
		       int depth)
{
	assert_true(k < f->n_loops);
	assert_int_equal(f->loops[k].head, head);
	assert_int_equal(f->loops[k].tail, tail);
	assert_int_equal(f->loops[k].parent, parent);
	assert_int_equal(f->loops[k].depth, depth);
	assert_int_equal(f->loops[k].n_insns, tail - head + 1);
}

/* The instructions that are back-edges, as a bit mask. */
static unsigned back_edges(const struct flow *f)
{
	unsigned mask = 0;

	for (size_t i = 0; i < f->n_insns; i++)
		if (flow_is_back_edge(f, i))
			mask |= 1u << i;
	return mask;
}

/* ---- blocks --------------------------------------------------------- */

static void test_straight_line(void **state)
{
	/* A call does not end a block, even to an address of the function. */
	static const struct flow_insn in[] = {
		M(0x100, 1, 0, 8),           /* push rbp */
		M(0x101, 3, 0, 0),           /* mov rbp,rsp */
		I(0x104, 5, FLOW_CALL, 0x101),
		M(0x109, 2, 4, 0),           /* mov eax,[rdi] */
		I(0x10b, 1, FLOW_PLAIN, 0),
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 1);
	check_block(&f, 0, 0, 4, -1);
	assert_int_equal(f.n_loops, 0);
	assert_int_equal(back_edges(&f), 0);
	flow_free(&f);
	assert_null(f.blocks);
	assert_int_equal(f.n_blocks, 0);
}

static void test_diamond(void **state)
{
	static const struct flow_insn in[] = {
		I(0x100, 3, FLOW_PLAIN, 0),          /* 0 cmp */
		I(0x103, 2, FLOW_CJUMP, 0x10a),      /* 1 jne else */
		I(0x105, 3, FLOW_PLAIN, 0),          /* 2 then */
		I(0x108, 2, FLOW_JUMP, 0x111),       /* 3 jmp join */
		I(0x10a, 5, FLOW_CALL, 0x10f),       /* 4 else: call into the block */
		I(0x10f, 2, FLOW_PLAIN, 0),          /* 5 */
		I(0x111, 3, FLOW_PLAIN, 0),          /* 6 join */
		I(0x114, 1, FLOW_RET, 0),            /* 7 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 4);
	check_block(&f, 0, 0, 1, -1);
	check_block(&f, 1, 2, 3, -1);
	check_block(&f, 2, 4, 5, -1);
	check_block(&f, 3, 6, 7, -1);
	assert_int_equal(f.n_loops, 0);
	assert_int_equal(back_edges(&f), 0);
	flow_free(&f);
}

static void test_ijump_ret_end_blocks(void **state)
{
	/* An indirect jump's target field is not followed, even if set. */
	static const struct flow_insn in[] = {
		I(0x200, 2, FLOW_PLAIN, 0),
		I(0x202, 2, FLOW_IJUMP, 0x205),      /* jmp rax */
		I(0x204, 1, FLOW_PLAIN, 0),
		I(0x205, 1, FLOW_PLAIN, 0),
		I(0x206, 1, FLOW_RET, 0),
		I(0x207, 1, FLOW_PLAIN, 0),
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 3);
	check_block(&f, 0, 0, 1, -1);
	check_block(&f, 1, 2, 4, -1);
	check_block(&f, 2, 5, 5, -1);
	assert_int_equal(f.n_loops, 0);
	flow_free(&f);
}

static void test_bad_bytes(void **state)
{
	/* Undecoded bytes neither end blocks nor are branches. */
	static const struct flow_insn in[] = {
		I(0x300, 1, FLOW_PLAIN, 0),
		I(0x301, 1, FLOW_BAD, 0x300),
		I(0x302, 1, FLOW_BAD, 0),
		I(0x303, 2, FLOW_PLAIN, 0),
		I(0x305, 1, FLOW_RET, 0),
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 1);
	check_block(&f, 0, 0, 4, -1);
	assert_int_equal(f.n_loops, 0);
	assert_int_equal(back_edges(&f), 0);
	flow_free(&f);
}

static void test_empty(void **state)
{
	struct flow_insn dummy = I(0x100, 1, FLOW_JUMP, 0x100);
	struct flow f;

	(void)state;
	memset(&f, 0xff, sizeof(f));
	build(&dummy, 0, &f);
	assert_int_equal(f.n_blocks, 0);
	assert_int_equal(f.n_loops, 0);
	assert_null(f.block_of);
	assert_null(f.blocks);
	assert_null(f.loops);
	assert_null(f.back_edge);
	assert_false(flow_is_back_edge(&f, 0));
	flow_free(&f);
	flow_free(&f);  /* idempotent */
}

static void test_targets_outside(void **state)
{
	/* Targets mid-instruction, before and after the function: no leader
	 * there (only after the branches), and no loop. */
	static const struct flow_insn in[] = {
		I(0x700, 3, FLOW_PLAIN, 0),          /* 0 */
		I(0x703, 2, FLOW_CJUMP, 0x701),      /* 1 into instruction 0 */
		I(0x705, 2, FLOW_PLAIN, 0),          /* 2 */
		I(0x707, 2, FLOW_JUMP, 0x6f0),       /* 3 before the function */
		I(0x709, 2, FLOW_CJUMP, 0x800),      /* 4 after it */
		I(0x70b, 1, FLOW_PLAIN, 0),          /* 5 */
		I(0x70c, 2, FLOW_CJUMP, 0x70d),      /* 6 into itself */
		I(0x70e, 1, FLOW_PLAIN, 0),          /* 7 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 5);
	check_block(&f, 0, 0, 1, -1);
	check_block(&f, 1, 2, 3, -1);
	check_block(&f, 2, 4, 4, -1);
	check_block(&f, 3, 5, 6, -1);
	check_block(&f, 4, 7, 7, -1);
	assert_int_equal(f.n_loops, 0);
	assert_int_equal(back_edges(&f), 0);
	flow_free(&f);
}

/* ---- loops ---------------------------------------------------------- */

static void test_single_loop(void **state)
{
	static const struct flow_insn in[] = {
		M(0x200, 3, 0, 0),                   /* 0 mov */
		M(0x203, 4, 8, 0),                   /* 1 head: mov rax,[rdi] */
		M(0x207, 3, 0, 4),                   /* 2 mov [rsi],eax */
		M(0x20a, 4, 4, 4),                   /* 3 add [rdx],eax */
		I(0x20e, 2, FLOW_CJUMP, 0x203),      /* 4 jne head */
		I(0x210, 1, FLOW_RET, 0),            /* 5 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 3);
	check_block(&f, 0, 0, 0, -1);
	check_block(&f, 1, 1, 4, 0);
	check_block(&f, 2, 5, 5, -1);
	assert_int_equal(f.n_loops, 1);
	check_loop(&f, 0, 1, 4, -1, 1);
	assert_int_equal(f.loops[0].n_insns, 4);
	assert_int_equal(f.loops[0].load_bytes, 12);
	assert_int_equal(f.loops[0].store_bytes, 8);
	assert_int_equal(back_edges(&f), 1u << 4);
	assert_false(flow_is_back_edge(&f, 6));  /* past the end */
	assert_false(flow_is_back_edge(&f, (size_t)-1));
	flow_free(&f);
}

static void test_nested_loops(void **state)
{
	static const struct flow_insn in[] = {
		M(0x300, 2, 0, 0),                   /* 0 */
		M(0x302, 2, 4, 0),                   /* 1 outer head */
		M(0x304, 2, 8, 0),                   /* 2 inner head */
		M(0x306, 2, 0, 8),                   /* 3 */
		I(0x308, 2, FLOW_CJUMP, 0x304),      /* 4 inner tail */
		M(0x30a, 2, 0, 2),                   /* 5 */
		I(0x30c, 2, FLOW_CJUMP, 0x302),      /* 6 outer tail */
		I(0x30e, 1, FLOW_RET, 0),            /* 7 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_blocks, 5);
	check_block(&f, 0, 0, 0, -1);
	check_block(&f, 1, 1, 1, 0);
	check_block(&f, 2, 2, 4, 1);
	check_block(&f, 3, 5, 6, 0);
	check_block(&f, 4, 7, 7, -1);
	assert_int_equal(f.n_loops, 2);
	check_loop(&f, 0, 1, 6, -1, 1);
	assert_int_equal(f.loops[0].load_bytes, 12);
	assert_int_equal(f.loops[0].store_bytes, 10);
	check_loop(&f, 1, 2, 4, 0, 2);
	assert_int_equal(f.loops[1].load_bytes, 8);
	assert_int_equal(f.loops[1].store_bytes, 8);
	assert_int_equal(back_edges(&f), 1u << 4 | 1u << 6);
	flow_free(&f);
}

static void test_deep_and_sibling_loops(void **state)
{
	/* L0 { L1 { L2 { } } L3 { } }: L3's parent is L0, not the nearer L2. */
	static const struct flow_insn in[] = {
		I(0x400, 2, FLOW_PLAIN, 0),          /* 0 */
		I(0x402, 2, FLOW_PLAIN, 0),          /* 1 L0 head */
		I(0x404, 2, FLOW_PLAIN, 0),          /* 2 L1 head */
		I(0x406, 2, FLOW_PLAIN, 0),          /* 3 L2 head */
		I(0x408, 2, FLOW_CJUMP, 0x406),      /* 4 L2 tail */
		I(0x40a, 2, FLOW_CJUMP, 0x404),      /* 5 L1 tail */
		I(0x40c, 2, FLOW_PLAIN, 0),          /* 6 L3 head */
		I(0x40e, 2, FLOW_CJUMP, 0x40c),      /* 7 L3 tail */
		I(0x410, 2, FLOW_CJUMP, 0x402),      /* 8 L0 tail */
		I(0x412, 1, FLOW_RET, 0),            /* 9 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_loops, 4);
	check_loop(&f, 0, 1, 8, -1, 1);
	check_loop(&f, 1, 2, 5, 0, 2);
	check_loop(&f, 2, 3, 4, 1, 3);
	check_loop(&f, 3, 6, 7, 0, 2);
	assert_int_equal(f.n_blocks, 8);
	check_block(&f, 0, 0, 0, -1);
	check_block(&f, 1, 1, 1, 0);
	check_block(&f, 2, 2, 2, 1);
	check_block(&f, 3, 3, 4, 2);
	check_block(&f, 4, 5, 5, 1);
	check_block(&f, 5, 6, 7, 3);
	check_block(&f, 6, 8, 8, 0);
	check_block(&f, 7, 9, 9, -1);
	flow_free(&f);
}

static void test_two_back_edges(void **state)
{
	/* A "continue" and the loop's end branch back to one head: one loop
	 * up to the furthest back-edge. */
	static const struct flow_insn in[] = {
		M(0x500, 2, 4, 0),                   /* 0 head */
		I(0x502, 2, FLOW_CJUMP, 0x500),      /* 1 continue */
		M(0x504, 2, 0, 4),                   /* 2 */
		I(0x506, 2, FLOW_CJUMP, 0x500),      /* 3 tail */
		I(0x508, 1, FLOW_RET, 0),            /* 4 */
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_loops, 1);
	check_loop(&f, 0, 0, 3, -1, 1);
	assert_int_equal(f.loops[0].load_bytes, 4);
	assert_int_equal(f.loops[0].store_bytes, 4);
	assert_int_equal(f.n_blocks, 3);
	check_block(&f, 0, 0, 1, 0);
	check_block(&f, 1, 2, 3, 0);
	check_block(&f, 2, 4, 4, -1);
	assert_int_equal(back_edges(&f), 1u << 1 | 1u << 3);
	flow_free(&f);
}

static void test_jump_to_itself(void **state)
{
	static const struct flow_insn in[] = {
		I(0x600, 1, FLOW_PLAIN, 0),
		I(0x601, 2, FLOW_JUMP, 0x601),       /* jmp . */
		I(0x603, 1, FLOW_RET, 0),
	};
	struct flow f;

	(void)state;
	build(in, N(in), &f);
	assert_int_equal(f.n_loops, 1);
	check_loop(&f, 0, 1, 1, -1, 1);
	assert_int_equal(f.loops[0].n_insns, 1);
	assert_int_equal(f.n_blocks, 3);
	check_block(&f, 0, 0, 0, -1);
	check_block(&f, 1, 1, 1, 0);
	check_block(&f, 2, 2, 2, -1);
	assert_int_equal(back_edges(&f), 1u << 1);
	flow_free(&f);
}

/* ---- estimates ------------------------------------------------------ */

static void test_sum(void **state)
{
	static const double v[] = { 1, 2, 4, 8, 16 };

	(void)state;
	assert_true(flow_sum(v, 0, 4) == 31);
	assert_true(flow_sum(v, 1, 3) == 14);
	assert_true(flow_sum(v, 2, 2) == 4);
}

static void test_loop_iterations(void **state)
{
	struct flow_loop four = { .head = 3, .tail = 6, .n_insns = 4 };
	struct flow_loop one = { .head = 3, .tail = 3, .n_insns = 1 };
	struct flow_loop empty = { 0 };

	(void)state;
	assert_true(flow_loop_iterations(&four, 1e6) == 250000);
	assert_true(flow_loop_iterations(&four, 10) == 2.5);
	assert_true(flow_loop_iterations(&four, 0) == 0);
	assert_true(flow_loop_iterations(&one, 1e6) == 1e6);
	assert_true(isnan(flow_loop_iterations(&empty, 1e6)));
}

static void test_bus_efficiency(void **state)
{
	/* 20 bytes per iteration x 250000 = 5e6 bytes over 100000 lines of 64. */
	struct flow_loop l = { .n_insns = 4, .load_bytes = 12, .store_bytes = 8 };
	struct flow_loop none = { .n_insns = 4 };

	(void)state;
	assert_true(flow_bus_efficiency(&l, 250000, 100000) == 0.78125);
	assert_true(flow_bus_efficiency(&l, 320, 25) == 4);   /* lines reused */
	assert_true(flow_bus_efficiency(&none, 250000, 100000) == 0);
	assert_true(flow_bus_efficiency(&l, 0, 100000) == 0);
	assert_true(isnan(flow_bus_efficiency(&l, 250000, 0)));
	assert_true(isnan(flow_bus_efficiency(&l, 250000, -1)));
	assert_true(isnan(flow_bus_efficiency(&l, 250000, NAN)));
	assert_true(isnan(flow_bus_efficiency(&l, NAN, 100000)));
}

/* ---- classification ------------------------------------------------- */

static void test_classify_share(void **state)
{
	(void)state;
	/* FLOW_MIN_SHARE of 1000 is 50: significant from there on. */
	assert_int_equal(flow_classify(50, 50, 1000), MARK_STALLED);
	assert_int_equal(flow_classify(49.99, 1e9, 1000), MARK_NONE);
	assert_int_equal(flow_classify(1000, 1000, 1000), MARK_STALLED);
	assert_int_equal(flow_classify(50, 0, 1000), MARK_HIDDEN);
	/* No penalty, no function penalty, negative values. */
	assert_int_equal(flow_classify(0, 100, 1000), MARK_NONE);
	assert_int_equal(flow_classify(0, 0, 0), MARK_NONE);
	assert_int_equal(flow_classify(100, 100, 0), MARK_NONE);
	assert_int_equal(flow_classify(-100, 0, 1000), MARK_NONE);
	assert_int_equal(flow_classify(100, 0, -1000), MARK_NONE);
}

static void test_classify_ratio(void **state)
{
	(void)state;
	/* FLOW_HIDDEN_RATIO of 200 is 50: below it the penalty is hidden. */
	assert_int_equal(flow_classify(200, 50, 1000), MARK_STALLED);
	assert_int_equal(flow_classify(200, 49.999, 1000), MARK_HIDDEN);
	assert_int_equal(flow_classify(200, 0, 1000), MARK_HIDDEN);
	assert_int_equal(flow_classify(200, 1e6, 1000), MARK_STALLED);
	/* At both boundaries at once: 50 of 1000, stalls 12.5. */
	assert_int_equal(flow_classify(50, 12.5, 1000), MARK_STALLED);
	assert_int_equal(flow_classify(50, 12.49, 1000), MARK_HIDDEN);
}

static void test_classify_nan(void **state)
{
	(void)state;
	assert_int_equal(flow_classify(NAN, 100, 1000), MARK_NONE);
	assert_int_equal(flow_classify(100, 100, NAN), MARK_NONE);
	assert_int_equal(flow_classify(NAN, NAN, NAN), MARK_NONE);
	/* Unknown stall cycles say nothing about hiding. */
	assert_int_equal(flow_classify(100, NAN, 1000), MARK_NONE);
}

static void test_mark_name(void **state)
{
	(void)state;
	assert_string_equal(flow_mark_name(MARK_STALLED), "stalled");
	assert_string_equal(flow_mark_name(MARK_HIDDEN), "hidden");
	assert_string_equal(flow_mark_name(MARK_NONE), "");
	assert_string_equal(flow_mark_name((enum flow_mark)42), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_straight_line),
		cmocka_unit_test(test_diamond),
		cmocka_unit_test(test_ijump_ret_end_blocks),
		cmocka_unit_test(test_bad_bytes),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_targets_outside),
		cmocka_unit_test(test_single_loop),
		cmocka_unit_test(test_nested_loops),
		cmocka_unit_test(test_deep_and_sibling_loops),
		cmocka_unit_test(test_two_back_edges),
		cmocka_unit_test(test_jump_to_itself),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_loop_iterations),
		cmocka_unit_test(test_bus_efficiency),
		cmocka_unit_test(test_classify_share),
		cmocka_unit_test(test_classify_ratio),
		cmocka_unit_test(test_classify_nan),
		cmocka_unit_test(test_mark_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

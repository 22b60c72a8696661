/* The AMD basic-measurements tree (Drongowski, seeds/004): section 5's
 * measured tables reproduced from the paper's sample counts and periods,
 * hand-computed values for every other node, family differences (K8 vs
 * Fam10h), time references, event-name spellings and missing inputs. */
#include "tests/unit/tree-helpers.h"

#define K8 "amd64_k8"
#define F10 "amd64_fam10h"
#define HZ_K8 2.2e9 /* section 5.2: the test platform was a 2.2 GHz Athlon 64 */
#define REL 1e-9    /* hand-computed values: exact up to rounding */
#define SECONDS_INPUT "duration_time, or CPU_clocks with --clock-hz"

/* Half a unit of the last printed digit, as a relative tolerance. */
static double printed_rel(double printed, int decimals)
{
	return 0.5 * pow(10.0, -decimals) / fabs(printed);
}

/* Node ID equals a value the paper printed with DECIMALS decimals. */
static void assert_printed(const struct tree_result *r, const char *id, double printed,
			   int decimals)
{
	th_assert_value(r, id, printed, printed_rel(printed, decimals));
}

static enum node_state state_of(const struct tree_result *r, const char *id)
{
	int i = tree_node_index(r->def, id);

	assert_true(i >= 0);
	return r->v[i].state;
}

/* --- section 5: the paper's tables ----------------------------------------- */

/* 5.1: both events sampled with the same period; IPC/CPI do not depend on it. */
static void test_paper_5_1_ipc(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, "CPU_clocks,506251,500000\nRet_instructions,68183,500000\n",
		0, 0);
	assert_printed(&r, "ipc", 0.135, 3);
	assert_printed(&r, "cpi", 7.425, 3);

	th_eval(&r, TREE_AMD, K8, "CPU_clocks,80977,500000\nRet_instructions,88124,500000\n",
		0, 0);
	assert_printed(&r, "ipc", 1.088, 3);
	assert_printed(&r, "cpi", 0.919, 3);

	/* the same samples at another common period give the same ratios */
	th_eval(&r, TREE_AMD, K8, "CPU_clocks,80977,50000\nRet_instructions,88124,50000\n",
		0, 0);
	assert_printed(&r, "ipc", 1.088, 3);
	assert_printed(&r, "cpi", 0.919, 3);
}

/* Section 3: samples are normalized by their period before any arithmetic. */
static void test_period_normalization(void **state)
{
	struct tree_result r;
	(void)state;

	/* 506251 x 50000 clocks, 68183 x 500000 instructions */
	th_eval(&r, TREE_AMD, K8, "CPU_clocks,506251,50000\nRet_instructions,68183,500000\n",
		0, 0);
	th_assert_value(&r, "ipc", 68183.0 * 500000 / (506251.0 * 50000), REL);
	th_assert_value(&r, "cpi", 506251.0 * 50000 / (68183.0 * 500000), REL);
	/* a count without a period is taken as is */
	th_eval(&r, TREE_AMD, K8, "CPU_clocks,25312550000\nRet_instructions,68183,500000\n",
		0, 0);
	th_assert_value(&r, "ipc", 68183.0 * 500000 / 25312550000.0, REL);
}

/* 5.2, K8 at 2.2 GHz, every event at period 50,000, Seconds from CPU_clocks.
 * The paper computed the bandwidths from Seconds as printed (4 decimals), so
 * the bandwidths carry Seconds' rounding too: their tolerance adds half a
 * unit of Seconds' last digit, relative to Seconds. */
static void check_5_2(const char *text, double secs, double rd, double wr, double dram)
{
	struct tree_result r;
	double srel = printed_rel(secs, 4);

	th_eval(&r, TREE_AMD, K8, text, HZ_K8, 0);
	assert_printed(&r, "seconds", secs, 4);
	th_assert_value(&r, "bandwidth.read", rd, printed_rel(rd, 4) + srel);
	th_assert_value(&r, "bandwidth.write", wr, printed_rel(wr, 4) + srel);
	th_assert_value(&r, "bandwidth.dram", dram, printed_rel(dram, 4) + srel);
	assert_int_equal(state_of(&r, "bandwidth"), NODE_HEADING);
}

static void test_paper_5_2_bandwidth(void **state)
{
	(void)state;
	check_5_2("CPU_clocks,505137,50000\nSystem_read,1266,50000\n"
		  "System_write,169,50000\nDRAM_accesses,1292,50000\n",
		  11.4804, 352.8797, 5.8883, 360.1268);
	check_5_2("CPU_clocks,88120,50000\nSystem_read,1256,50000\n"
		  "System_write,48,50000\nDRAM_accesses,1262,50000\n",
		  2.0027, 2006.8907, 9.5871, 2016.4778);
}

/* 5.2 with Seconds as printed given as the time reference (duration_time, in
 * ns): every bandwidth matches the table to half a unit of its last digit. */
static void test_paper_5_2_bandwidth_printed_seconds(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8,
		"CPU_clocks,505137,50000\nSystem_read,1266,50000\nSystem_write,169,50000\n"
		"DRAM_accesses,1292,50000\nduration_time,11480400000\n", HZ_K8, 0);
	assert_printed(&r, "seconds", 11.4804, 4);
	assert_printed(&r, "bandwidth.read", 352.8797, 4);
	assert_printed(&r, "bandwidth.write", 5.8883, 4);
	assert_printed(&r, "bandwidth.dram", 360.1268, 4);

	th_eval(&r, TREE_AMD, K8,
		"CPU_clocks,88120,50000\nSystem_read,1256,50000\nSystem_write,48,50000\n"
		"DRAM_accesses,1262,50000\nduration_time,2002700000\n", HZ_K8, 0);
	assert_printed(&r, "seconds", 2.0027, 4);
	assert_printed(&r, "bandwidth.read", 2006.8907, 4);
	assert_printed(&r, "bandwidth.write", 9.5871, 4);
	assert_printed(&r, "bandwidth.dram", 2016.4778, 4);
}

/* 5.3: Ret_instructions at period 500,000, the other events at 50,000. */
static void test_paper_5_3_dc(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8,
		"Ret_instructions,68184,500000\nDC_accesses,401893,50000\n"
		"DC_refills_L2,45533,50000\nDC_refills_sys,12526,50000\n", 0, 0);
	assert_printed(&r, "dc.request_rate", 0.589, 3);
	assert_printed(&r, "dc.miss_rate", 0.085, 3);
	assert_printed(&r, "dc.miss_ratio", 0.144, 3);
	th_assert_value(&r, "dc.sys_fraction", 12526.0 / (45533 + 12526), REL);

	th_eval(&r, TREE_AMD, K8,
		"Ret_instructions,88153,500000\nDC_accesses,602380,50000\n"
		"DC_refills_L2,11713,50000\nDC_refills_sys,870,50000\n", 0, 0);
	assert_printed(&r, "dc.request_rate", 0.683, 3);
	assert_printed(&r, "dc.miss_rate", 0.014, 3);
	assert_printed(&r, "dc.miss_ratio", 0.021, 3);
	th_assert_value(&r, "dc.sys_fraction", 870.0 / (11713 + 870), REL);
}

/* 5.4: Ret_instructions at period 500,000, the other events at 50,000. */
static void test_paper_5_4_dtlb(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8,
		"Ret_instructions,68180,500000\nDC_accesses,402415,50000\n"
		"DTLB_L1M_L2H,59532,50000\nDTLB_L1M_L2M,157529,50000\n", 0, 0);
	assert_printed(&r, "dtlb.l1_request_rate", 0.5902, 4);
	assert_printed(&r, "dtlb.l1_miss_rate", 0.3184, 4);
	assert_printed(&r, "dtlb.l1_miss_ratio", 0.5394, 4);
	assert_printed(&r, "dtlb.l2_request_rate", 0.3184, 4);
	assert_printed(&r, "dtlb.l2_miss_rate", 0.2310, 4);
	assert_printed(&r, "dtlb.l2_miss_ratio", 0.7257, 4);

	th_eval(&r, TREE_AMD, K8,
		"Ret_instructions,88150,500000\nDC_accesses,602298,50000\n"
		"DTLB_L1M_L2H,53,50000\nDTLB_L1M_L2M,175,50000\n", 0, 0);
	assert_printed(&r, "dtlb.l1_request_rate", 0.6833, 4);
	assert_printed(&r, "dtlb.l1_miss_rate", 0.0003, 4);
	assert_printed(&r, "dtlb.l1_miss_ratio", 0.0004, 4);
	assert_printed(&r, "dtlb.l2_request_rate", 0.0003, 4);
	assert_printed(&r, "dtlb.l2_miss_rate", 0.0002, 4);
	assert_printed(&r, "dtlb.l2_miss_ratio", 0.7675, 4);
}

/* --- every node, hand-computed ---------------------------------------------- */

/* Fam10h, 2 GHz: CPU_clocks 2,000,000 -> 0.001 s; Ret_instructions 1,000,000.
 * Some events are given as samples x period to exercise normalization. */
static const char full_counts[] =
	"CPU_clocks,4,500000\n"
	"Ret_instructions,2,500000\n"
	"System_read,1000\n"
	"System_write,500\n"
	"DRAM_accesses_0,800\n"
	"DRAM_accesses_1,400\n"
	"DC_accesses,400000\n"
	"DC_refills_L2,600,50\n"
	"DC_refills_sys,10000\n"
	"IC_fetches,250000\n"
	"IC_refills_L2,4000\n"
	"IC_refills_sys,1000\n"
	"L2_requests,60000\n"
	"L2_fill_write,20000\n"
	"L2_misses,8000\n"
	"L2_requests_TLB,7500\n"
	"L2_misses_TLB,2000\n"
	"L3_requests,12000\n"
	"L3_misses,3000\n"
	"DTLB_L1M_L2H,6000\n"
	"DTLB_L1M_L2M,2000\n"
	"ITLB_L1M_L2H,500\n"
	"ITLB_L1M_L2M,125\n"
	"Branches,150000\n"
	"Mispred_branches,3000\n"
	"Taken_branches,90000\n"
	"Near_returns,20000\n"
	"Mispred_near_ret,400\n"
	"Misalign_access,800\n"
	"Dispatched_FP,300000\n"
	"Ret_MMX_FP,120000\n"
	"SSE_SP_FLOPS,40000\n"
	"SSE_DP_FLOPS,100000\n"
	"FPU_exceptions,240\n";

struct expect {
	const char *id;
	double want;
};

#define RET 1e6
#define L2I_REQ (4000.0 + 1000 + 30000 + 10000 + 7500)  /* IC + DC refills + TLB */
#define L2I_MISS (1000.0 + 10000 + 2000)                /* sys refills + TLB misses */

static const struct expect full_expect[] = {
	{ "ipc", 0.5 },
	{ "cpi", 2.0 },
	{ "seconds", 0.001 },
	{ "bandwidth.read", 1000.0 * 64 / 1e6 / 0.001 },       /* 64 MB/s */
	{ "bandwidth.write", 500.0 * 16 / 1e6 / 0.001 },       /* Fam10h: 16 bytes */
	{ "bandwidth.dram", (800.0 + 400) * 64 / 1e6 / 0.001 }, /* DCT0 + DCT1 */
	{ "dc.request_rate", 400000 / RET },
	{ "dc.miss_rate", 40000 / RET },
	{ "dc.miss_ratio", 40000.0 / 400000 },
	{ "dc.sys_fraction", 10000.0 / 40000 },
	{ "ic.request_rate", 250000 / RET },
	{ "ic.miss_rate", 5000 / RET },
	{ "ic.miss_ratio", 5000.0 / 250000 },
	{ "l2.request_rate", (60000 + 20000) / RET },
	{ "l2.miss_rate", 8000 / RET },
	{ "l2.miss_ratio", 8000.0 / 80000 },
	{ "l2.indirect.request_rate", L2I_REQ / RET },
	{ "l2.indirect.miss_rate", L2I_MISS / RET },
	{ "l2.indirect.miss_ratio", L2I_MISS / L2I_REQ },
	{ "l2.indirect.instruction_fraction", 5000 / L2I_REQ },
	{ "l2.indirect.data_fraction", 40000 / L2I_REQ },
	{ "l2.indirect.page_table_fraction", 7500 / L2I_REQ },
	{ "l3.request_rate", 12000 / RET },
	{ "l3.miss_rate", 3000 / RET },
	{ "l3.miss_ratio", 3000.0 / 12000 },
	{ "dtlb.l1_request_rate", 400000 / RET },
	{ "dtlb.l1_miss_rate", 8000 / RET },
	{ "dtlb.l1_miss_ratio", 8000.0 / 400000 },
	{ "dtlb.l2_request_rate", 8000 / RET },
	{ "dtlb.l2_miss_rate", 2000 / RET },
	{ "dtlb.l2_miss_ratio", 2000.0 / 8000 },
	{ "itlb.l1_request_rate", 250000 / RET },
	{ "itlb.l1_miss_rate", 625 / RET },
	{ "itlb.l1_miss_ratio", 625.0 / 250000 },
	{ "itlb.l2_request_rate", 625 / RET },
	{ "itlb.l2_miss_rate", 125 / RET },
	{ "itlb.l2_miss_ratio", 125.0 / 625 },
	{ "branch.rate", 150000 / RET },
	{ "branch.mispred_rate", 3000 / RET },
	{ "branch.mispred_ratio", 3000.0 / 150000 },
	{ "branch.taken_rate", 90000 / RET },
	{ "branch.taken_ratio", 90000.0 / 150000 },
	{ "branch.instructions_per_branch", RET / 150000 },
	{ "ret.near_return_rate", 20000 / RET },
	{ "ret.stack_miss_rate", 400 / RET },
	{ "ret.stack_mispred_ratio", 400.0 / 20000 },
	{ "ret.instructions_per_call", RET / 20000 },
	{ "misalign.rate", 800 / RET },
	{ "misalign.ratio", 800.0 / 400000 },
	{ "fp.fpu_op_rate", 300000 / RET },
	{ "fp.mmx_fp_rate", 120000 / RET },
	{ "fp.sp_flops", 40000 / 1e6 / 0.001 },   /* 40 MFLOP/s */
	{ "fp.dp_flops", 100000 / 1e6 / 0.001 },  /* 100 MFLOP/s */
	{ "fp.exception_rate", 240 / RET },
	{ "fp.exception_per_fp", 240.0 / 120000 },
};

#define N_FULL (sizeof(full_expect) / sizeof(full_expect[0]))

static void test_every_node_hand_computed(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, F10, full_counts, 2e9, 0);
	for (size_t k = 0; k < N_FULL; k++) {
		th_assert_value(&r, full_expect[k].id, full_expect[k].want, REL);
		assert_int_equal(th_warn(&r, full_expect[k].id), 0);
	}
	/* the table covers the whole tree: every node is a heading or listed */
	for (int i = 0; i < r.def->n_nodes; i++) {
		const struct tree_node_def *nd = &r.def->nodes[i];
		size_t k = 0;
		if (nd->flags & TN_GROUP) {
			assert_int_equal(r.v[i].state, NODE_HEADING);
			continue;
		}
		while (k < N_FULL && strcmp(full_expect[k].id, nd->id) != 0)
			k++;
		if (k == N_FULL) {
			fprintf(stderr, "node %s is not tested\n", nd->id);
			fail();
		}
	}
	assert_int_equal(tree_inputs_present(&r), 34);
}

/* Units the tree reports: MB/s for bandwidth, MFLOP/s for FLOPS. */
static void test_units(void **state)
{
	const struct tree_def *def = tree_def_get(TREE_AMD);
	(void)state;

	assert_int_equal(def->nodes[tree_node_index(def, "bandwidth.read")].unit, UNIT_MBPS);
	assert_int_equal(def->nodes[tree_node_index(def, "bandwidth.dram")].unit, UNIT_MBPS);
	assert_int_equal(def->nodes[tree_node_index(def, "fp.sp_flops")].unit, UNIT_MFLOPS);
	assert_int_equal(def->nodes[tree_node_index(def, "fp.dp_flops")].unit, UNIT_MFLOPS);
	assert_int_equal(def->nodes[tree_node_index(def, "seconds")].unit, UNIT_SECONDS);
	assert_string_equal(unit_name(UNIT_MFLOPS), "MFLOP/s");
}

/* --- family differences ------------------------------------------------------- */

/* Section 4.2.2: Fam10h writes 16 bytes per System_write event, K8 8 bytes. */
static void test_write_width_k8_vs_fam10h(void **state)
{
	static const char text[] = "System_write,500\nSystem_read,1000\nduration_time,1000000\n";
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, text, 0, 0);
	th_assert_value(&r, "bandwidth.write", 500.0 * 8 / 1e6 / 0.001, REL);
	th_assert_value(&r, "bandwidth.read", 1000.0 * 64 / 1e6 / 0.001, REL);
	th_eval(&r, TREE_AMD, F10, text, 0, 0);
	th_assert_value(&r, "bandwidth.write", 500.0 * 16 / 1e6 / 0.001, REL);
	th_assert_value(&r, "bandwidth.read", 1000.0 * 64 / 1e6 / 0.001, REL);
	/* the libpfm4 spelling of the event counts the same */
	th_eval(&r, TREE_AMD, F10,
		"quadwords_written_to_system:quadword_write_transfer,500\n"
		"duration_time,1000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.write", 500.0 * 16 / 1e6 / 0.001, REL);
}

/* Section 4.2.2: two controllers, DRAM_accesses = DRAM_accesses_0 + _1. */
static void test_fam10h_dram_two_controllers(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, F10, "DRAM_accesses_0,1000\nDRAM_accesses_1,500\n"
		"duration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1500.0 * 64 / 1e6 / 0.002, REL);
	/* in samples with a period */
	th_eval(&r, TREE_AMD, F10, "DRAM_accesses_0,2,500000\nDRAM_accesses_1,1,500000\n"
		"duration_time,1000000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1.5e6 * 64 / 1e6, REL);
	/* libpfm4 strings: DCT0 and DCT1 unit masks of DRAM_ACCESSES_PAGE */
	th_eval(&r, TREE_AMD, F10,
		"DRAM_ACCESSES_PAGE:HIT:MISS:CONFLICT,1000\n"
		"dram_accesses_page:dct1_page_conflict:dct1_page_hit:dct1_page_miss,500\n"
		"duration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1500.0 * 64 / 1e6 / 0.002, REL);
	/* raw codes: 0xE0 with unit masks 0x07 (DCT0) and 0x38 (DCT1) */
	th_eval(&r, TREE_AMD, F10, "r07e0,1000\nr38e0,500\nduration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1500.0 * 64 / 1e6 / 0.002, REL);
	/* DRAM_accesses is the DCT0 event (0xE0/0x07): DCT1 adds to it */
	th_eval(&r, TREE_AMD, F10, "DRAM_accesses,1000\nDRAM_accesses_1,500\n"
		"duration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1500.0 * 64 / 1e6 / 0.002, REL);
	/* one controller: DCT0 alone */
	th_eval(&r, TREE_AMD, F10, "DRAM_accesses_0,1000\nduration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1000.0 * 64 / 1e6 / 0.002, REL);
	/* single-controller processors: DRAM_accesses */
	th_eval(&r, TREE_AMD, K8, "DRAM_accesses,1000\nduration_time,2000000\n", 0, 0);
	th_assert_value(&r, "bandwidth.dram", 1000.0 * 64 / 1e6 / 0.002, REL);
}

/* --- miss events ----------------------------------------------------------------- */

/* Section 4.3.1: the simplified scheme measures DC_misses directly. */
static void test_dc_misses_event_without_refills(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nDC_accesses,400000\n"
		"DC_misses,5000\n", 0, 0);
	th_assert_value(&r, "dc.miss_rate", 0.005, REL);
	th_assert_value(&r, "dc.miss_ratio", 5000.0 / 400000, REL);
	th_assert_missing(&r, "dc.sys_fraction");
	assert_true(th_missing_has(&r, "dc.sys_fraction", "DC_refills_sys"));

	/* one refill event is not enough: the miss event is used */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nDC_accesses,400000\n"
		"DC_misses,5000\nDC_refills_L2,3000\n", 0, 0);
	th_assert_value(&r, "dc.miss_rate", 0.005, REL);

	/* both refill events: preferred over the miss event */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nDC_accesses,400000\n"
		"DC_misses,5000\nDC_refills_L2,3000\nDC_refills_sys,1000\n", 0, 0);
	th_assert_value(&r, "dc.miss_rate", 0.004, REL);
	th_assert_value(&r, "dc.sys_fraction", 0.25, REL);

	/* no miss data at all */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nDC_accesses,400000\n"
		"DC_refills_L2,3000\n", 0, 0);
	th_assert_missing(&r, "dc.miss_rate");
	th_assert_missing(&r, "dc.miss_ratio");
	th_assert_value(&r, "dc.request_rate", 0.4, REL);
}

/* Section 4.3.2: IC_misses may replace the two refill events. */
static void test_ic_misses_event_without_refills(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nIC_fetches,250000\n"
		"IC_misses,2500\n", 0, 0);
	th_assert_value(&r, "ic.request_rate", 0.25, REL);
	th_assert_value(&r, "ic.miss_rate", 0.0025, REL);
	th_assert_value(&r, "ic.miss_ratio", 0.01, REL);
	/* the indirect L2 method needs the refills, not the miss event */
	th_assert_missing(&r, "l2.indirect.request_rate");
	th_assert_missing(&r, "l2.indirect.instruction_fraction");

	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nIC_fetches,250000\n"
		"IC_misses,2500\nIC_refills_L2,1500\nIC_refills_sys,500\n", 0, 0);
	th_assert_value(&r, "ic.miss_rate", 0.002, REL);
}

/* --- time references ------------------------------------------------------------ */

/* duration_time (ns, the OS clock) is preferred to CPU_clocks / --clock-hz. */
static void test_duration_time_priority(void **state)
{
	struct tree_result r;
	(void)state;

	/* CPU_clocks / clock would say 1 s; the OS clock says 4 s */
	th_eval(&r, TREE_AMD, K8, "CPU_clocks,2200000000\nSystem_read,1000000\n"
		"SSE_SP_FLOPS,8000000\nduration_time,4000000000\n", HZ_K8, 0);
	th_assert_value(&r, "seconds", 4.0, REL);
	th_assert_value(&r, "bandwidth.read", 64.0 / 4, REL);
	th_assert_value(&r, "fp.sp_flops", 8.0 / 4, REL);
	/* without the time reference, CPU_clocks / clock */
	th_eval(&r, TREE_AMD, K8, "CPU_clocks,2200000000\nSystem_read,1000000\n"
		"SSE_SP_FLOPS,8000000\n", HZ_K8, 0);
	th_assert_value(&r, "seconds", 1.0, REL);
	th_assert_value(&r, "bandwidth.read", 64.0, REL);
	th_assert_value(&r, "fp.sp_flops", 8.0, REL);
	/* duration_time alone, no clock frequency */
	th_eval(&r, TREE_AMD, K8, "System_read,1000000\nduration_time,4000000000\n", 0, 0);
	th_assert_value(&r, "seconds", 4.0, REL);
	th_assert_value(&r, "bandwidth.read", 16.0, REL);
	/* as perf stat -x, prints it (ns) */
	th_eval(&r, TREE_AMD, K8,
		"1000000,,System_read,1000,100.00,,\n4000000000,ns,duration_time,4000000000,100.00,,\n",
		0, 0);
	th_assert_value(&r, "seconds", 4.0, REL);
	th_assert_value(&r, "bandwidth.read", 16.0, REL);
}

/* No clock frequency and no time reference: bandwidth and FLOPS are not
 * measured (never 0), and the missing input says what would fix it. */
static void test_no_clock_no_bandwidth(void **state)
{
	static const char *const timed[] = { "seconds", "bandwidth.read", "bandwidth.write",
		"bandwidth.dram", "fp.sp_flops", "fp.dp_flops" };
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, F10, full_counts, 0, 0);
	for (size_t k = 0; k < sizeof(timed) / sizeof(timed[0]); k++) {
		th_assert_missing(&r, timed[k]);
		assert_true(isnan(tree_value(&r, timed[k])));
		assert_true(th_missing_has(&r, timed[k], SECONDS_INPUT));
	}
	/* the event counts themselves are there */
	assert_false(th_missing_has(&r, "bandwidth.read", "System_read"));
	assert_false(th_missing_has(&r, "bandwidth.write", "System_write"));
	assert_false(th_missing_has(&r, "fp.sp_flops", "SSE_SP_FLOPS"));
	/* ratios do not need the clock */
	th_assert_value(&r, "ipc", 0.5, REL);
	th_assert_value(&r, "dc.miss_ratio", 0.1, REL);
	/* with the clock, measured */
	th_eval(&r, TREE_AMD, F10, full_counts, 2e9, 0);
	th_assert_value(&r, "bandwidth.read", 64.0, REL);
	/* a clock but no CPU_clocks: still not measured */
	th_eval(&r, TREE_AMD, K8, "System_read,1000\n", HZ_K8, 0);
	th_assert_missing(&r, "bandwidth.read");
	assert_true(th_missing_has(&r, "bandwidth.read", SECONDS_INPUT));
}

/* --- missing inputs ------------------------------------------------------------ */

/* With only Ret_instructions every node lacks something: all are not
 * measured, each with a reason, none reads as 0. */
static void test_missing_inputs_everywhere(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, F10, "Ret_instructions,1000000\n", 2e9, 0);
	for (int i = 0; i < r.def->n_nodes; i++) {
		if (r.def->nodes[i].flags & TN_GROUP)
			continue;
		if (r.v[i].state != NODE_MISSING) {
			fprintf(stderr, "%s is measured\n", r.def->nodes[i].id);
			fail();
		}
		assert_true(r.v[i].missing != 0);
		assert_true(isnan(tree_value(&r, r.def->nodes[i].id)));
	}
	assert_int_equal(tree_inputs_present(&r), 1);
}

/* Each node names the inputs it lacks, and only those. */
static void test_missing_inputs_named(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nBranches,100000\n", 0, 0);
	th_assert_missing(&r, "ipc");
	assert_true(th_missing_has(&r, "ipc", "CPU_clocks"));
	assert_false(th_missing_has(&r, "ipc", "Ret_instructions"));
	th_assert_value(&r, "branch.rate", 0.1, REL);
	th_assert_value(&r, "branch.instructions_per_branch", 10.0, REL);
	th_assert_missing(&r, "branch.mispred_rate");
	assert_true(th_missing_has(&r, "branch.mispred_rate", "Mispred_branches"));
	th_assert_missing(&r, "branch.taken_ratio");
	assert_true(th_missing_has(&r, "branch.taken_ratio", "Taken_branches"));
	assert_false(th_missing_has(&r, "branch.taken_ratio", "Branches"));
	th_assert_missing(&r, "l2.miss_ratio");
	assert_true(th_missing_has(&r, "l2.miss_ratio", "L2_misses"));
	assert_true(th_missing_has(&r, "l2.miss_ratio", "L2_requests"));
	assert_true(th_missing_has(&r, "l2.miss_ratio", "L2_fill_write"));
	th_assert_missing(&r, "dtlb.l2_miss_ratio");
	assert_true(th_missing_has(&r, "dtlb.l2_miss_ratio", "DTLB_L1M_L2H"));

	/* the L2 direct request count needs both of its events */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nL2_requests,60000\n"
		"L2_misses,8000\n", 0, 0);
	th_assert_missing(&r, "l2.request_rate");
	assert_true(th_missing_has(&r, "l2.request_rate", "L2_fill_write"));
	th_assert_value(&r, "l2.miss_rate", 0.008, REL);

	/* the indirect method needs every refill plus the table walker's requests */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000000\nIC_refills_L2,4000\n"
		"IC_refills_sys,1000\nDC_refills_L2,30000\nDC_refills_sys,10000\n", 0, 0);
	th_assert_missing(&r, "l2.indirect.request_rate");
	th_assert_missing(&r, "l2.indirect.miss_rate");
	th_assert_missing(&r, "l2.indirect.page_table_fraction");
	th_assert_missing(&r, "l2.indirect.data_fraction");
	assert_true(th_missing_has(&r, "l2.indirect.page_table_fraction", "L2_requests_TLB"));

	/* DRAM: DCT1 alone is not the total */
	th_eval(&r, TREE_AMD, F10, "DRAM_accesses_1,500\nduration_time,1000000\n", 0, 0);
	th_assert_missing(&r, "bandwidth.dram");
}

/* A zero denominator or an event perf could not count is not measured. */
static void test_zero_and_not_counted(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8, "CPU_clocks,2000000\nRet_instructions,0\n", 0, 0);
	th_assert_value(&r, "ipc", 0.0, REL);   /* 0 instructions is a measurement */
	th_assert_missing(&r, "cpi");          /* x / 0 is not */
	assert_true(isnan(tree_value(&r, "cpi")));

	th_eval(&r, TREE_AMD, K8, "<not counted>,,CPU_CLK_UNHALTED,0,0.00,,\n"
		"1000000,,RETIRED_INSTRUCTIONS,1000,100.00,,\n", 0, 0);
	th_assert_missing(&r, "ipc");
	assert_true(th_missing_has(&r, "ipc", "CPU_clocks"));
	assert_false(th_missing_has(&r, "ipc", "Ret_instructions"));
}

/* --- event names --------------------------------------------------------------- */

/* 5.3's counts under libpfm4 names (lower case, unit masks in any order) and
 * raw codes give the table's values. */
static void test_event_names_pfm_and_raw(void **state)
{
	struct tree_result r;
	(void)state;

	th_eval(&r, TREE_AMD, K8,
		"retired_instructions,68184,500000\ndata_cache_accesses,401893,50000\n"
		"data_cache_refills:l2_modified:l2_shared:l2_exclusive:l2_owned,45533,50000\n"
		"DATA_CACHE_REFILLS_FROM_SYSTEM:MODIFIED:OWNED:EXCLUSIVE:SHARED,12526,50000\n",
		0, 0);
	assert_printed(&r, "dc.request_rate", 0.589, 3);
	assert_printed(&r, "dc.miss_rate", 0.085, 3);
	assert_printed(&r, "dc.miss_ratio", 0.144, 3);
	th_assert_value(&r, "dc.sys_fraction", 12526.0 / (45533 + 12526), REL);

	/* raw codes: 0xC0, 0x40, 0x42/0x1E, 0x43/0x1E */
	th_eval(&r, TREE_AMD, K8, "r00c0,68184,500000\nr0040,401893,50000\n"
		"r1e42,45533,50000\nr1e43,12526,50000\n", 0, 0);
	assert_printed(&r, "dc.request_rate", 0.589, 3);
	assert_printed(&r, "dc.miss_rate", 0.085, 3);
	assert_printed(&r, "dc.miss_ratio", 0.144, 3);
	th_assert_value(&r, "dc.sys_fraction", 12526.0 / (45533 + 12526), REL);

	/* the refill events are told apart: 0x42 is not 0x43 */
	th_eval(&r, TREE_AMD, K8, "Ret_instructions,1000\nr1e42,30\n", 0, 0);
	th_assert_missing(&r, "dc.sys_fraction");
	assert_true(th_missing_has(&r, "dc.sys_fraction", "DC_refills_sys"));

	/* K8 DTLB events (unit mask 0x00) under libpfm4 names and raw codes */
	th_eval(&r, TREE_AMD, K8,
		"RETIRED_INSTRUCTIONS,68180,500000\nr0040,402415,50000\n"
		"l1_dtlb_miss_and_l2_dtlb_hit,59532,50000\nr0046,157529,50000\n", 0, 0);
	assert_printed(&r, "dtlb.l1_miss_rate", 0.3184, 4);
	assert_printed(&r, "dtlb.l2_miss_ratio", 0.7257, 4);

	/* Fam10h L3 events: extended event select 0x4E0/0x4E1 (bits 35:32) */
	th_eval(&r, TREE_AMD, F10, "Ret_instructions,1000000\nr40000f7e0,12000\n"
		"l3_cache_misses:all_cores:any_read,3000\n", 0, 0);
	th_assert_value(&r, "l3.request_rate", 0.012, REL);
	th_assert_value(&r, "l3.miss_ratio", 0.25, REL);

	/* 5.1 under libpfm4 names */
	th_eval(&r, TREE_AMD, K8, "cpu_clk_unhalted,506251,500000\n"
		"retired_instructions,68183,500000\n", 0, 0);
	assert_printed(&r, "ipc", 0.135, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paper_5_1_ipc),
		cmocka_unit_test(test_period_normalization),
		cmocka_unit_test(test_paper_5_2_bandwidth),
		cmocka_unit_test(test_paper_5_2_bandwidth_printed_seconds),
		cmocka_unit_test(test_paper_5_3_dc),
		cmocka_unit_test(test_paper_5_4_dtlb),
		cmocka_unit_test(test_every_node_hand_computed),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_write_width_k8_vs_fam10h),
		cmocka_unit_test(test_fam10h_dram_two_controllers),
		cmocka_unit_test(test_dc_misses_event_without_refills),
		cmocka_unit_test(test_ic_misses_event_without_refills),
		cmocka_unit_test(test_duration_time_priority),
		cmocka_unit_test(test_no_clock_no_bandwidth),
		cmocka_unit_test(test_missing_inputs_everywhere),
		cmocka_unit_test(test_missing_inputs_named),
		cmocka_unit_test(test_zero_and_not_counted),
		cmocka_unit_test(test_event_names_pfm_and_raw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

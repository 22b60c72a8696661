/* CPU models (arch/model.c, arch/model-*.c): model lookup, event-name
 * canonicalization, raw codes, counter inventories and constraints.
 *
 * Sources of the expected values:
 * - Core2 names: Levinthal, Core2 cycle accounting (seeds/000) and the VTune
 *   slides (seeds/002); event select / unit mask: Intel SDM vol. 3B.
 * - Core2 constraints: Linux arch/x86/events/intel/core.c,
 *   intel_core2_event_constraints: FIXED_EVENT_CONSTRAINT(0x00c0, 0),
 *   (0x003c, 1), (0x0300, 2); INTEL_EVENT_CONSTRAINT 0x10/0x14/0x18/0xa1/
 *   0xc9/0xcb on PMC0 (mask 0x1), 0x11/0x12/0x13/0x19 on PMC1 (mask 0x2).
 * - AMD: Drongowski, Basic Performance Measurements for AMD Athlon 64, AMD
 *   Opteron and AMD Phenom Processors (seeds/004), sections 4.2-4.6.
 * - Arm: event numbers from Linux tools/perf/pmu-events/arch/arm64/
 *   common-and-microarch.json, which core has which from perf's per-core
 *   files (arm/neoverse-n1/stall.json: STALL_FRONTEND and STALL_BACKEND
 *   only; neoverse-v1 and neoverse-n2-v2 stall.json: the slot events and
 *   STALL_BACKEND_MEM; cortex-a57-a72: no STALL_*); MIDR parts from Linux
 *   arch/arm64/include/asm/cputype.h; perf's arm64 cpuid string is the MIDR
 *   as "0x%016lx" (tools/perf/arch/arm64/util/header.c, the form of
 *   pmu-events/arch/arm64/mapfile.csv). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "arch/model.h"
#include "arch/tree.h"

static const struct arch_model *must_find(const char *name)
{
	const struct arch_model *m = model_find(name);

	if (!m) {
		fprintf(stderr, "no model %s\n", name);
		fail();
	}
	return m;
}

static const struct arch_event *must_lookup(const struct arch_model *m, const char *name)
{
	const struct arch_event *ev = model_lookup(m, name);

	if (!ev) {
		fprintf(stderr, "%s: no row for %s\n", m->name, name);
		fail();
	}
	return ev;
}

/* The row's primary name: what precedes the first '|'. */
static void primary(const struct arch_event *ev, char *out, size_t sz)
{
	size_t n = strcspn(ev->name, "|");

	snprintf(out, sz, "%.*s", (int)n, ev->name);
}

static void assert_primary(const struct arch_event *ev, const char *want)
{
	char p[128];

	assert_non_null(ev);
	primary(ev, p, sizeof(p));
	assert_string_equal(p, want);
}

/* --- model_find / model_for_tree ---------------------------------------- */

static void test_find_our_names(void **state)
{
	static const char *const names[] = { "core", "amd64_k8", "amd64_fam10h", "ia64", "perf",
		"nhm", "wsm", "snb", "ivb", "hsw", "bdw", "skl", "skx", "clx", "icl", "icx", "spr",
		"amd64_fam17h_zen1", "amd64_fam17h_zen2", "amd64_fam19h_zen3", "amd64_fam19h_zen4",
		"arm_n1", "arm_n2", "arm_v1", "arm_v2", "arm_ac53", "arm_ac57", "arm_ac72",
		"arm_ac76", "amd64_fam1ah_zen5", "emr", "gnr", "srf", "adl_grt" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(must_find(names[i])->name, names[i]);
	/* case does not matter */
	assert_ptr_equal(model_find("CORE"), model_find("core"));
	assert_ptr_equal(model_find("AMD64_Fam10h"), model_find("amd64_fam10h"));
	/* model_at enumerates exactly these, then NULL */
	size_t n = 0;
	while (model_at(n))
		n++;
	assert_int_equal(n, sizeof(names) / sizeof(names[0]));
	/* Zen models also answer to their short names; libpfm4's _ep variants
	 * are the same model */
	assert_string_equal(must_find("zen4")->name, "amd64_fam19h_zen4");
	assert_string_equal(must_find("ZEN1")->name, "amd64_fam17h_zen1");
	assert_string_equal(must_find("snb_ep")->name, "snb");
	assert_string_equal(must_find("hsw_ep")->name, "hsw");
}

static void test_find_libpfm4_pmu_names(void **state)
{
	(void)state;
	assert_string_equal(must_find("core")->pfm_force, "core");
	assert_string_equal(must_find("amd64_k8_revg")->name, "amd64_k8");
	assert_string_equal(must_find("amd64_k8_revb")->name, "amd64_k8");
	assert_string_equal(must_find("amd64_fam10h_barcelona")->name, "amd64_fam10h");
	assert_string_equal(must_find("amd64_fam10h_shanghai")->name, "amd64_fam10h");
	assert_string_equal(must_find("amd64_fam10h_istanbul")->name, "amd64_fam10h");
	/* each model forces a PMU that maps back to it, or (Emerald and
	 * Granite Rapids, encoded under libpfm4's spr) to the model of that PMU */
	for (size_t i = 0; model_at(i); i++) {
		const struct arch_model *m = model_at(i);
		if (m->pfm_force && strcmp(m->pfm_force, "spr") == 0)
			assert_string_equal(model_find(m->pfm_force)->name, "spr");
		else if (m->pfm_force)
			assert_ptr_equal(model_find(m->pfm_force), m);
	}
}

static void test_find_unknown(void **state)
{
	(void)state;
	assert_null(model_find("pentium4"));
	assert_null(model_find("knl"));      /* libpfm4 knows it; cyctop has no tables */
	assert_null(model_find("zen6"));
	assert_string_equal(must_find("zen5")->name, "amd64_fam1ah_zen5");
	assert_null(model_find("zen"));
	assert_null(model_find("amd64_fam15h_interlagos"));
	assert_null(model_find("amd64_k7"));
	assert_null(model_find(""));
	assert_null(model_find("cor"));
	/* libpfm4's Intel Core Duo/Solo PMU (i386 builds) is not Core2: no
	 * fixed counters, other events.  A bare prefix match took it for "core". */
	assert_null(model_find("coreduo"));
	assert_null(model_find("corei7"));
}

static void test_model_for_tree(void **state)
{
	(void)state;
	assert_string_equal(model_for_tree(TREE_CORE2)->name, "core");
	assert_string_equal(model_for_tree(TREE_IA64)->name, "ia64");
	assert_int_equal(model_for_tree(TREE_AMD)->tree, TREE_AMD);
	assert_string_equal(model_for_tree(TREE_SW)->name, "perf");
	assert_null(model_for_tree(TREE_NONE));
	assert_null(model_for_tree(TREE_COUNT));
	for (size_t i = 0; model_at(i); i++)
		assert_int_equal(model_for_tree(model_at(i)->tree)->tree, model_at(i)->tree);
}

/* --- event_canon ---------------------------------------------------------- */

static void assert_canon(const char *in, const char *want)
{
	char out[256];

	if (!event_canon(in, out, sizeof(out))) {
		fprintf(stderr, "event_canon(%s) failed\n", in);
		fail();
	}
	if (strcmp(out, want) != 0) {
		fprintf(stderr, "event_canon(%s) = %s, want %s\n", in, out, want);
		fail();
	}
}

static void assert_canon_rejects(const char *in)
{
	char out[256];

	if (event_canon(in, out, sizeof(out))) {
		fprintf(stderr, "event_canon(%s) accepted: %s\n", in, out);
		fail();
	}
}

static void test_canon_case_and_umask_order(void **state)
{
	(void)state;
	assert_canon("inst_retired:any_p", "INST_RETIRED:ANY_P");
	assert_canon("Ret_instructions", "RET_INSTRUCTIONS");
	assert_canon("DATA_CACHE_REFILLS:L2_SHARED:L2_EXCLUSIVE:L2_OWNED:L2_MODIFIED",
		     "DATA_CACHE_REFILLS:L2_EXCLUSIVE:L2_MODIFIED:L2_OWNED:L2_SHARED");
	assert_canon("data_cache_refills:l2_modified:l2_owned:l2_exclusive:l2_shared",
		     "DATA_CACHE_REFILLS:L2_EXCLUSIVE:L2_MODIFIED:L2_OWNED:L2_SHARED");
	assert_canon("BUS_TRANS_ANY:ALL_AGENTS:BOTH_CORES", "BUS_TRANS_ANY:ALL_AGENTS:BOTH_CORES");
	assert_canon("bus_trans_any:both_cores:all_agents", "BUS_TRANS_ANY:ALL_AGENTS:BOTH_CORES");
}

static void test_canon_modifier_spellings(void **state)
{
	static const char *const same[] = {
		"RS_UOPS_DISPATCHED:c=1:i=1",
		"RS_UOPS_DISPATCHED:i=1:c=1",
		"RS_UOPS_DISPATCHED:cmask=1:inv=1",
		"rs_uops_dispatched:INV=1:CMASK=1",
		"RS_UOPS_DISPATCHED:cmask=1:i=1",
		"RS_UOPS_DISPATCHED:c=0x1:inv=1",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		assert_canon(same[i], "RS_UOPS_DISPATCHED:C=1:I=1");
	/* modifiers in a fixed order C, E, I after the sorted unit masks */
	assert_canon("X:e=1", "X:E=1");
	assert_canon("X:edge=1", "X:E=1");
	assert_canon("X:i=1:edge=1:cmask=2:B:A", "X:A:B:C=2:E=1:I=1");
	assert_canon("X:inv=1:e=1:c=2", "X:C=2:E=1:I=1");
	assert_canon("X:c=0x10", "X:C=16");
	/* zero values are the defaults */
	assert_canon("X:c=0:i=0:e=0", "X");
}

static void test_canon_drops_privilege(void **state)
{
	(void)state;
	assert_canon("INST_RETIRED:ANY_P:u", "INST_RETIRED:ANY_P");
	assert_canon("INST_RETIRED:k:ANY_P", "INST_RETIRED:ANY_P");
	assert_canon("RS_UOPS_DISPATCHED:c=1:i=1:u=1:k=0", "RS_UOPS_DISPATCHED:C=1:I=1");
	/* libpfm4's fully qualified modifiers */
	assert_canon("CPU_CLK_UNHALTED:CORE_P:e=0:i=0:c=0:u=1:k=0:excl=0:mg=0:mh=1",
		     "CPU_CLK_UNHALTED:CORE_P");
	assert_canon("RS_UOPS_DISPATCHED:period=2000000:precise=1", "RS_UOPS_DISPATCHED");
}

static void test_canon_paper_dot_form(void **state)
{
	(void)state;
	assert_canon("MEM_LOAD_RETIRED.L2_LINE_MISS", "MEM_LOAD_RETIRED:L2_LINE_MISS");
	assert_canon("mem_load_retired.l2_line_miss", "MEM_LOAD_RETIRED:L2_LINE_MISS");
	assert_canon("BUS_MEMORY.ALL.SELF", "BUS_MEMORY:ALL:SELF");
	assert_canon("BUS_TRANS_ANY.SELF.BOTH_CORES", "BUS_TRANS_ANY:BOTH_CORES:SELF");
	/* dot form with modifiers after a colon */
	assert_canon("RS_UOPS_DISPATCHED.CYCLES_NONE:u", "RS_UOPS_DISPATCHED:CYCLES_NONE");
	/* the paper form and the libpfm4 form of one event agree */
	char a[256], b[256];
	assert_true(event_canon("LOAD_BLOCK.OVERLAP_STORE", a, sizeof(a)));
	assert_true(event_canon("load_block:overlap_store:u", b, sizeof(b)));
	assert_string_equal(a, b);
}

static void test_canon_rejects_garbage(void **state)
{
	char out[8];

	(void)state;
	assert_canon_rejects("RS_UOPS_DISPATCHED:c=x");
	assert_canon_rejects("RS_UOPS_DISPATCHED:cmask=1x");
	assert_canon_rejects("RS_UOPS_DISPATCHED:i=yes");
	assert_canon_rejects("RS_UOPS_DISPATCHED:e=1.5");
	assert_canon_rejects("RS_UOPS_DISPATCHED:c=");
	assert_canon_rejects("RS_UOPS_DISPATCHED:frobnicate=1");
	assert_canon_rejects("");
	assert_false(event_canon(NULL, out, sizeof(out)));
	/* too long for the buffer */
	assert_false(event_canon("INST_RETIRED:ANY_P", out, sizeof(out)));
	char big[400];
	memset(big, 'A', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_canon_rejects(big);
	/* more parts than it keeps */
	assert_canon_rejects("X:A:B:C:D:E1:F:G:H:I1:J:K:L:M:N:O:P:Q:R");
}

/* --- event_raw_decode ----------------------------------------------------- */

static void test_raw_decode(void **state)
{
	struct arch_code c;

	(void)state;
	/* RS_UOPS_DISPATCHED:c=1:i=1 as the Core2 paper writes it */
	memset(&c, 0xff, sizeof(c));
	assert_true(event_raw_decode("r18000a0", &c));
	assert_int_equal(c.sel, 0xa0);
	assert_int_equal(c.umask, 0x00);
	assert_int_equal(c.cmask, 1);
	assert_true(c.inv);
	assert_false(c.edge);

	/* with USR (16), INT (20) and EN (22) set: those bits are ignored */
	memset(&c, 0xff, sizeof(c));
	assert_true(event_raw_decode("r1d100a0", &c));
	assert_int_equal(c.sel, 0xa0);
	assert_int_equal(c.umask, 0x00);
	assert_int_equal(c.cmask, 1);
	assert_true(c.inv);
	assert_false(c.edge);

	/* AMD extended event select: bits 35:32 are select bits 11:8 */
	memset(&c, 0xff, sizeof(c));
	assert_true(event_raw_decode("r40000f7e0", &c));
	assert_int_equal(c.sel, 0x4e0);
	assert_int_equal(c.umask, 0xf7);
	assert_int_equal(c.cmask, 0);
	assert_false(c.inv);
	assert_false(c.edge);

	/* edge (bit 18), upper-case R, a unit mask */
	assert_true(event_raw_decode("R4023c", &c));
	assert_int_equal(c.sel, 0x3c);
	assert_int_equal(c.umask, 0x02);
	assert_true(c.edge);
	assert_false(c.inv);
	assert_int_equal(c.cmask, 0);

	/* modifiers after the code are allowed */
	assert_true(event_raw_decode("r1e42:u", &c));
	assert_int_equal(c.sel, 0x42);
	assert_int_equal(c.umask, 0x1e);
}

static void test_raw_decode_rejects(void **state)
{
	struct arch_code c;

	(void)state;
	assert_false(event_raw_decode("RS_UOPS_DISPATCHED", &c));
	assert_false(event_raw_decode("Ret_instructions", &c));
	assert_false(event_raw_decode("cycles", &c));
	assert_false(event_raw_decode("r", &c));
	assert_false(event_raw_decode("rxyz", &c));
	assert_false(event_raw_decode("r18000a0x", &c));
	assert_false(event_raw_decode("18000a0", &c));
	assert_false(event_raw_decode("", &c));
	assert_false(event_raw_decode(NULL, &c));
	/* more than 64 bits is not a config */
	assert_false(event_raw_decode("r1ffffffffffffffff", &c));
}

/* --- model_lookup --------------------------------------------------------- */

static void test_lookup_paper_names(void **state)
{
	const struct arch_model *core = must_find("core"), *k8 = must_find("amd64_k8");

	(void)state;
	assert_primary(model_lookup(core, "RS_UOPS_DISPATCHED.CYCLES_NONE"),
		       "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_primary(model_lookup(core, "CPU_CLK_UNHALTED.CORE"), "CPU_CLK_UNHALTED.CORE");
	assert_primary(model_lookup(core, "mem_load_retired.l2_line_miss"),
		       "MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_primary(model_lookup(k8, "Ret_instructions"), "Ret_instructions");
	assert_primary(model_lookup(k8, "dc_refills_l2"), "DC_refills_L2");
	/* each ILP sweep row under its own name */
	for (int k = 2; k <= 7; k++) {
		char name[64];
		snprintf(name, sizeof(name), "RS_UOPS_DISPATCHED:cmask=%d:inv=1", k);
		const struct arch_event *ev = must_lookup(core, name);
		assert_int_equal(ev->code.cmask, k);
		assert_true(ev->code.inv);
	}
	assert_null(model_lookup(core, "NO_SUCH_EVENT"));
	assert_null(model_lookup(core, "Ret_instructions"));
	assert_null(model_lookup(k8, "RS_UOPS_DISPATCHED.CYCLES_NONE"));
}

static void test_lookup_alternate_names(void **state)
{
	const struct arch_model *core = must_find("core"), *ia64 = must_find("ia64"),
				*perf = must_find("perf");

	(void)state;
	assert_primary(model_lookup(core, "LOAD_BLOCK.STORE_OVERLAP"), "LOAD_BLOCK.OVERLAP_STORE");
	assert_primary(model_lookup(core, "LOAD_BLOCKS.OVERLAP_STORE"), "LOAD_BLOCK.OVERLAP_STORE");
	assert_primary(model_lookup(core, "ILD_STALLS"), "ILD_STALL");
	assert_primary(model_lookup(core, "ild_stalls"), "ILD_STALL");
	assert_primary(model_lookup(core, "RS_UOPS_DISPATCH.CYCLES_NONE"),
		       "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_primary(model_lookup(core, "INST_RETIRED.ANY"), "INST_RETIRED.ANY_P");
	assert_primary(model_lookup(core, "MEM_LOAD_RETIRED.L1_LINE_MISS"),
		       "MEM_LOAD_RETIRED.L1D_LINE_MISS");
	assert_primary(model_lookup(core, "LOAD_BLOCKS.ADR"), "LOAD_BLOCK.STA");
	assert_primary(model_lookup(ia64, "CPU_OP_CYCLES_ALL"), "CPU_CYCLES");
	assert_primary(model_lookup(perf, "cs"), "context-switches");
	assert_primary(model_lookup(perf, "cpu-cycles"), "cycles");
	/* a part of an alternate is no name */
	assert_null(model_lookup(core, "LOAD_BLOCK"));
	assert_null(model_lookup(core, "ILD_STAL"));
}

static void test_lookup_libpfm4_strings(void **state)
{
	const struct arch_model *core = must_find("core"), *k8 = must_find("amd64_k8"),
				*f10 = must_find("amd64_fam10h");

	(void)state;
	static const char *const stalls[] = {
		"RS_UOPS_DISPATCHED:c=1:i=1",
		"RS_UOPS_DISPATCHED:i=1:c=1",
		"rs_uops_dispatched:inv=1:cmask=1",
		"RS_UOPS_DISPATCHED:cmask=1:inv=1:u",
		"RS_UOPS_DISPATCHED:e=0:i=1:c=1:u=1:k=0:excl=0:mg=0:mh=1",
	};
	for (size_t i = 0; i < sizeof(stalls) / sizeof(stalls[0]); i++)
		assert_primary(model_lookup(core, stalls[i]), "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_primary(model_lookup(core, "RS_UOPS_DISPATCHED:c=1"),
		       "RS_UOPS_DISPATCHED.CYCLES_ANY");
	assert_primary(model_lookup(core, "RS_UOPS_DISPATCHED:c=4:i=1"),
		       "RS_UOPS_DISPATCHED:cmask=4:inv=1");
	assert_primary(model_lookup(core, "cpu_clk_unhalted:core_p"), "CPU_CLK_UNHALTED.CORE");
	assert_primary(model_lookup(core, "BUS_TRANS_BURST:ALL_AGENTS:BOTH_CORES"),
		       "BUS_TRANS_BURST.ALL_AGENTS");
	assert_primary(model_lookup(k8, "data_cache_refills:l2_modified:l2_owned:l2_exclusive:"
					"l2_shared"), "DC_refills_L2");
	assert_primary(model_lookup(k8, "RETIRED_INSTRUCTIONS"), "Ret_instructions");
	assert_primary(model_lookup(f10, "L3_CACHE_MISSES:ALL_CORES:ANY_READ"), "L3_misses");
	assert_primary(model_lookup(f10, "DRAM_ACCESSES_PAGE:DCT1_PAGE_CONFLICT:DCT1_PAGE_MISS:"
					 "DCT1_PAGE_HIT"), "DRAM_accesses_1");
	/* a different modifier is a different event */
	assert_null(model_lookup(core, "RS_UOPS_DISPATCHED:c=1:i=1:e=1"));
	assert_null(model_lookup(core, "RS_UOPS_DISPATCHED:c=8:i=1"));
	assert_null(model_lookup(k8, "DATA_CACHE_REFILLS:L2_SHARED"));
}

static void test_lookup_raw_codes(void **state)
{
	const struct arch_model *core = must_find("core"), *k8 = must_find("amd64_k8"),
				*f10 = must_find("amd64_fam10h"), *perf = must_find("perf");

	(void)state;
	assert_primary(model_lookup(core, "r18000a0"), "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_primary(model_lookup(core, "r1d100a0"), "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_primary(model_lookup(core, "r10000a0"), "RS_UOPS_DISPATCHED.CYCLES_ANY");
	assert_primary(model_lookup(core, "r38000a0"), "RS_UOPS_DISPATCHED:cmask=3:inv=1");
	assert_primary(model_lookup(core, "r8cb"), "MEM_LOAD_RETIRED.L2_LINE_MISS");
	assert_primary(model_lookup(core, "r3c"), "CPU_CLK_UNHALTED.CORE");
	assert_primary(model_lookup(k8, "r1e42"), "DC_refills_L2");
	assert_primary(model_lookup(k8, "rfcb"), "Ret_MMX_FP");
	assert_primary(model_lookup(f10, "r7cb"), "Ret_MMX_FP");
	assert_primary(model_lookup(f10, "r40000f7e0"), "L3_requests");
	assert_primary(model_lookup(f10, "r40000f7e1"), "L3_misses");
	/* the family decides: K8's Ret_MMX_FP is 0x0F, not 0x07 */
	assert_null(model_lookup(k8, "r7cb"));
	assert_null(model_lookup(k8, "r40000f7e0"));
	/* a code no row has */
	assert_null(model_lookup(core, "r18000a1"));
	/* raw codes mean nothing for software events */
	assert_null(model_lookup(perf, "r0"));
}

/* --- inventories and constraints ------------------------------------------ */

static void test_inventories(void **state)
{
	(void)state;
	const struct arch_model *core = must_find("core");
	assert_int_equal(core->n_generic, 2);
	assert_int_equal(core->n_fixed, 3);
	assert_int_equal(core->tree, TREE_CORE2);
	assert_int_equal(must_find("amd64_k8")->n_generic, 4);
	assert_int_equal(must_find("amd64_k8")->n_fixed, 0);
	assert_int_equal(must_find("amd64_fam10h")->n_generic, 4);
	assert_int_equal(must_find("amd64_fam10h")->n_fixed, 0);
	assert_int_equal(must_find("ia64")->n_generic, 4);
	assert_int_equal(must_find("ia64")->n_fixed, 0);
	assert_null(must_find("ia64")->pfm_force);
	/* the reference cycle event of every model is one of its rows */
	for (size_t i = 0; model_at(i); i++)
		must_lookup(model_at(i), model_at(i)->cycles);
	assert_string_equal(core->ilp_event, "RS_UOPS_DISPATCHED");
	must_lookup(core, core->ilp_event);
}

static void test_core2_constraints(void **state)
{
	const struct arch_model *core = must_find("core");
	const struct arch_event *ev;

	(void)state;
	static const char *const pmc0_only[] = {
		"MEM_LOAD_RETIRED.L1D_MISS", "MEM_LOAD_RETIRED.L1D_LINE_MISS",
		"MEM_LOAD_RETIRED.L2_MISS", "MEM_LOAD_RETIRED.L2_LINE_MISS",
		"MEM_LOAD_RETIRED.DTLB_MISS", "IDLE_DURING_DIV",
	};
	for (size_t i = 0; i < sizeof(pmc0_only) / sizeof(pmc0_only[0]); i++) {
		ev = must_lookup(core, pmc0_only[i]);
		assert_true(event_fits_counter(ev, 0));
		assert_false(event_fits_counter(ev, 1));
		assert_int_equal(ev->fixed, -1);
	}
	ev = must_lookup(core, "FP_ASSIST");
	assert_false(event_fits_counter(ev, 0));
	assert_true(event_fits_counter(ev, 1));

	ev = must_lookup(core, "CPU_CLK_UNHALTED.CORE");
	assert_int_equal(ev->fixed, 1);
	assert_true(event_fits_counter(ev, 0));
	assert_true(event_fits_counter(ev, 1));
	ev = must_lookup(core, "INST_RETIRED.ANY_P");
	assert_int_equal(ev->fixed, 0);
	assert_true(event_fits_counter(ev, 0));
	assert_true(event_fits_counter(ev, 1));

	ev = must_lookup(core, "RS_UOPS_DISPATCHED.CYCLES_NONE");
	assert_true(event_fits_counter(ev, 0));
	assert_true(event_fits_counter(ev, 1));
	assert_int_equal(ev->fixed, -1);
	/* CPU_CLK_UNHALTED.BUS is 0x3c with umask 1: not the fixed counter's event */
	assert_int_equal(must_lookup(core, "CPU_CLK_UNHALTED.BUS")->fixed, -1);
}

/* Every Core2 row against the kernel's table, by event select. */
static void check_core2_row(const struct arch_event *ev, void *arg)
{
	int *n = arg;
	uint8_t want = 0;
	int fixed = -1;

	switch (ev->code.sel) {
	case 0x10: case 0x14: case 0x18: case 0xa1: case 0xc9: case 0xcb:
		want = 0x1;
		break;
	case 0x11: case 0x12: case 0x13: case 0x19:
		want = 0x2;
		break;
	default:
		break;
	}
	if (ev->code.sel == 0xc0 && ev->code.umask == 0 && !ev->code.cmask)
		fixed = 0;
	if (ev->code.sel == 0x3c && ev->code.umask == 0 && !ev->code.cmask)
		fixed = 1;
	if (ev->counters != want || ev->fixed != fixed) {
		fprintf(stderr, "%s: counters 0x%x fixed %d, want 0x%x fixed %d\n", ev->name,
			ev->counters, ev->fixed, want, fixed);
		fail();
	}
	(*n)++;
}

static void check_unconstrained(const struct arch_event *ev, void *arg)
{
	int *n = arg;

	if (ev->counters != 0 || ev->fixed != -1) {
		fprintf(stderr, "%s: counters 0x%x fixed %d\n", ev->name, ev->counters, ev->fixed);
		fail();
	}
	for (int c = 0; c < 4; c++)
		assert_true(event_fits_counter(ev, c));
	(*n)++;
}

static void test_constraint_tables(void **state)
{
	int n = 0;

	(void)state;
	model_foreach(must_find("core"), check_core2_row, &n);
	assert_true(n > 40);
	/* AMD K8/Fam10h and IA-64 rows: any of the 4 counters */
	n = 0;
	model_foreach(must_find("amd64_k8"), check_unconstrained, &n);
	model_foreach(must_find("amd64_fam10h"), check_unconstrained, &n);
	model_foreach(must_find("ia64"), check_unconstrained, &n);
	assert_true(n > 60);
}

/* --- AMD family-dependent rows --------------------------------------------- */

static void assert_umask(const struct arch_model *m, const char *name, unsigned sel,
			 unsigned umask)
{
	const struct arch_event *ev = must_lookup(m, name);

	if (ev->code.sel != sel || ev->code.umask != umask) {
		fprintf(stderr, "%s %s: sel 0x%x umask 0x%02x, want 0x%x 0x%02x\n", m->name,
			name, ev->code.sel, ev->code.umask, sel, umask);
		fail();
	}
}

static void test_amd_family_rows(void **state)
{
	const struct arch_model *k8 = must_find("amd64_k8"), *f10 = must_find("amd64_fam10h");

	(void)state;
	assert_umask(k8, "DTLB_L1M_L2H", 0x45, 0x00);
	assert_umask(f10, "DTLB_L1M_L2H", 0x45, 0x07);
	assert_umask(k8, "DTLB_L1M_L2M", 0x46, 0x00);
	assert_umask(f10, "DTLB_L1M_L2M", 0x46, 0x07);
	assert_umask(k8, "ITLB_L1M_L2M", 0x85, 0x00);
	assert_umask(f10, "ITLB_L1M_L2M", 0x85, 0x03);
	assert_umask(k8, "Ret_MMX_FP", 0xcb, 0x0f);
	assert_umask(f10, "Ret_MMX_FP", 0xcb, 0x07);
	/* common rows are the same on both */
	assert_umask(k8, "DC_refills_L2", 0x42, 0x1e);
	assert_umask(f10, "DC_refills_L2", 0x42, 0x1e);
	assert_umask(k8, "CPU_clocks", 0x76, 0x00);
	assert_umask(f10, "Ret_instructions", 0xc0, 0x00);
	assert_umask(k8, "DRAM_accesses", 0xe0, 0x07);

	assert_int_equal(k8->write_bytes, 8);
	assert_int_equal(f10->write_bytes, 16);

	/* Fam10h only: second DRAM controller, L3, SSE FLOPS */
	static const char *const f10_only[] = {
		"DRAM_accesses_0", "DRAM_accesses_1", "L3_requests", "L3_misses",
		"SSE_SP_FLOPS", "SSE_DP_FLOPS",
	};
	for (size_t i = 0; i < sizeof(f10_only) / sizeof(f10_only[0]); i++) {
		assert_null(model_lookup(k8, f10_only[i]));
		must_lookup(f10, f10_only[i]);
	}
	assert_umask(f10, "DRAM_accesses_0", 0xe0, 0x07);
	assert_umask(f10, "DRAM_accesses_1", 0xe0, 0x38);
	assert_umask(f10, "L3_requests", 0x4e0, 0xf7);
	assert_umask(f10, "L3_misses", 0x4e1, 0xf7);
	assert_umask(f10, "SSE_SP_FLOPS", 0x03, 0x47);
	assert_umask(f10, "SSE_DP_FLOPS", 0x03, 0x78);
}

/* --- table hygiene -------------------------------------------------------- */

struct hygiene {
	const char *names[256];
	int n;
	const struct arch_model *model;
};

static void check_row(const struct arch_event *ev, void *arg)
{
	struct hygiene *h = arg;
	char p[128];

	assert_non_null(ev->name);
	assert_true(ev->name[0] != '\0');
	assert_non_null(ev->desc);
	assert_true(ev->desc[0] != '\0');
	/* no empty alternate */
	assert_null(strstr(ev->name, "||"));
	assert_true(ev->name[strlen(ev->name) - 1] != '|');
	primary(ev, p, sizeof(p));
	for (int i = 0; i < h->n; i++) {
		char q[128];
		size_t n = strcspn(h->names[i], "|");
		snprintf(q, sizeof(q), "%.*s", (int)n, h->names[i]);
		if (strcasecmp(p, q) == 0) {
			fprintf(stderr, "%s: two rows named %s\n", h->model->name, p);
			fail();
		}
	}
	/* every name of the row finds this row */
	for (const char *s = ev->name; *s;) {
		size_t n = strcspn(s, "|");
		char alt[128];
		snprintf(alt, sizeof(alt), "%.*s", (int)n, s);
		if (model_lookup(h->model, alt) != ev) {
			fprintf(stderr, "%s: %s does not find its row\n", h->model->name, alt);
			fail();
		}
		s += n + (s[n] == '|');
	}
	/* x86 hardware rows carry a libpfm4 string; IA-64 has none */
	if (h->model->pfm_force)
		assert_non_null(ev->pfm);
	if (h->model->tree == TREE_IA64)
		assert_null(ev->pfm);
	assert_true(h->n < (int)(sizeof(h->names) / sizeof(h->names[0])));
	h->names[h->n++] = ev->name;
}

static void test_table_hygiene(void **state)
{
	(void)state;
	for (size_t i = 0; model_at(i); i++) {
		struct hygiene h = { .n = 0, .model = model_at(i) };
		model_foreach(h.model, check_row, &h);
		assert_true(h.n > 0);
		assert_non_null(h.model->desc);
		assert_non_null(h.model->cycles);
	}
}

static void test_tree_names(void **state)
{
	(void)state;
	for (int t = 0; t < TREE_COUNT; t++)
		assert_int_equal(tree_from_name(tree_name((enum arch_tree)t)), t);
	assert_string_equal(tree_name(TREE_CORE2), "core2");
	assert_string_equal(tree_name(TREE_NONE), "none");
	assert_int_equal(tree_from_name("AMD"), TREE_AMD);
	assert_int_equal(tree_from_name("k8"), TREE_NONE);
}

/* t's walk: each model's own trees, its own first, the generic last (the
 * software tree, and the wall tree, shown where off-cpu was counted); the
 * papers' trees (Core2, IA-64) only on their CPUs; every name from the
 * trees' table. */
static void assert_trees(const char *model, const char *want)
{
	enum arch_tree ids[TREE_COUNT];
	char got[128] = "";
	int n = tree_model_trees(model_find(model), ids);

	for (int k = 0; k < n; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? " " : "",
			 tree_name(ids[k]));
	if (strcmp(got, want) != 0)
		fail_msg("%s: trees '%s', want '%s'", model, got, want);
}

static void test_model_trees(void **state)
{
	enum arch_tree ids[TREE_COUNT];

	(void)state;
	assert_trees("skl", "intel topdown sw wall");
	assert_trees("amd64_fam19h_zen4", "zen amd topdown sw wall");
	assert_trees("amd64_fam1ah_zen5", "zen topdown sw wall");
	assert_trees("amd64_k8", "amd sw wall");
	assert_trees("core", "core2 sw wall");
	assert_trees("ia64", "ia64 sw wall");
	assert_trees("arm_v2", "arm topdown sw wall");
	assert_trees("arm_n1", "arm sw wall");
	assert_trees("perf", "sw wall");
	assert_int_equal(tree_model_trees(NULL, ids), 0);
	assert_true(tree_is_generic(TREE_SW));
	assert_false(tree_is_generic(TREE_CORE2));
	assert_false(tree_fits_model(TREE_CORE2, model_find("skl")));
	assert_true(tree_fits_model(TREE_SW, model_find("skl")));
	/* every id of the table once, each with its name */
	int n = tree_all_ids(ids);
	assert_int_equal(n, TREE_COUNT);
	for (int k = 0; k < n; k++)
		assert_int_equal(tree_from_name(tree_name(ids[k])), ids[k]);
}

static void test_model_from_cpuid(void **state)
{
	(void)state;
	assert_string_equal(model_from_cpuid("GenuineIntel,6,23,10")->name, "core");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,15,11")->name, "core");
	assert_string_equal(model_from_cpuid("AuthenticAMD,15,65,2")->name, "amd64_k8");
	assert_string_equal(model_from_cpuid("AuthenticAMD,16,2,3")->name, "amd64_fam10h");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,85,4")->name, "skx");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,85,7")->name, "clx");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,26,5")->name, "nhm");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,42,7")->name, "snb");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,63,2")->name, "hsw");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,158,10")->name, "skl");  /* Coffee Lake */
	assert_string_equal(model_from_cpuid("GenuineIntel,6,126,5")->name, "icl");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,167,1")->name, "icl");   /* Rocket Lake */
	assert_string_equal(model_from_cpuid("GenuineIntel,6,106,6")->name, "icx");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,143,8")->name, "spr");
	assert_null(model_from_cpuid("GenuineIntel,6,151,2"));   /* Alder Lake: hybrid, no model */
	assert_string_equal(model_from_cpuid("AuthenticAMD,23,1,1")->name, "amd64_fam17h_zen1");
	assert_string_equal(model_from_cpuid("AuthenticAMD,23,49,0")->name, "amd64_fam17h_zen2");
	assert_string_equal(model_from_cpuid("AuthenticAMD,25,1,1")->name, "amd64_fam19h_zen3");
	assert_string_equal(model_from_cpuid("AuthenticAMD,25,33,0")->name, "amd64_fam19h_zen3");
	assert_string_equal(model_from_cpuid("AuthenticAMD,25,97,2")->name, "amd64_fam19h_zen4");
	assert_string_equal(model_from_cpuid("AuthenticAMD,25,17,1")->name, "amd64_fam19h_zen4");
	/* the CPUs after libpfm4 4.13's, as perf's mapfile.csv (Linux 6.12) */
	assert_string_equal(model_from_cpuid("AuthenticAMD,26,2,0")->name, "amd64_fam1ah_zen5");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,173,1")->name, "gnr");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,174,0")->name, "gnr");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,207,2")->name, "emr");
	assert_string_equal(model_from_cpuid("GenuineIntel,6,175,3")->name, "srf");
	assert_null(model_from_cpuid("GenuineIntel"));
	assert_null(model_from_cpuid(""));
	assert_null(model_from_cpuid(NULL));
}

/* The modern models: the asm view's references and penalties are rows, the
 * inventories are the kernel's (../shared/MODERN-PMU.md 3.2). */
static void test_modern_model_fields(void **state)
{
	static const struct { const char *name; int gp, gp_nosmt, fixed, metrics, ilp; } inv[] = {
		{ "nhm", 4, 4, 3, 0, 6 }, { "snb", 4, 8, 3, 0, 6 }, { "hsw", 4, 8, 3, 0, 8 },
		{ "skl", 4, 8, 3, 0, 8 }, { "clx", 4, 8, 3, 0, 8 }, { "icl", 8, 8, 4, 4, 10 },
		{ "icx", 8, 8, 4, 4, 10 }, { "spr", 8, 8, 4, 8, 12 },
		{ "amd64_fam17h_zen1", 6, 6, 0, 0, 8 }, { "amd64_fam19h_zen4", 6, 6, 0, 0, 8 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(inv) / sizeof(inv[0]); i++) {
		const struct arch_model *m = must_find(inv[i].name);
		assert_int_equal(m->n_generic, inv[i].gp);
		assert_int_equal(m->n_generic_nosmt, inv[i].gp_nosmt);
		assert_int_equal(m->n_fixed, inv[i].fixed);
		assert_int_equal(m->n_metrics, inv[i].metrics);
		assert_int_equal(m->dispatch_width, inv[i].ilp);
		assert_non_null(model_lookup(m, m->cycles));
		assert_non_null(model_lookup(m, m->stall_event));
		assert_non_null(model_lookup(m, m->inst_event));
		for (const struct model_penalty *p = m->penalties; p && p->event; p++)
			assert_non_null(model_lookup(m, p->event));
		if (m->n_metrics) {
			const struct arch_event *slots = model_lookup(m, m->slots_event);
			assert_non_null(slots);
			assert_int_equal(slots->fixed, 3);
			assert_false(event_fits_counter(slots, 0));  /* FIXED3 only */
			assert_true(event_is_metric(m, model_lookup(m, "topdown-retiring")));
			assert_false(event_is_metric(m, slots));
		}
	}
	/* the stall term: UOPS_EXECUTED stall cycles or STALLS_TOTAL on Intel,
	 * no-retire cycles on Zen, the core-scope stall on Nehalem */
	assert_string_equal(must_find("skl")->stall_event, "CYCLE_ACTIVITY.STALLS_TOTAL");
	assert_string_equal(must_find("hsw")->stall_event, "UOPS_EXECUTED.STALL_CYCLES");
	assert_int_equal(model_lookup(must_find("hsw"), "UOPS_EXECUTED.STALL_CYCLES")->code.cmask, 1);
	assert_string_equal(must_find("zen4")->stall_event, "RETIRED_OPS:c=1:i=1");
	assert_string_equal(must_find("nhm")->stall_event, "UOPS_EXECUTED.CORE_STALL_CYCLES");
	assert_non_null(must_find("nhm")->penalties);
	assert_null(must_find("skl")->penalties);   /* direct stall-cycle events */
	/* no metric events without PERF_METRICS */
	assert_false(event_is_metric(must_find("skl"), model_lookup(must_find("skl"),
								  "CPU_CLK_UNHALTED.THREAD")));
}

/* Every spelling the issue lists names the same row: perfmon, perf's
 * lowercase names (also with perf stat's :u suffix), libpfm4's string with
 * or without its PMU, NAME:c=k:i=1, perf's cpu/.../ with fields or a name,
 * cpu_core/.../, rNNNN. */
static void test_modern_spellings(void **state)
{
	const struct arch_model *skl = must_find("skl"), *spr = must_find("spr"),
				*zen4 = must_find("zen4"), *icl = must_find("icl");

	(void)state;
	const struct arch_event *stall = model_lookup(skl, "UOPS_EXECUTED.STALL_CYCLES");
	assert_non_null(stall);
	static const char *const stall_names[] = {
		"uops_executed.stall_cycles", "UOPS_EXECUTED.THREAD:c=1:i=1",
		"uops_executed.thread:cmask=1:inv=1", "UOPS_EXECUTED:THREAD:c=1:i=1",
		"skl::UOPS_EXECUTED:STALL_CYCLES", "cpu/event=0xb1,umask=0x1,cmask=1,inv/",
		"cpu/event=0xb1,umask=0x01,cmask=0x1,inv=1/u", "cpu/UOPS_EXECUTED.THREAD,cmask=1,inv/",
		"cpu_core/uops_executed.thread,cmask=1,inv/", "r18001b1", "uops_executed.stall_cycles:u",
		"UOPS_EXECUTED.THREAD:c1:i1",   /* toplev's spelling */
	};
	for (size_t i = 0; i < sizeof(stall_names) / sizeof(stall_names[0]); i++) {
		if (model_lookup(skl, stall_names[i]) != stall)
			fprintf(stderr, "'%s' is not the stall row\n", stall_names[i]);
		assert_ptr_equal(model_lookup(skl, stall_names[i]), stall);
	}
	const struct arch_event *c6 = model_lookup(skl, "UOPS_EXECUTED.THREAD:c=6");
	assert_non_null(c6);
	assert_ptr_equal(model_lookup(skl, "cpu/UOPS_EXECUTED.THREAD,cmask=0x6/"), c6);
	assert_ptr_equal(model_lookup(skl, "uops_executed.thread:c=6"), c6);
	assert_ptr_equal(model_lookup(skl, "r60001b1"), c6);
	assert_ptr_equal(model_lookup(skl, "UOPS_EXECUTED.THREAD:c6"), c6);
	/* toplev's :amt1 (AnyThread) */
	assert_ptr_equal(model_lookup(skl, "INT_MISC.RECOVERY_CYCLES:amt1"),
			 model_lookup(skl, "INT_MISC.RECOVERY_CYCLES_ANY"));
	assert_ptr_equal(model_lookup(skl, "CPU_CLK_UNHALTED.THREAD_P:amt1"),
			 model_lookup(skl, "CPU_CLK_UNHALTED.THREAD_ANY"));
	/* PERF_METRICS and slots by the kernel's names */
	assert_ptr_equal(model_lookup(spr, "topdown-be-bound"), model_lookup(spr, "PERF_METRICS.BACKEND_BOUND"));
	assert_ptr_equal(model_lookup(spr, "cpu/topdown-retiring/"), model_lookup(spr, "PERF_METRICS.RETIRING"));
	assert_ptr_equal(model_lookup(icl, "slots"), model_lookup(icl, "TOPDOWN.SLOTS"));
	assert_null(model_lookup(icl, "topdown-heavy-ops"));   /* SPR's 8, ICL's 4 */
	assert_ptr_equal(model_lookup(spr, "r8000"), model_lookup(spr, "topdown-retiring"));
	/* AMD: perf's names, the ILP sweep, the no-retire split */
	assert_ptr_equal(model_lookup(zen4, "ex_ret_ops"), model_lookup(zen4, "RETIRED_OPS"));
	assert_ptr_equal(model_lookup(zen4, "ex_ret_ops:u"), model_lookup(zen4, "RETIRED_OPS"));
	assert_ptr_equal(model_lookup(zen4, "de_no_dispatch_per_slot.no_ops_from_frontend"),
			 model_lookup(zen4, "DISPATCH_STALLS_1.FE_NO_OPS"));
	assert_ptr_equal(model_lookup(zen4, "cpu/de_no_dispatch_per_slot.no_ops_from_frontend,cmask=0x6/"),
			 model_lookup(zen4, "DISPATCH_STALLS_1.FE_NO_OPS:c=6"));
	assert_ptr_equal(model_lookup(zen4, "cpu/event=0xc1,cmask=3/"), model_lookup(zen4, "ex_ret_ops:c=3"));
	assert_ptr_equal(model_lookup(zen4, "r1000001a0"), model_lookup(zen4, "DISPATCH_STALLS_1.FE_NO_OPS"));
	assert_ptr_equal(model_lookup(zen4, "ls_not_halted_cyc"), model_lookup(zen4, "CYCLES_NOT_IN_HALT"));
	/* not this model's: another PMU's qualified name, a malformed term */
	assert_null(model_lookup(skl, "spr::UOPS_EXECUTED:STALLS"));
	assert_null(model_lookup(skl, "cpu/event=0xb1,bogus=1/"));
	assert_null(model_lookup(skl, "cpu/event=0x1b1/"));   /* no such row */
}

/* perf's PMU syntax parser. */
static void test_perf_syntax(void **state)
{
	struct perf_pmu_event e;

	(void)state;
	assert_true(event_perf_syntax("cpu/event=0xb1,umask=0x1,cmask=1,inv/", &e));
	assert_string_equal(e.pmu, "cpu");
	assert_true(e.has_event);
	assert_int_equal(event_code_config(&e.code), 0x18001b1);
	assert_true(event_perf_syntax("cpu_core/UOPS_EXECUTED.THREAD,cmask=0x6/", &e));
	assert_string_equal(e.pmu, "cpu_core");
	assert_string_equal(e.name, "UOPS_EXECUTED.THREAD");
	assert_int_equal(e.code.cmask, 6);
	assert_false(e.has_event);
	assert_true(event_perf_syntax("cpu/config=0x1a03fb1/", &e));
	assert_int_equal(event_code_config(&e.code), 0x1a03fb1);
	assert_true(e.code.any);
	assert_true(event_perf_syntax("cpu/event=0x1a0,umask=0x1/", &e));
	assert_int_equal(event_code_config(&e.code), 0x1000001a0);
	assert_false(event_perf_syntax("UOPS_EXECUTED.THREAD", &e));
	assert_false(event_perf_syntax("cycles/1000", &e));
	assert_false(event_perf_syntax("cpu//", &e));
	assert_false(event_perf_syntax("cpu/event=zz/", &e));
	assert_false(event_perf_syntax("cpu/event=0x3c,,umask=1/", &e));
	assert_false(event_perf_syntax("/event=0x3c/", &e));
}


/* --- Arm ------------------------------------------------------------------ */

static const char *const arm_models[] = { "arm_n1", "arm_n2", "arm_v1", "arm_v2",
	"arm_ac53", "arm_ac57", "arm_ac72", "arm_ac76" };

static void test_arm_inventory(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(arm_models) / sizeof(arm_models[0]); i++) {
		const struct arch_model *m = must_find(arm_models[i]);
		/* PMCR_EL0.N = 6 and the cycle counter, which takes CPU_CYCLES only */
		assert_int_equal(m->n_generic, 6);
		assert_int_equal(m->n_fixed, 1);
		assert_int_equal(m->encoding, ENC_ARMV8);
		assert_null(m->pfm_force);
		assert_true(model_is_hardware(m));
		assert_int_equal(m->tree, TREE_ARM);
		assert_string_equal(m->cycles, "CPU_CYCLES");
		/* no counter threshold: no sweep, one line saying why */
		assert_null(m->ilp_event);
		assert_null(m->ilp_sweep);
		assert_int_equal(m->dispatch_width, 0);
		assert_non_null(strstr(m->no_ilp, "FEAT_PMUv3_TH"));
		assert_null(strchr(m->no_ilp, '\n'));
		const struct arch_event *cyc = must_lookup(m, "CPU_CYCLES");
		assert_int_equal(cyc->fixed, 0);
		for (int k = 0; k < 6; k++)
			assert_true(event_fits_counter(cyc, k));
		const struct arch_event *inst = must_lookup(m, "INST_RETIRED");
		assert_int_equal(inst->fixed, -1);
		assert_non_null(inst->pfm);
	}
	assert_false(model_is_hardware(must_find("perf")));
	assert_false(model_is_hardware(must_find("ia64")));
	assert_true(model_is_hardware(must_find("skl")));
	/* the TopDown slot defaults: V1 8 (perf's CPU_CYCLES * 8), N2 5, V2 8;
	 * none where the core has no slot events */
	assert_int_equal(must_find("arm_v1")->pipeline_width, 8);
	assert_int_equal(must_find("arm_n2")->pipeline_width, 5);
	assert_int_equal(must_find("arm_v2")->pipeline_width, 8);
	assert_int_equal(must_find("arm_n1")->pipeline_width, 0);
}

/* common-and-microarch.json EventCode of each name */
static const struct { const char *name; unsigned code; } arm_codes[] = {
	{ "CPU_CYCLES", 0x11 }, { "INST_RETIRED", 0x08 }, { "INST_SPEC", 0x1b },
	{ "BR_MIS_PRED", 0x10 }, { "BR_PRED", 0x12 }, { "BR_MIS_PRED_RETIRED", 0x22 },
	{ "BR_RETIRED", 0x21 }, { "L1D_CACHE_REFILL", 0x03 }, { "L1D_CACHE", 0x04 },
	{ "L2D_CACHE_REFILL", 0x17 }, { "L2D_CACHE", 0x16 }, { "MEM_ACCESS", 0x13 },
	{ "LL_CACHE_RD", 0x36 }, { "LL_CACHE_MISS_RD", 0x37 }, { "STALL_FRONTEND", 0x23 },
	{ "STALL_BACKEND", 0x24 }, { "OP_RETIRED", 0x3a }, { "OP_SPEC", 0x3b },
	{ "STALL", 0x3c }, { "STALL_SLOT_BACKEND", 0x3d }, { "STALL_SLOT_FRONTEND", 0x3e },
	{ "STALL_SLOT", 0x3f }, { "STALL_BACKEND_MEM", 0x4005 }, { "DTLB_WALK", 0x34 },
	{ "ITLB_WALK", 0x35 }, { "L1I_CACHE_REFILL", 0x01 }, { "L1D_TLB_REFILL", 0x05 },
};

static void test_arm_event_numbers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(arm_models) / sizeof(arm_models[0]); i++) {
		const struct arch_model *m = must_find(arm_models[i]);
		for (size_t k = 0; k < sizeof(arm_codes) / sizeof(arm_codes[0]); k++) {
			const struct arch_event *ev = model_lookup(m, arm_codes[k].name);
			if (!ev)
				continue;
			assert_int_equal(ev->code.sel, arm_codes[k].code);
			assert_int_equal(model_code_config(m, &ev->code), arm_codes[k].code);
			assert_int_equal(ev->code.umask, 0);
		}
	}
	/* which core has which (perf's per-core JSON) */
	static const struct { const char *model, *event; bool has; } has[] = {
		{ "arm_n1", "STALL_FRONTEND", true }, { "arm_n1", "INST_SPEC", true },
		{ "arm_n1", "OP_RETIRED", false }, { "arm_n1", "STALL_SLOT", false },
		{ "arm_n1", "STALL_BACKEND_MEM", false }, { "arm_n1", "LL_CACHE_MISS_RD", true },
		{ "arm_ac76", "STALL_BACKEND", true }, { "arm_ac76", "OP_SPEC", false },
		{ "arm_ac57", "INST_SPEC", true }, { "arm_ac57", "STALL_FRONTEND", false },
		{ "arm_ac72", "STALL_BACKEND", false }, { "arm_ac53", "INST_SPEC", false },
		{ "arm_v1", "STALL_BACKEND_MEM", true }, { "arm_n2", "STALL_SLOT_FRONTEND", true },
		{ "arm_v2", "OP_RETIRED", true }, { "arm_v2", "STALL", true },
	};
	for (size_t i = 0; i < sizeof(has) / sizeof(has[0]); i++) {
		bool found = model_lookup(must_find(has[i].model), has[i].event) != NULL;
		if (found != has[i].has)
			fprintf(stderr, "%s %s: %d\n", has[i].model, has[i].event, found);
		assert_true(found == has[i].has);
	}
}

static void test_arm_names_and_raw(void **state)
{
	const struct arch_model *n1 = must_find("arm_n1"), *v2 = must_find("arm_v2");
	struct arch_code c;

	(void)state;
	/* perf's sysfs aliases are lower case */
	assert_ptr_equal(must_lookup(n1, "inst_retired"), must_lookup(n1, "INST_RETIRED"));
	assert_ptr_equal(must_lookup(n1, "stall_backend"), must_lookup(n1, "STALL_BACKEND"));
	assert_ptr_equal(must_lookup(n1, "cpu_cycles"), must_lookup(n1, "CPU_CYCLES"));
	/* rNNNN is the event number, as perf's armv8 format event=config:0-15 */
	assert_ptr_equal(must_lookup(n1, "r11"), must_lookup(n1, "CPU_CYCLES"));
	assert_ptr_equal(must_lookup(n1, "r08"), must_lookup(n1, "INST_RETIRED"));
	assert_ptr_equal(must_lookup(v2, "r4005"), must_lookup(v2, "STALL_BACKEND_MEM"));
	assert_null(model_lookup(n1, "r4005"));   /* N1 has no STALL_BACKEND_MEM */
	assert_null(model_lookup(n1, "r10011"));  /* wider than 16 bits */
	assert_true(model_raw_decode(v2, "r4005", &c));
	assert_int_equal(c.sel, 0x4005);
	assert_int_equal(c.umask, 0);
	assert_int_equal(model_code_config(v2, &c), 0x4005);
	assert_false(model_raw_decode(v2, "r10000", &c));
	assert_false(model_raw_decode(v2, "rxyz", &c));
	/* the same string is a PERFEVTSEL on x86: event 0x05, umask 0x40 */
	assert_true(model_raw_decode(must_find("skl"), "r4005", &c));
	assert_int_equal(c.sel, 0x05);
	assert_int_equal(c.umask, 0x40);
	assert_int_equal(model_code_config(NULL, &c), 0x4005);
	/* perf's PMU syntax with event= or config= */
	assert_ptr_equal(model_lookup(v2, "armv8_pmuv3_0/event=0x4005/"),
			 must_lookup(v2, "STALL_BACKEND_MEM"));
	assert_ptr_equal(model_lookup(v2, "armv8_pmuv3_0/config=0x4005/"),
			 must_lookup(v2, "STALL_BACKEND_MEM"));
	assert_ptr_equal(model_lookup(n1, "armv8_neoverse_n1/event=0x11/"),
			 must_lookup(n1, "CPU_CYCLES"));
	/* libpfm4's qualified names */
	assert_ptr_equal(model_lookup(n1, "arm_n1::CPU_CYCLES"), must_lookup(n1, "CPU_CYCLES"));
	assert_null(model_lookup(n1, "arm_v2::CPU_CYCLES"));
	/* unknown names stay unknown */
	assert_null(model_lookup(n1, "cycles"));
	assert_null(model_lookup(n1, "UOPS_RETIRED.ANY"));
}

static void test_model_from_midr(void **state)
{
	static const struct { unsigned imp, part; const char *name; } rows[] = {
		{ 0x41, 0xd03, "arm_ac53" }, { 0x41, 0xd07, "arm_ac57" },
		{ 0x41, 0xd08, "arm_ac72" }, { 0x41, 0xd0b, "arm_ac76" },
		{ 0x41, 0xd0c, "arm_n1" }, { 0x41, 0xd40, "arm_v1" },
		{ 0x41, 0xd49, "arm_n2" }, { 0x41, 0xd4f, "arm_v2" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_string_equal(model_from_midr(rows[i].imp, rows[i].part)->name, rows[i].name);
	assert_null(model_from_midr(0x41, 0xd4b));   /* Cortex-A78C: no tables */
	assert_null(model_from_midr(0x41, 0xd84));   /* Neoverse V3 */
	assert_null(model_from_midr(0x42, 0xd0c));   /* another implementer's part */
	assert_null(model_from_midr(0xc0, 0xac3));   /* AmpereOne */
	/* perf's HEADER_CPUID on arm64: MIDR_EL1 as 0x%016lx; variant (23:20)
	 * and revision (3:0) do not change the model */
	assert_string_equal(model_from_cpuid("0x00000000413fd0c1")->name, "arm_n1");  /* N1 r3p1 */
	assert_string_equal(model_from_cpuid("0x00000000410fd0c0")->name, "arm_n1");
	assert_string_equal(model_from_cpuid("0x00000000411fd401")->name, "arm_v1");  /* V1 r1p1 */
	assert_string_equal(model_from_cpuid("0x00000000410fd4f1")->name, "arm_v2");
	assert_string_equal(model_from_cpuid("0x00000000410fd490")->name, "arm_n2");
	assert_string_equal(model_from_cpuid("0x00000000411fd070")->name, "arm_ac57");
	assert_string_equal(model_from_cpuid("0x00000000410FD083")->name, "arm_ac72");
	assert_null(model_from_cpuid("0x00000000410fd4b0"));
	assert_null(model_from_cpuid("0x"));
	assert_null(model_from_cpuid("0xzz"));
	assert_null(model_from_cpuid("0x00000000410fd0c1,x"));
}

/* Each '|' spelling of S, as written, lower-cased, in event_canon's form
 * and with its event and unit mask joined by '.', through the walk
 * (model_lookup) and through IX: the same row, or both none. */
static void same_both_ways(struct model_index *ix, const struct arch_model *m, const char *s,
			   int *n)
{
	char one[256], low[256], canon[256], dotted[256];

	for (const char *p = s; p && *p;) {
		size_t len = strcspn(p, "|");
		snprintf(one, sizeof(one), "%.*s", (int)len, p);
		for (size_t k = 0; k <= strlen(one); k++)
			low[k] = (char)(one[k] >= 'A' && one[k] <= 'Z' ? one[k] + 32 : one[k]);
		snprintf(dotted, sizeof(dotted), "%s", one);
		char *colon = strchr(dotted, ':');
		if (colon)
			*colon = '.';
		const char *forms[] = { one, low, event_canon(one, canon, sizeof(canon)) ? canon : one,
					dotted };
		for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
			const struct arch_event *a = model_lookup(m, forms[f]);
			const struct arch_event *b = model_index_lookup(ix, m, forms[f]);
			if (a != b) {
				fprintf(stderr, "%s: '%s': walk %s, index %s\n", m->name, forms[f],
					a ? a->name : "none", b ? b->name : "none");
				fail();
			}
			(*n)++;
		}
		p = p[len] ? p + len + 1 : NULL;
	}
}

/* model_lookup walks a model's rows (arch/ keeps no index); an index its
 * caller keeps (model_index_lookup) gives the same row for every spelling
 * of every row of every model. */
static void test_index_same_as_walk(void **state)
{
	struct model_index *ix = model_index_new();
	int n = 0;

	(void)state;
	assert_non_null(ix);
	for (size_t i = 0; model_at(i); i++)
		for (const struct arch_event *const *t = model_at(i)->tables; *t; t++)
			for (const struct arch_event *ev = *t; ev->name; ev++) {
				same_both_ways(ix, model_at(i), ev->name, &n);
				if (ev->pfm)
					same_both_ways(ix, model_at(i), ev->pfm, &n);
			}
	assert_true(n > 1000);
	model_index_free(ix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_our_names),
		cmocka_unit_test(test_modern_model_fields),
		cmocka_unit_test(test_modern_spellings),
		cmocka_unit_test(test_perf_syntax),
		cmocka_unit_test(test_find_libpfm4_pmu_names),
		cmocka_unit_test(test_find_unknown),
		cmocka_unit_test(test_model_for_tree),
		cmocka_unit_test(test_canon_case_and_umask_order),
		cmocka_unit_test(test_canon_modifier_spellings),
		cmocka_unit_test(test_canon_drops_privilege),
		cmocka_unit_test(test_canon_paper_dot_form),
		cmocka_unit_test(test_canon_rejects_garbage),
		cmocka_unit_test(test_raw_decode),
		cmocka_unit_test(test_raw_decode_rejects),
		cmocka_unit_test(test_lookup_paper_names),
		cmocka_unit_test(test_lookup_alternate_names),
		cmocka_unit_test(test_lookup_libpfm4_strings),
		cmocka_unit_test(test_lookup_raw_codes),
		cmocka_unit_test(test_index_same_as_walk),
		cmocka_unit_test(test_inventories),
		cmocka_unit_test(test_core2_constraints),
		cmocka_unit_test(test_constraint_tables),
		cmocka_unit_test(test_amd_family_rows),
		cmocka_unit_test(test_table_hygiene),
		cmocka_unit_test(test_tree_names),
		cmocka_unit_test(test_model_trees),
		cmocka_unit_test(test_model_from_cpuid),
		cmocka_unit_test(test_arm_inventory),
		cmocka_unit_test(test_arm_event_numbers),
		cmocka_unit_test(test_arm_names_and_raw),
		cmocka_unit_test(test_model_from_midr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

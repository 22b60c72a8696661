#include "arch/preset.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CORE2 "Core2 cycle accounting (seeds/000)"
#define AMD "AMD basic measurements (seeds/004)"
#define HI 500000
#define LO 50000

static const struct preset presets[] = {
	{ "big4", TREE_CORE2, "cycles, stalls, bandwidth, long-latency loads (two collections)",
	  CORE2 ", BIG 4 table", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "BUS_TRANS_ANY.SELF", 100000 },
		{ "MEM_LOAD_RETIRED.L2_LINE_MISS", 10000 } } },
	{ "first-pass", TREE_CORE2, "the master equation's terms plus L2 misses and instructions",
	  CORE2 ", FIRST PASS EVENTS table", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "UOPS_RETIRED.ANY", 2000000 },
		{ "UOPS_RETIRED.FUSED", 2000000 },
		{ "RS_UOPS_DISPATCHED", 2000000 },
		{ "MEM_LOAD_RETIRED.L2_LINE_MISS", 10000 },
		{ "INST_RETIRED.ANY_P", 2000000 } } },
	{ "loops", TREE_CORE2, "bus traffic of loop-dominated code", CORE2 ", Loops table", {
		{ "BUS_TRANS_ANY.SELF", 100000 },
		{ "BUS_TRANS_ANY.ALL_AGENTS", 100000 } } },
	{ "branch", TREE_CORE2, "pipeline flushes of branch-dominated code",
	  CORE2 ", Branch Dominated table", {
		{ "RESOURCE_STALLS.BR_MISS_CLEAR", 2000000 } } },
	{ "second-level", TREE_CORE2, "DTLB, L1D, branch, decoder and load-block details",
	  CORE2 ", SECOND LEVEL EVENTS table", {
		{ "MEM_LOAD_RETIRED.DTLB_MISS", 20000 },
		{ "MEM_LOAD_RETIRED.L1D_LINE_MISS", 200000 },
		{ "BR_CND_EXEC", 2000000 },
		{ "BR_CND_MISSP_EXEC", 2000000 },
		{ "BR_CALL_EXEC", 200000 },
		{ "BR_CALL_MISSP_EXEC", 200000 },
		{ "ILD_STALL", 200000 },
		{ "LOAD_BLOCK.OVERLAP_STORE", 200000 } } },
	{ "divide", TREE_CORE2, "divides, square roots and FP software assists",
	  CORE2 ", Divides, Sqrts and FP SW Assists table", {
		{ "IDLE_DURING_DIV", 2000000 },
		{ "FP_ASSIST", 10000 } } },
	{ "ilp", TREE_CORE2, "the CMASK 1..7 inv=1 sweep of RS_UOPS_DISPATCHED (ILP histogram)",
	  CORE2 ", Instruction Level Parallelism", {
		{ "CPU_CLK_UNHALTED.CORE", 2000000 },
		{ "RS_UOPS_DISPATCHED.CYCLES_NONE", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=2:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=3:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=4:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=5:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=6:inv=1", 2000000 },
		{ "RS_UOPS_DISPATCHED:cmask=7:inv=1", 2000000 } } },
	{ "ia64", TREE_IA64, "IA-64 back-end bubble accounting (cycle events share one SAV)",
	  "IA-64 part 2 (seeds/001)", {
		{ "CPU_CYCLES", 0 },
		{ "BACK_END_BUBBLE.ALL", 0 },
		{ "BE_FLUSH_BUBBLE.ALL", 0 },
		{ "BE_L1D_FPU_BUBBLE.ALL", 0 },
		{ "BE_EXE_BUBBLE.ALL", 0 },
		{ "BE_RSE_BUBBLE.ALL", 0 },
		{ "BACK_END_BUBBLE.FE", 0 } } },
	{ "ia64-detail", TREE_IA64, "IA-64 flush and EXE sub-events", "IA-64 part 2 (seeds/001)", {
		{ "CPU_CYCLES", 0 },
		{ "BE_FLUSH_BUBBLE.XPN", 0 },
		{ "BE_FLUSH_BUBBLE.BRU", 0 },
		{ "BE_EXE_BUBBLE.GRALL", 0 },
		{ "BE_EXE_BUBBLE.FRALL", 0 },
		{ "BE_EXE_BUBBLE.GRGR", 0 } } },
	{ "amd-ipc", TREE_AMD, "instructions per cycle", AMD " 4.2.1", {
		{ "CPU_clocks", HI }, { "Ret_instructions", HI } } },
	{ "amd-bandwidth", TREE_AMD, "read, write and DRAM bandwidth", AMD " 4.2.2", {
		{ "CPU_clocks", HI }, { "System_read", HI }, { "System_write", HI },
		{ "DRAM_accesses", HI } } },
	{ "amd-dc", TREE_AMD, "L1 data cache by refills", AMD " 4.3.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DC_refills_L2", LO },
		{ "DC_refills_sys", LO } } },
	{ "amd-ic", TREE_AMD, "L1 instruction cache by refills", AMD " 4.3.2", {
		{ "Ret_instructions", HI }, { "IC_fetches", HI }, { "IC_refills_L2", LO },
		{ "IC_refills_sys", LO } } },
	{ "amd-l2", TREE_AMD, "L2 cache, direct method", AMD " 4.3.3.1", {
		{ "Ret_instructions", HI }, { "L2_requests", LO }, { "L2_misses", LO },
		{ "L2_fill_write", LO } } },
	{ "amd-l2-indirect", TREE_AMD, "L2 cache, indirect method (several runs)", AMD " 4.3.3.2", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DC_refills_L2", LO },
		{ "DC_refills_sys", LO }, { "IC_fetches", HI }, { "IC_refills_L2", LO },
		{ "IC_refills_sys", LO }, { "L2_requests_TLB", LO }, { "L2_misses_TLB", LO } } },
	{ "amd-l3", TREE_AMD, "L3 cache (Fam10h)", AMD " 4.3.4", {
		{ "Ret_instructions", HI }, { "L3_requests", LO }, { "L3_misses", LO } } },
	{ "amd-dtlb", TREE_AMD, "data TLB", AMD " 4.4.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "DTLB_L1M_L2H", LO },
		{ "DTLB_L1M_L2M", LO } } },
	{ "amd-itlb", TREE_AMD, "instruction TLB", AMD " 4.4.2", {
		{ "Ret_instructions", HI }, { "IC_fetches", HI }, { "ITLB_L1M_L2H", LO },
		{ "ITLB_L1M_L2M", LO } } },
	{ "amd-branch", TREE_AMD, "branch prediction", AMD " 4.5.1", {
		{ "Ret_instructions", HI }, { "Branches", 0 }, { "Mispred_branches", 0 },
		{ "Taken_branches", 0 } } },
	{ "amd-near-return", TREE_AMD, "return stack prediction", AMD " 4.5.2", {
		{ "Ret_instructions", HI }, { "Near_returns", 0 }, { "Mispred_near_ret", 0 } } },
	{ "amd-misalign", TREE_AMD, "misaligned accesses", AMD " 4.6.1", {
		{ "Ret_instructions", HI }, { "DC_accesses", HI }, { "Misalign_access", LO } } },
	{ "amd-fp", TREE_AMD, "floating-point operation density", AMD " 4.6.2.1", {
		{ "Ret_instructions", HI }, { "Dispatched_FP", 0 }, { "Ret_MMX_FP", 0 } } },
	{ "amd-flops", TREE_AMD, "FLOPS (Fam10h)", AMD " 4.6.2.2", {
		{ "CPU_clocks", HI }, { "SSE_SP_FLOPS", LO }, { "SSE_DP_FLOPS", LO } } },
	{ "amd-fp-exceptions", TREE_AMD, "floating-point exceptions", AMD " 4.6.2.3", {
		{ "Ret_instructions", HI }, { "Ret_MMX_FP", 0 }, { "FPU_exceptions", LO } } },
	{ "sw", TREE_SW, "software events: CPU time, faults, switches (any host)",
	  "kernel software events", {
		{ "cpu-clock", 0 }, { "task-clock", 0 }, { "page-faults", 0 },
		{ "context-switches", 0 } } },
};

const struct preset *preset_at(size_t i)
{
	return i < sizeof(presets) / sizeof(presets[0]) ? &presets[i] : NULL;
}

const struct preset *preset_find(const char *name)
{
	const struct preset *p;

	if (name[0] == '@')
		name++;
	for (size_t i = 0; (p = preset_at(i)) != NULL; i++)
		if (strcasecmp(p->name, name) == 0)
			return p;
	return NULL;
}

size_t preset_size(const struct preset *p)
{
	size_t n = 0;

	while (n < PRESET_MAX_EVENTS && p->events[n].name)
		n++;
	return n;
}

/* The first model of P's family that has every event of P (amd-l3 and
 * amd-flops exist only on Fam10h, not on the family's first model, K8). */
static const struct arch_model *model_for_preset(const struct preset *p)
{
	const struct arch_model *m;

	for (size_t i = 0; (m = model_at(i)) != NULL; i++) {
		size_t k, n = preset_size(p);
		if (m->tree != p->tree)
			continue;
		for (k = 0; k < n && model_lookup(m, p->events[k].name); k++)
			;
		if (k == n)
			return m;
	}
	return model_for_tree(p->tree);
}

int preset_resolve(const struct preset *p, const struct arch_model *model,
		   const struct arch_event **rows, uint32_t *savs, char *err, size_t errsz)
{
	size_t n = preset_size(p);

	if (model->tree != p->tree) {
		const struct arch_model *want = model_for_preset(p);
		snprintf(err, errsz, "preset @%s is for %s, not for the %s model", p->name,
			 want ? want->desc : tree_name(p->tree), model->name);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i] = model_lookup(model, p->events[i].name);
		if (!rows[i]) {
			snprintf(err, errsz, "preset @%s needs %s, which the %s model does not have",
				 p->name, p->events[i].name, model->name);
			return -1;
		}
		savs[i] = p->events[i].sav ? p->events[i].sav : rows[i]->sav;
	}
	return (int)n;
}

/* The AMD basic-measurements tree.
 * Drongowski, "Basic Performance Measurements for AMD Athlon 64, AMD Opteron
 * and AMD Phenom Processors" (seeds/004), sections 4.2-4.6.  Inputs are
 * normalized counts (samples x period), as section 3 requires.  Time is the
 * OS time reference when the counts carry one (duration_time, as perf stat
 * prints it), else CPU_clocks / clock frequency (section 4.2.2).
 *
 * On Zen the same measurements read perf's amdzen event names where Zen has
 * the event (each input's alternatives after '|'; MODERN-PMU.md section 1.9,
 * after perf's amdzen{2,4}/recommended.json): IPC, DC accesses and misses
 * (L2 requests from the DC), IC, L2 demand misses, DTLB and ITLB, branches. */
#include <math.h>

#include "arch/tree.h"

enum {
	I_NONE,
	I_CLOCKS, I_RET, I_SYS_READ, I_SYS_WRITE, I_DRAM, I_DRAM0, I_DRAM1,
	I_DC_ACC, I_DC_MISSES_EV, I_DC_L2, I_DC_SYS,
	I_IC_FETCH, I_IC_MISSES_EV, I_IC_L2, I_IC_SYS,
	I_L2_REQ, I_L2_MISS, I_L2_FILL, I_L2_REQ_TLB, I_L2_MISS_TLB,
	I_L3_REQ, I_L3_MISS,
	I_DTLB_L2H, I_DTLB_L2M, I_ITLB_L2H, I_ITLB_L2M,
	I_BR, I_BR_MISP, I_BR_TAKEN, I_NEAR_RET, I_NEAR_RET_MISP,
	I_MISALIGN, I_DISP_FP, I_RET_MMX_FP, I_SP_FLOPS, I_DP_FLOPS, I_FPU_EXC,
	I_DURATION, I_DTLB_L1M_ZEN,
	/* derived */
	I_SECONDS, I_DRAM_TOTAL, I_DC_MISSES, I_IC_MISSES, I_L2_REQ_IND, I_L2_MISS_IND,
	I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_CLOCKS] = { "CPU_clocks|ls_not_halted_cyc", false },
	[I_RET] = { "Ret_instructions|ex_ret_instr", false },
	[I_SYS_READ] = { "System_read", false },
	[I_SYS_WRITE] = { "System_write", false },
	[I_DRAM] = { "DRAM_accesses", false },
	[I_DRAM0] = { "DRAM_accesses_0", false },
	[I_DRAM1] = { "DRAM_accesses_1", false },
	[I_DC_ACC] = { "DC_accesses|all_data_cache_accesses|all_dc_accesses", false },
	[I_DC_MISSES_EV] = { "DC_misses|l2_request_g1.all_dc|l2_cache_accesses_from_dc_misses", false },
	[I_DC_L2] = { "DC_refills_L2", false },
	[I_DC_SYS] = { "DC_refills_sys", false },
	[I_IC_FETCH] = { "IC_fetches|ic_tag_hit_miss.all_instruction_cache_accesses", false },
	[I_IC_MISSES_EV] = { "IC_misses|ic_tag_hit_miss.instruction_cache_miss", false },
	[I_IC_L2] = { "IC_refills_L2", false },
	[I_IC_SYS] = { "IC_refills_sys", false },
	[I_L2_REQ] = { "L2_requests", false },
	[I_L2_MISS] = { "L2_misses|l2_cache_req_stat.ic_dc_miss_in_l2", false },
	[I_L2_FILL] = { "L2_fill_write", false },
	[I_L2_REQ_TLB] = { "L2_requests_TLB", false },
	[I_L2_MISS_TLB] = { "L2_misses_TLB", false },
	[I_L3_REQ] = { "L3_requests", false },
	[I_L3_MISS] = { "L3_misses", false },
	[I_DTLB_L2H] = { "DTLB_L1M_L2H", false },
	[I_DTLB_L2M] = { "DTLB_L1M_L2M|ls_l1_d_tlb_miss.all_l2_miss|l2_dtlb_misses", false },
	[I_ITLB_L2H] = { "ITLB_L1M_L2H|bp_l1_tlb_miss_l2_tlb_hit|bp_l1_tlb_miss_l2_hit", false },
	[I_ITLB_L2M] = { "ITLB_L1M_L2M|bp_l1_tlb_miss_l2_tlb_miss.all|l2_itlb_misses", false },
	[I_BR] = { "Branches|ex_ret_brn", false },
	[I_BR_MISP] = { "Mispred_branches|ex_ret_brn_misp", false },
	[I_BR_TAKEN] = { "Taken_branches|ex_ret_brn_tkn", false },
	[I_NEAR_RET] = { "Near_returns|ex_ret_near_ret", false },
	[I_NEAR_RET_MISP] = { "Mispred_near_ret|ex_ret_near_ret_mispred", false },
	[I_MISALIGN] = { "Misalign_access", false },
	[I_DISP_FP] = { "Dispatched_FP", false },
	[I_RET_MMX_FP] = { "Ret_MMX_FP", false },
	[I_SP_FLOPS] = { "SSE_SP_FLOPS", false },
	[I_DP_FLOPS] = { "SSE_DP_FLOPS", false },
	[I_FPU_EXC] = { "FPU_exceptions", false },
	[I_DURATION] = { "duration_time", false },
	[I_DTLB_L1M_ZEN] = { "ls_l1_d_tlb_miss.all|l1_dtlb_misses", false },
	[I_SECONDS] = { "duration_time, or CPU_clocks with --clock-hz", true },
	[I_DRAM_TOTAL] = { "DRAM_accesses (or DRAM_accesses_0 + DRAM_accesses_1)", true },
	[I_DC_MISSES] = { "DC_refills_L2 + DC_refills_sys (or DC_misses)", true },
	[I_IC_MISSES] = { "IC_refills_L2 + IC_refills_sys (or IC_misses)", true },
	[I_L2_REQ_IND] = { "IC and DC refills + L2_requests_TLB", true },
	[I_L2_MISS_IND] = { "IC_refills_sys + DC_refills_sys + L2_misses_TLB", true },
};

static double sum2(double a, double b)
{
	return isnan(a) || isnan(b) ? NAN : a + b;
}

static double first(double a, double b)
{
	return isnan(a) ? b : a;
}

static void derive(double *in, const struct tree_ctx *ctx)
{
	/* Zen counts L1 DTLB misses (L2 hit or miss) and the L2 misses: the L2
	 * hits are their difference (perf amdzen4 ls_l1_d_tlb_miss.all and
	 * .all_l2_miss, umasks 0xff and 0xf0; MODERN-PMU.md 1.9) */
	if (isnan(in[I_DTLB_L2H]))
		in[I_DTLB_L2H] = in[I_DTLB_L1M_ZEN] - in[I_DTLB_L2M];
	if (!isnan(in[I_DURATION]))
		in[I_SECONDS] = in[I_DURATION] / 1e9;
	else if (!isnan(in[I_CLOCKS]) && ctx->clock_hz > 0)
		in[I_SECONDS] = in[I_CLOCKS] / ctx->clock_hz;
	/* two controllers: DRAM_accesses = DRAM_accesses_0 + DRAM_accesses_1;
	 * DRAM_accesses (0xE0/0x07) is the DCT0 event, so it stands for _0 */
	double dct0 = first(in[I_DRAM0], in[I_DRAM]);
	in[I_DRAM_TOTAL] = first(sum2(dct0, in[I_DRAM1]), dct0);
	/* the refill method is preferred; the miss event is the simplified one */
	in[I_DC_MISSES] = first(sum2(in[I_DC_L2], in[I_DC_SYS]), in[I_DC_MISSES_EV]);
	in[I_IC_MISSES] = first(sum2(in[I_IC_L2], in[I_IC_SYS]), in[I_IC_MISSES_EV]);
	in[I_L2_REQ_IND] = sum2(sum2(sum2(in[I_IC_L2], in[I_IC_SYS]),
				     sum2(in[I_DC_L2], in[I_DC_SYS])), in[I_L2_REQ_TLB]);
	in[I_L2_MISS_IND] = sum2(sum2(in[I_IC_SYS], in[I_DC_SYS]), in[I_L2_MISS_TLB]);
}

#define RATIO(fn, num, den) \
	static double fn(const double *in, const struct tree_ctx *c) \
	{ (void)c; return (num) / (den); }

#define DTLB_L1M (in[I_DTLB_L2H] + in[I_DTLB_L2M])
#define ITLB_L1M (in[I_ITLB_L2H] + in[I_ITLB_L2M])
#define L2_DIRECT_REQ (in[I_L2_REQ] + in[I_L2_FILL])

RATIO(f_ipc, in[I_RET], in[I_CLOCKS])
RATIO(f_cpi, in[I_CLOCKS], in[I_RET])
RATIO(f_seconds, in[I_SECONDS], 1.0)
/* bytes / seconds, in MB/s (1 MB = 10^6 bytes) */
RATIO(f_bw_read, in[I_SYS_READ] * 64.0 / 1e6, in[I_SECONDS])
RATIO(f_bw_dram, in[I_DRAM_TOTAL] * 64.0 / 1e6, in[I_SECONDS])
RATIO(f_dc_req, in[I_DC_ACC], in[I_RET])
RATIO(f_dc_miss_rate, in[I_DC_MISSES], in[I_RET])
RATIO(f_dc_miss_ratio, in[I_DC_MISSES], in[I_DC_ACC])
RATIO(f_dc_sys_fraction, in[I_DC_SYS], in[I_DC_MISSES])
RATIO(f_ic_req, in[I_IC_FETCH], in[I_RET])
RATIO(f_ic_miss_rate, in[I_IC_MISSES], in[I_RET])
RATIO(f_ic_miss_ratio, in[I_IC_MISSES], in[I_IC_FETCH])
RATIO(f_l2_req, L2_DIRECT_REQ, in[I_RET])
RATIO(f_l2_miss_rate, in[I_L2_MISS], in[I_RET])
RATIO(f_l2_miss_ratio, in[I_L2_MISS], L2_DIRECT_REQ)
RATIO(f_l2i_req, in[I_L2_REQ_IND], in[I_RET])
RATIO(f_l2i_miss_rate, in[I_L2_MISS_IND], in[I_RET])
RATIO(f_l2i_miss_ratio, in[I_L2_MISS_IND], in[I_L2_REQ_IND])
RATIO(f_l2i_ifrac, in[I_IC_L2] + in[I_IC_SYS], in[I_L2_REQ_IND])
RATIO(f_l2i_dfrac, in[I_DC_L2] + in[I_DC_SYS], in[I_L2_REQ_IND])
RATIO(f_l2i_pfrac, in[I_L2_REQ_TLB], in[I_L2_REQ_IND])
RATIO(f_l3_req, in[I_L3_REQ], in[I_RET])
RATIO(f_l3_miss_rate, in[I_L3_MISS], in[I_RET])
RATIO(f_l3_miss_ratio, in[I_L3_MISS], in[I_L3_REQ])
RATIO(f_dtlb_l1_req, in[I_DC_ACC], in[I_RET])
RATIO(f_dtlb_l1_miss_rate, DTLB_L1M, in[I_RET])
RATIO(f_dtlb_l1_miss_ratio, DTLB_L1M, in[I_DC_ACC])
RATIO(f_dtlb_l2_miss_rate, in[I_DTLB_L2M], in[I_RET])
RATIO(f_dtlb_l2_miss_ratio, in[I_DTLB_L2M], DTLB_L1M)
RATIO(f_itlb_l1_req, in[I_IC_FETCH], in[I_RET])
RATIO(f_itlb_l1_miss_rate, ITLB_L1M, in[I_RET])
RATIO(f_itlb_l1_miss_ratio, ITLB_L1M, in[I_IC_FETCH])
RATIO(f_itlb_l2_miss_rate, in[I_ITLB_L2M], in[I_RET])
RATIO(f_itlb_l2_miss_ratio, in[I_ITLB_L2M], ITLB_L1M)
RATIO(f_br_rate, in[I_BR], in[I_RET])
RATIO(f_br_misp_rate, in[I_BR_MISP], in[I_RET])
RATIO(f_br_misp_ratio, in[I_BR_MISP], in[I_BR])
RATIO(f_br_taken_rate, in[I_BR_TAKEN], in[I_RET])
RATIO(f_br_taken_ratio, in[I_BR_TAKEN], in[I_BR])
RATIO(f_inst_per_br, in[I_RET], in[I_BR])
RATIO(f_ret_rate, in[I_NEAR_RET], in[I_RET])
RATIO(f_ret_miss_rate, in[I_NEAR_RET_MISP], in[I_RET])
RATIO(f_ret_misp_ratio, in[I_NEAR_RET_MISP], in[I_NEAR_RET])
RATIO(f_inst_per_call, in[I_RET], in[I_NEAR_RET])
RATIO(f_misalign_rate, in[I_MISALIGN], in[I_RET])
RATIO(f_misalign_ratio, in[I_MISALIGN], in[I_DC_ACC])
RATIO(f_fpu_op_rate, in[I_DISP_FP], in[I_RET])
RATIO(f_mmx_fp_rate, in[I_RET_MMX_FP], in[I_RET])
RATIO(f_sp_flops, in[I_SP_FLOPS] / 1e6, in[I_SECONDS])
RATIO(f_dp_flops, in[I_DP_FLOPS] / 1e6, in[I_SECONDS])
RATIO(f_fp_exc_rate, in[I_FPU_EXC], in[I_RET])
RATIO(f_fp_exc_per_fp, in[I_FPU_EXC], in[I_RET_MMX_FP])

/* Write transfers are 8 bytes on K8, 16 on Fam10h (section 4.2.2). */
static double f_bw_write(const double *in, const struct tree_ctx *c)
{
	int bytes = c->model && c->model->write_bytes ? c->model->write_bytes : 8;
	return in[I_SYS_WRITE] * bytes / 1e6 / in[I_SECONDS];
}

#define S42 "AMD 4.2"
#define S43 "AMD 4.3"
#define S44 "AMD 4.4"
#define S45 "AMD 4.5"
#define S46 "AMD 4.6"
#define HEAD(id, label, src) { id, label, UNIT_NONE, TN_GROUP, { 0 }, NULL, NULL, src }
#define R(id, label, fn, src, ...) { id, label, UNIT_RATIO, 0, { __VA_ARGS__ }, fn, NULL, src }

static const struct tree_node_def nodes[] = {
	R("ipc", "Instructions per cycle", f_ipc, S42 ".1 Ret_instructions / CPU_clocks",
	  I_RET, I_CLOCKS),
	R("cpi", "Cycles per instruction", f_cpi, S42 ".1 CPU_clocks / Ret_instructions",
	  I_CLOCKS, I_RET),
	{ "seconds", "Elapsed time", UNIT_SECONDS, 0, { I_SECONDS }, f_seconds, NULL,
	  S42 ".2 (CPU_clocks x Period) / Clock_frequency, or a time reference" },
	HEAD("bandwidth", "Memory bandwidth", S42 ".2"),
	{ "bandwidth.read", "Read data", UNIT_MBPS, 0, { I_SYS_READ, I_SECONDS }, f_bw_read, NULL,
	  S42 ".2 System_read x 64 / Seconds" },
	{ "bandwidth.write", "Write data", UNIT_MBPS, 0, { I_SYS_WRITE, I_SECONDS }, f_bw_write,
	  NULL, S42 ".2 System_write x 8 (K8) or 16 (Fam10h) / Seconds" },
	{ "bandwidth.dram", "DRAM", UNIT_MBPS, 0, { I_DRAM_TOTAL, I_SECONDS }, f_bw_dram, NULL,
	  S42 ".2 DRAM_accesses x 64 / Seconds" },
	HEAD("dc", "L1 data cache", S43 ".1"),
	R("dc.request_rate", "Requests per instruction", f_dc_req, S43 ".1 DC_accesses / Ret_instructions", I_DC_ACC, I_RET),
	R("dc.miss_rate", "Misses per instruction", f_dc_miss_rate, S43 ".1 DC_misses / Ret_instructions", I_DC_MISSES, I_RET),
	R("dc.miss_ratio", "Misses per request", f_dc_miss_ratio, S43 ".1 DC_misses / DC_accesses", I_DC_MISSES, I_DC_ACC),
	R("dc.sys_fraction", "Misses refilled from system", f_dc_sys_fraction, S43 ".1 DC_refills_sys / DC_misses", I_DC_SYS, I_DC_MISSES),
	HEAD("ic", "L1 instruction cache", S43 ".2"),
	R("ic.request_rate", "Fetches per instruction", f_ic_req, S43 ".2 IC_fetches / Ret_instructions", I_IC_FETCH, I_RET),
	R("ic.miss_rate", "Misses per instruction", f_ic_miss_rate, S43 ".2 IC_misses / Ret_instructions", I_IC_MISSES, I_RET),
	R("ic.miss_ratio", "Misses per fetch", f_ic_miss_ratio, S43 ".2 IC_misses / IC_fetches", I_IC_MISSES, I_IC_FETCH),
	HEAD("l2", "L2 cache, direct method", S43 ".3.1"),
	R("l2.request_rate", "Requests per instruction", f_l2_req, S43 ".3.1 (L2_requests + L2_fill_write) / Ret_instructions", I_L2_REQ, I_L2_FILL, I_RET),
	R("l2.miss_rate", "Misses per instruction", f_l2_miss_rate, S43 ".3.1 L2_misses / Ret_instructions", I_L2_MISS, I_RET),
	R("l2.miss_ratio", "Misses per request", f_l2_miss_ratio, S43 ".3.1 L2_misses / (L2_requests + L2_fill_write)", I_L2_MISS, I_L2_REQ, I_L2_FILL),
	HEAD("l2.indirect", "L2 cache, indirect method", S43 ".3.2"),
	R("l2.indirect.request_rate", "Requests per instruction", f_l2i_req, S43 ".3.2 L2_requests / Ret_instructions", I_L2_REQ_IND, I_RET),
	R("l2.indirect.miss_rate", "Misses per instruction", f_l2i_miss_rate, S43 ".3.2 L2_misses / Ret_instructions", I_L2_MISS_IND, I_RET),
	R("l2.indirect.miss_ratio", "Misses per request", f_l2i_miss_ratio, S43 ".3.2 L2_misses / L2_requests", I_L2_MISS_IND, I_L2_REQ_IND),
	R("l2.indirect.instruction_fraction", "Requests from the IC", f_l2i_ifrac, S43 ".3.2 IC_misses / L2_requests", I_IC_L2, I_IC_SYS, I_L2_REQ_IND),
	R("l2.indirect.data_fraction", "Requests from the DC", f_l2i_dfrac, S43 ".3.2 DC_misses / L2_requests", I_DC_L2, I_DC_SYS, I_L2_REQ_IND),
	R("l2.indirect.page_table_fraction", "Requests from the table walker", f_l2i_pfrac, S43 ".3.2 L2_requests_TLB / L2_requests", I_L2_REQ_TLB, I_L2_REQ_IND),
	HEAD("l3", "L3 cache (Fam10h)", S43 ".4"),
	R("l3.request_rate", "Requests per instruction", f_l3_req, S43 ".4 L3_requests / Ret_instructions", I_L3_REQ, I_RET),
	R("l3.miss_rate", "Misses per instruction", f_l3_miss_rate, S43 ".4 L3_misses / Ret_instructions", I_L3_MISS, I_RET),
	R("l3.miss_ratio", "Misses per request", f_l3_miss_ratio, S43 ".4 L3_misses / L3_requests", I_L3_MISS, I_L3_REQ),
	HEAD("dtlb", "Data TLB", S44 ".1"),
	R("dtlb.l1_request_rate", "L1 requests per instruction", f_dtlb_l1_req, S44 ".1 DC_accesses / Ret_instructions", I_DC_ACC, I_RET),
	R("dtlb.l1_miss_rate", "L1 misses per instruction", f_dtlb_l1_miss_rate, S44 ".1 (DTLB_L1M_L2H + DTLB_L1M_L2M) / Ret_instructions", I_DTLB_L2H, I_DTLB_L2M, I_RET),
	R("dtlb.l1_miss_ratio", "L1 misses per request", f_dtlb_l1_miss_ratio, S44 ".1 (DTLB_L1M_L2H + DTLB_L1M_L2M) / DC_accesses", I_DTLB_L2H, I_DTLB_L2M, I_DC_ACC),
	R("dtlb.l2_request_rate", "L2 requests per instruction", f_dtlb_l1_miss_rate, S44 ".1 (DTLB_L1M_L2H + DTLB_L1M_L2M) / Ret_instructions", I_DTLB_L2H, I_DTLB_L2M, I_RET),
	R("dtlb.l2_miss_rate", "L2 misses per instruction", f_dtlb_l2_miss_rate, S44 ".1 DTLB_L1M_L2M / Ret_instructions", I_DTLB_L2M, I_RET),
	R("dtlb.l2_miss_ratio", "L2 misses per request", f_dtlb_l2_miss_ratio, S44 ".1 DTLB_L1M_L2M / (DTLB_L1M_L2H + DTLB_L1M_L2M)", I_DTLB_L2H, I_DTLB_L2M),
	HEAD("itlb", "Instruction TLB", S44 ".2"),
	R("itlb.l1_request_rate", "L1 requests per instruction", f_itlb_l1_req, S44 ".2 IC_fetches / Ret_instructions", I_IC_FETCH, I_RET),
	R("itlb.l1_miss_rate", "L1 misses per instruction", f_itlb_l1_miss_rate, S44 ".2 (ITLB_L1M_L2H + ITLB_L1M_L2M) / Ret_instructions", I_ITLB_L2H, I_ITLB_L2M, I_RET),
	R("itlb.l1_miss_ratio", "L1 misses per request", f_itlb_l1_miss_ratio, S44 ".2 (ITLB_L1M_L2H + ITLB_L1M_L2M) / IC_fetches", I_ITLB_L2H, I_ITLB_L2M, I_IC_FETCH),
	R("itlb.l2_request_rate", "L2 requests per instruction", f_itlb_l1_miss_rate, S44 ".2 (ITLB_L1M_L2H + ITLB_L1M_L2M) / Ret_instructions", I_ITLB_L2H, I_ITLB_L2M, I_RET),
	R("itlb.l2_miss_rate", "L2 misses per instruction", f_itlb_l2_miss_rate, S44 ".2 ITLB_L1M_L2M / Ret_instructions", I_ITLB_L2M, I_RET),
	R("itlb.l2_miss_ratio", "L2 misses per request", f_itlb_l2_miss_ratio, S44 ".2 ITLB_L1M_L2M / (ITLB_L1M_L2H + ITLB_L1M_L2M)", I_ITLB_L2H, I_ITLB_L2M),
	HEAD("branch", "Branches", S45 ".1"),
	R("branch.rate", "Branches per instruction", f_br_rate, S45 ".1 Branches / Ret_instructions", I_BR, I_RET),
	R("branch.mispred_rate", "Mispredicts per instruction", f_br_misp_rate, S45 ".1 Mispred_branches / Ret_instructions", I_BR_MISP, I_RET),
	R("branch.mispred_ratio", "Mispredicts per branch", f_br_misp_ratio, S45 ".1 Mispred_branches / Branches", I_BR_MISP, I_BR),
	R("branch.taken_rate", "Taken per instruction", f_br_taken_rate, S45 ".1 Taken_branches / Ret_instructions", I_BR_TAKEN, I_RET),
	R("branch.taken_ratio", "Taken per branch", f_br_taken_ratio, S45 ".1 Taken_branches / Branches", I_BR_TAKEN, I_BR),
	R("branch.instructions_per_branch", "Instructions per branch", f_inst_per_br, S45 ".1 Ret_instructions / Branches", I_RET, I_BR),
	HEAD("ret", "Near returns", S45 ".2"),
	R("ret.near_return_rate", "Returns per instruction", f_ret_rate, S45 ".2 Near_returns / Ret_instructions", I_NEAR_RET, I_RET),
	R("ret.stack_miss_rate", "Return stack misses per instruction", f_ret_miss_rate, S45 ".2 Mispred_near_ret / Ret_instructions", I_NEAR_RET_MISP, I_RET),
	R("ret.stack_mispred_ratio", "Mispredicts per return", f_ret_misp_ratio, S45 ".2 Mispred_near_ret / Near_returns", I_NEAR_RET_MISP, I_NEAR_RET),
	R("ret.instructions_per_call", "Instructions per call", f_inst_per_call, S45 ".2 Ret_instructions / Near_returns", I_RET, I_NEAR_RET),
	HEAD("misalign", "Misaligned accesses", S46 ".1"),
	R("misalign.rate", "Per instruction", f_misalign_rate, S46 ".1 Misalign_access / Ret_instructions", I_MISALIGN, I_RET),
	R("misalign.ratio", "Per data cache access", f_misalign_ratio, S46 ".1 Misalign_access / DC_accesses", I_MISALIGN, I_DC_ACC),
	HEAD("fp", "Floating point", S46 ".2"),
	R("fp.fpu_op_rate", "FPU ops per instruction", f_fpu_op_rate, S46 ".2.1 Dispatched_FP / Ret_instructions", I_DISP_FP, I_RET),
	R("fp.mmx_fp_rate", "MMX/FP instructions per instruction", f_mmx_fp_rate, S46 ".2.1 Ret_MMX_FP / Ret_instructions", I_RET_MMX_FP, I_RET),
	{ "fp.sp_flops", "Single-precision FLOPS", UNIT_MFLOPS, 0, { I_SP_FLOPS, I_SECONDS },
	  f_sp_flops, NULL, S46 ".2.2 SSE_SP_FLOPS / Seconds" },
	{ "fp.dp_flops", "Double-precision FLOPS", UNIT_MFLOPS, 0, { I_DP_FLOPS, I_SECONDS },
	  f_dp_flops, NULL, S46 ".2.2 SSE_DP_FLOPS / Seconds" },
	R("fp.exception_rate", "FP exceptions per instruction", f_fp_exc_rate, S46 ".2.3 FPU_exceptions / Ret_instructions", I_FPU_EXC, I_RET),
	R("fp.exception_per_fp", "FP exceptions per FP instruction", f_fp_exc_per_fp, S46 ".2.3 FPU_exceptions / Ret_MMX_FP", I_FPU_EXC, I_RET_MMX_FP),
};

/* K8 and Fam10h (the paper's), and Zen 1-4 where their events exist. */
static const char *const models[] = {
	"amd64_k8", "amd64_fam10h", "amd64_fam17h_zen1", "amd64_fam17h_zen2",
	"amd64_fam19h_zen3", "amd64_fam19h_zen4", NULL,
};

const struct tree_def tree_amd = {
	.id = TREE_AMD,
	.name = "amd",
	.title = "AMD basic measurements",
	.inputs = inputs,
	.n_inputs = I_COUNT,
	.nodes = nodes,
	.n_nodes = (int)(sizeof(nodes) / sizeof(nodes[0])),
	.derive = derive,
	.models = models,
};

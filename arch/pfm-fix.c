/* libpfm4 4.13 corrections (the contract is in arch/pfm-fix.h).
 *
 * Found by encoding every event the trees, presets and ILP sweeps use under
 * LIBPFM_FORCE_PMU and comparing with Intel's perfmon event JSON and Linux
 * perf's pmu-events JSON (../shared/MODERN-PMU.md section 0.2; the per-model
 * comparison in ../shared/modern-pmu/encodings_*.csv).  Sources:
 *   SPR  intel/perfmon SPR/events/sapphirerapids_core.json v1.39 (@6dadedf3)
 *   ICL  intel/perfmon ICL/events/icelake_core.json v1.24 (@6dadedf3)
 *   ICX  intel/perfmon ICX/events/icelakex_core.json v1.30 (@6dadedf3)
 *   SKL  intel/perfmon SKL/events/skylake_core.json v59 (@6dadedf3)
 *   K    Linux arch/x86/events/intel/core.c EVENT_ATTR_STR(slots, "event=0x00,
 *        umask=0x4"), EVENT_ATTR_STR(topdown-*, "event=0x00,umask=0x8N")
 *   Z2..Z4  Linux tools/perf/pmu-events/arch/x86/amdzen{2,3,4}/ *.json
 *        (the per-file commits in ../shared/modern-pmu ref/amd_perf_events.json). */
#include "arch/pfm-fix.h"

#include <string.h>
#include <strings.h>

#include "arch/model.h"

#define SPR "intel/perfmon sapphirerapids_core.json v1.39"
#define ICL "intel/perfmon icelake_core.json v1.24"
#define ICX "intel/perfmon icelakex_core.json v1.30"
#define SKL "intel/perfmon skylake_core.json v59"
#define HSW "intel/perfmon haswell_core.json v36"
#define SNB "intel/perfmon sandybridge_core.json v19"
#define WSMJ "intel/perfmon WestmereEP-SP_core.json v4"
#define NHM "intel/perfmon NehalemEP_core.json v4"
#define WSM "intel/perfmon (NHM-EP v4 codes; libpfm4 wsm names UOPS_EXECUTED.CORE_ACTIVE_CYCLES)"
#define KTD "Linux arch/x86/events/intel/core.c EVENT_ATTR_STR(topdown-*)"

static const struct pfm_fix fixes[] = {
	/* wrong in 4.13 */
	{ "spr", "TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4, "0x200", SPR " EventCode 0xa4 UMask 0x02" },
	{ "spr", "TOPDOWN:BAD_SPEC_SLOTS", 0x4a4, "0x400", SPR " EventCode 0xa4 UMask 0x04 "
	  "(fixed upstream in libpfm4 72866cb)" },
	{ "spr", "TOPDOWN:BR_MISPREDICT_SLOTS", 0x8a4, "0x800", SPR " EventCode 0xa4 UMask 0x08" },
	{ "spr", "TOPDOWN:MEMORY_BOUND_SLOTS", 0x10a4, "0x1000", SPR " EventCode 0xa4 UMask 0x10" },
	{ "spr", "INST_RETIRED:ANY", 0x100, "0x1c0", SPR " INST_RETIRED.ANY UMask 0x01, Fixed "
	  "counter 0 (fixed upstream in libpfm4 489a940)" },
	{ "spr", "UOPS_RETIRED:MS", 0x4c2, "0x8c2", SPR " EventCode 0xc2 UMask 0x04 (the 0x8 is "
	  "the MSR_PEBS_FRONTEND value)" },
	{ "icl", "TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4, "0x200", ICL " EventCode 0xa4 UMask 0x02" },
	{ "icx", "TOPDOWN:BACKEND_BOUND_SLOTS", 0x2a4, "0x200", ICX " EventCode 0xa4 UMask 0x02" },
	{ "skl", "UOPS_RETIRED:STALL_CYCLES", 0x18002c2, "0x18001c2", SKL " EventCode 0xc2 UMask "
	  "0x02 CMask 1 Inv 1" },
	{ "snb", "BR_INST_RETIRED:ALL_BRANCHES", 0xc4, "0x4c4", SNB " BR_INST_RETIRED.ALL_BRANCHES "
	  "EventCode 0xc4 UMask 0x00 (0x04 is ALL_BRANCHES_PEBS)" },
	{ "snb", "BR_MISP_RETIRED:ALL_BRANCHES", 0xc5, "0x4c5", SNB " BR_MISP_RETIRED.ALL_BRANCHES "
	  "EventCode 0xc5 UMask 0x00 (0x04 is ALL_BRANCHES_PEBS)" },
	{ "nhm", "BR_INST_RETIRED:ALL_BRANCHES", 0x4c4, "0xc4", NHM " BR_INST_RETIRED.ALL_BRANCHES "
	  "EventCode 0xc4 UMask 0x04" },
	{ "wsm", "BR_INST_RETIRED:ALL_BRANCHES", 0x4c4, "0xc4", WSMJ " BR_INST_RETIRED.ALL_BRANCHES "
	  "EventCode 0xc4 UMask 0x04" },
	/* MSR_PEBS_FRONTEND 0x3F7 = 0x7 is the kernel's extra register of 0x40ad
	 * (arch/x86/events/intel/core.c intel_glc_extra_regs,
	 * Sapphire Rapids' INTEL_UEVENT_EXTRA_REG(0x40ad, MSR_PEBS_FRONTEND, 0x7, FE)), given as
	 * perf's frontend= (config1:0-23); 4.13 put the 0x7 into the umask */
	{ "spr", "INT_MISC:UNKNOWN_BRANCH_CYCLES", 0x40ad, "0x7ad", "perf x86/sapphirerapids/"
	  "pipeline.json v1.23 (Linux 6.12) EventCode 0xad UMask 0x40 MSRIndex 0x3F7 MSRValue "
	  "0x7" },
	/* Disagreements with Linux perf's pmu-events JSON (Linux 6.12: the
	 * x86/mapfile.csv version of each directory), found by
	 * tests/unit/test-perf-events, which encodes every event perf and libpfm4 both
	 * name under libpfm4 (EVENT.UMASK is libpfm4's EVENT:UMASK) */
#define PERF(dir, v, what) "perf x86/" dir " " v " (Linux 6.12) " what
	{ "nhm", "MACRO_INSTS:FUSIONS_DECODED", 0x1a6, "0x1d0",
	  PERF("nehalemep", "v4", "EventCode 0xa6 UMask 0x1") },
	{ "wsm", "BR_MISP_RETIRED:ALL_BRANCHES", 0x4c5, "0xc5",
	  PERF("westmereep-sp", "v4", "EventCode 0xc5 UMask 0x4") },
	{ "ivb", "MOVE_ELIMINATION:INT_ELIMINATED", 0x158, "0x458 (swapped with "
	  "INT_NOT_ELIMINATED)", PERF("ivybridge", "v24", "EventCode 0x58 UMask 0x1") },
	{ "ivb", "MOVE_ELIMINATION:INT_NOT_ELIMINATED", 0x458, "0x158",
	  PERF("ivybridge", "v24", "EventCode 0x58 UMask 0x4") },
#define L2_RQSTS(pmu, dir, v) \
	{ pmu, "L2_RQSTS:CODE_RD_HIT", 0xc424, "0x4424", PERF(dir, v, "UMask 0xc4") }, \
	{ pmu, "L2_RQSTS:DEMAND_DATA_RD_HIT", 0xc124, "0x4124", PERF(dir, v, "UMask 0xc1") }, \
	{ pmu, "L2_RQSTS:L2_PF_HIT", 0xd024, "0xd824", PERF(dir, v, "UMask 0xd0") }, \
	{ pmu, "L2_RQSTS:L2_PF_MISS", 0x3024, "0x3824", PERF(dir, v, "UMask 0x30") }, \
	{ pmu, "L2_RQSTS:RFO_HIT", 0xc224, "0x4224", PERF(dir, v, "UMask 0xc2") }, \
	{ pmu, "UOPS_RETIRED:TOTAL_CYCLES", 0x108001c2, "0xa8001c2", \
	  PERF(dir, v, "EventCode 0xc2 UMask 0x1 CounterMask 16 Invert 1") }
	L2_RQSTS("hsw", "haswell", "v35"), L2_RQSTS("bdw", "broadwell", "v29"),
#undef L2_RQSTS
	{ "skl", "UOPS_RETIRED:TOTAL_CYCLES", 0x108002c2, "0xa8001c2",
	  PERF("skylake", "v59", "EventCode 0xc2 UMask 0x2 CounterMask 16 Invert 1") },
	{ "skx", "UOPS_RETIRED:STALL_CYCLES", 0x18002c2, "0x18001c2",
	  PERF("skylakex", "v1.35", "EventCode 0xc2 UMask 0x2 CounterMask 1 Invert 1") },
	{ "skx", "UOPS_RETIRED:TOTAL_CYCLES", 0x108002c2, "0xa8001c2",
	  PERF("skylakex", "v1.35", "EventCode 0xc2 UMask 0x2 CounterMask 16 Invert 1") },
	{ "clx", "UOPS_RETIRED:STALL_CYCLES", 0x18002c2, "0x18001c2",
	  PERF("cascadelakex", "v1.22", "EventCode 0xc2 UMask 0x2 CounterMask 1 Invert 1") },
	{ "clx", "UOPS_RETIRED:TOTAL_CYCLES", 0x108002c2, "0xa8001c2",
	  PERF("cascadelakex", "v1.22", "EventCode 0xc2 UMask 0x2 CounterMask 16 Invert 1") },
	{ "icl", "MEM_LOAD_MISC_RETIRED:UC", 0x4d4, "0x4c4",
	  PERF("icelake", "v1.22", "EventCode 0xd4 UMask 0x4") },
	{ "icx", "MEM_LOAD_MISC_RETIRED:UC", 0x4d4, "0x4c4",
	  PERF("icelakex", "v1.26", "EventCode 0xd4 UMask 0x4") },
	{ "spr", "ARITH:IDIV_ACTIVE", 0x10008b0, "0x8b0",
	  PERF("sapphirerapids", "v1.23", "EventCode 0xb0 UMask 0x8 CounterMask 1") },
	{ "spr", "ARITH:INT_DIVIDER_ACTIVE", 0x10008b0, "0x8b0",
	  PERF("sapphirerapids", "v1.23", "EventCode 0xb0 UMask 0x8 CounterMask 1") },
	{ "spr", "MEM_TRANS_RETIRED:STORE_SAMPLE", 0x2cd, "0x3cd",
	  PERF("sapphirerapids", "v1.23", "EventCode 0xcd UMask 0x2") },
#undef PERF
	/* missing in 4.13 */
	/* libpfm4 4.13 cannot write these (it will not combine the UOPS_EXECUTED
	 * umasks on nhm, nor change the cmask of wsm's CORE_ACTIVE_CYCLES, and
	 * has no UOPS_EXECUTED:THREAD on hsw): the perfmon event with the
	 * cmask of the ILP sweep step, as ../shared/MODERN-PMU.md 1.5 derives. */
	{ "nhm", "UOPS_EXECUTED:CORE_STALL_CYCLES", 0x1a03fb1, "unknown", NHM
	  " UOPS_EXECUTED.CORE_STALL_CYCLES EventCode 0xb1 UMask 0x3f AnyThread 1 CMask 1 Inv 1" },
	{ "nhm", "UOPS_EXECUTED:CORE_ACTIVE_CYCLES", 0x1203fb1, "unknown", NHM
	  " UOPS_EXECUTED.CORE_ACTIVE_CYCLES EventCode 0xb1 UMask 0x3f AnyThread 1 CMask 1" },
#define CORE_SWEEP(pmu, k, src) \
	{ pmu, "UOPS_EXECUTED:CORE_ACTIVE_CYCLES:c=" #k, 0x203fb1 | (k << 24), "unknown", \
	  src " UOPS_EXECUTED.CORE_ACTIVE_CYCLES with CMask " #k }
	CORE_SWEEP("nhm", 2, NHM), CORE_SWEEP("nhm", 3, NHM), CORE_SWEEP("nhm", 4, NHM),
	CORE_SWEEP("nhm", 5, NHM), CORE_SWEEP("nhm", 6, NHM),
	CORE_SWEEP("wsm", 2, WSM), CORE_SWEEP("wsm", 3, WSM), CORE_SWEEP("wsm", 4, WSM),
	CORE_SWEEP("wsm", 5, WSM), CORE_SWEEP("wsm", 6, WSM),
#undef CORE_SWEEP
	{ "hsw", "UOPS_EXECUTED:THREAD", 0x1b1, "unknown", HSW " UOPS_EXECUTED.STALL_CYCLES's "
	  "event and umask (EventCode 0xb1 UMask 0x01) without CMask/Inv" },
#define HSW_SWEEP(k) \
	{ "hsw", "UOPS_EXECUTED:THREAD:c=" #k, 0x1b1 | (k << 24), "unknown", \
	  HSW " EventCode 0xb1 UMask 0x01 with CMask " #k " (UOPS_EXECUTED.CYCLES_GE_" #k \
	  "_UOP_EXEC for k <= 4)" }
	HSW_SWEEP(1), HSW_SWEEP(2), HSW_SWEEP(3), HSW_SWEEP(4), HSW_SWEEP(5), HSW_SWEEP(6),
	HSW_SWEEP(7), HSW_SWEEP(8),
#undef HSW_SWEEP
	{ "skl", "UOPS_RETIRED:MACRO_FUSED", 0x4c2, "unknown", SKL " UOPS_RETIRED.MACRO_FUSED "
	  "EventCode 0xc2 UMask 0x04" },
	{ "amd64_fam19h_zen4", "CYCLES_NO_RETIRE:ALL", 0x1bd6, "unknown (NCOMBO)",
	  "perf amdzen4/execution.json ex_no_retire.all EventCode 0xd6 UMask 0x1b" },
#define TD(pmu, name, umask, what) \
	{ pmu, name, (umask) << 8, "unknown", KTD " " what }
	TD("icl", "PERF_METRICS:RETIRING", 0x80, "topdown-retiring"),
	TD("icl", "PERF_METRICS:BAD_SPECULATION", 0x81, "topdown-bad-spec"),
	TD("icl", "PERF_METRICS:FRONTEND_BOUND", 0x82, "topdown-fe-bound"),
	TD("icl", "PERF_METRICS:BACKEND_BOUND", 0x83, "topdown-be-bound"),
	TD("icx", "PERF_METRICS:RETIRING", 0x80, "topdown-retiring"),
	TD("icx", "PERF_METRICS:BAD_SPECULATION", 0x81, "topdown-bad-spec"),
	TD("icx", "PERF_METRICS:FRONTEND_BOUND", 0x82, "topdown-fe-bound"),
	TD("icx", "PERF_METRICS:BACKEND_BOUND", 0x83, "topdown-be-bound"),
	TD("spr", "PERF_METRICS:RETIRING", 0x80, "topdown-retiring"),
	TD("spr", "PERF_METRICS:BAD_SPECULATION", 0x81, "topdown-bad-spec"),
	TD("spr", "PERF_METRICS:FRONTEND_BOUND", 0x82, "topdown-fe-bound"),
	TD("spr", "PERF_METRICS:BACKEND_BOUND", 0x83, "topdown-be-bound"),
	TD("spr", "PERF_METRICS:HEAVY_OPERATIONS", 0x84, "topdown-heavy-ops"),
	TD("spr", "PERF_METRICS:BRANCH_MISPREDICTS", 0x85, "topdown-br-mispredict"),
	TD("spr", "PERF_METRICS:FETCH_LATENCY", 0x86, "topdown-fetch-lat"),
	TD("spr", "PERF_METRICS:MEMORY_BOUND", 0x87, "topdown-mem-bound"),
#undef TD
};

const struct pfm_fix *pfm_fix_at(size_t i)
{
	return i < sizeof(fixes) / sizeof(fixes[0]) ? &fixes[i] : NULL;
}

const struct pfm_fix *pfm_fix_find(const char *pmu, const char *event)
{
	char want[256], have[256];
	const char *sep = strstr(event, "::");
	const struct pfm_fix *f;

	if (!pmu)
		return NULL;
	if (sep) {
		if ((size_t)(sep - event) != strlen(pmu) || strncasecmp(event, pmu, strlen(pmu)))
			return NULL;
		event = sep + 2;
	}
	if (!event_canon(event, want, sizeof(want)))
		return NULL;
	for (size_t i = 0; (f = pfm_fix_at(i)) != NULL; i++)
		if (strcmp(f->pmu, pmu) == 0 && event_canon(f->event, have, sizeof(have)) &&
		    strcmp(have, want) == 0)
			return f;
	return NULL;
}

/* Corrections with an MSR value: attr.config1 beside the row's config. */
static const struct { const char *pmu, *event; uint64_t config1; } fix_config1[] = {
	{ "spr", "INT_MISC:UNKNOWN_BRANCH_CYCLES", 0x7 },
	/* perf x86/sapphirerapids/pipeline.json v1.23 UOPS_RETIRED.MS MSRIndex 0x3F7
	 * MSRValue 0x8; the kernel's INTEL_UEVENT_EXTRA_REG(0x04c2, MSR_PEBS_FRONTEND,
	 * 0x8, FE) (intel_glc_extra_regs) */
	{ "spr", "UOPS_RETIRED:MS", 0x8 },
};

uint64_t pfm_fix_config1(const struct pfm_fix *fix)
{
	for (size_t i = 0; fix && i < sizeof(fix_config1) / sizeof(fix_config1[0]); i++)
		if (strcmp(fix->pmu, fix_config1[i].pmu) == 0 &&
		    strcmp(fix->event, fix_config1[i].event) == 0)
			return fix_config1[i].config1;
	return 0;
}

/* AMD K8 (Athlon 64, Opteron) and Family 10h (Phenom, quad-core Opteron):
 * 4 generic counters, no fixed counters, no per-counter restrictions for the
 * core events below (AMD BKDG for Fam 0Fh and 10h; Linux
 * arch/x86/events/amd/core.c applies constraints only from Fam 15h on).
 * Northbridge events (0xE0 DRAM, 0x4E0/0x4E1 L3) are shared by the cores of
 * a node.
 *
 * Names (the abbreviations), event selects, unit masks and recommended
 * periods: Drongowski, "Basic Performance Measurements for AMD Athlon 64,
 * AMD Opteron and AMD Phenom Processors" (seeds/004), sections 4.2-4.6.
 * FAMDEP unit masks differ between the two tables below. */
#include "arch/model.h"

#define HI 500000   /* paper: period for high-frequency events */
#define LO 50000    /* paper: period for low-frequency events */
#define C(s, u) { .sel = (s), .umask = (u) }
#define E(name, pfm, sel, umask, sav, desc) { name, pfm, C(sel, umask), 0, -1, sav, desc }

/* Events whose encoding is the same on both families. */
static const struct arch_event amd_common[] = {
	E("CPU_clocks", "CPU_CLK_UNHALTED", 0x76, 0x00, HI, "CPU clocks not halted"),
	E("Ret_instructions", "RETIRED_INSTRUCTIONS", 0xc0, 0x00, HI, "retired instructions"),
	E("System_read", "SYSTEM_READ_RESPONSES:EXCLUSIVE:MODIFIED:SHARED", 0x6c, 0x07, HI,
	  "system read responses by coherency state"),
	E("System_write", "QUADWORDS_WRITTEN_TO_SYSTEM:QUADWORD_WRITE_TRANSFER", 0x6d, 0x01, HI,
	  "quadwords (K8) / octwords (Fam10h) written to system"),
	E("DRAM_accesses", "DRAM_ACCESSES_PAGE:HIT:MISS:CONFLICT", 0xe0, 0x07, HI,
	  "DRAM accesses (DCT0 or the only controller)"),
	E("DC_accesses", "DATA_CACHE_ACCESSES", 0x40, 0x00, HI, "data cache accesses"),
	E("DC_misses", "DATA_CACHE_MISSES", 0x41, 0x00, LO, "data cache misses"),
	E("DC_refills_L2", "DATA_CACHE_REFILLS:L2_SHARED:L2_EXCLUSIVE:L2_OWNED:L2_MODIFIED",
	  0x42, 0x1e, LO, "data cache refills from L2"),
	E("DC_refills_sys", "DATA_CACHE_REFILLS_FROM_SYSTEM:SHARED:EXCLUSIVE:OWNED:MODIFIED",
	  0x43, 0x1e, LO, "data cache refills from system"),
	E("Misalign_access", "MISALIGNED_ACCESSES", 0x47, 0x00, LO, "misaligned accesses"),
	E("L2_requests", "REQUESTS_TO_L2:INSTRUCTIONS:DATA:TLB_WALK", 0x7d, 0x07, LO,
	  "requests to L2 cache"),
	E("L2_requests_TLB", "REQUESTS_TO_L2:TLB_WALK", 0x7d, 0x04, LO,
	  "requests to L2 cache from the page table walker"),
	E("L2_misses", "L2_CACHE_MISS:INSTRUCTIONS:DATA:TLB_WALK", 0x7e, 0x07, LO,
	  "L2 cache misses"),
	E("L2_misses_TLB", "L2_CACHE_MISS:TLB_WALK", 0x7e, 0x04, LO,
	  "L2 cache misses of the page table walker"),
	E("L2_fill_write", "L2_FILL_WRITEBACK:L2_FILLS:L2_WRITEBACKS", 0x7f, 0x03, LO,
	  "L2 fills and writebacks"),
	E("IC_fetches", "INSTRUCTION_CACHE_FETCHES", 0x80, 0x00, HI, "instruction cache fetches"),
	E("IC_misses", "INSTRUCTION_CACHE_MISSES", 0x81, 0x00, LO, "instruction cache misses"),
	E("IC_refills_L2", "INSTRUCTION_CACHE_REFILLS_FROM_L2", 0x82, 0x00, LO,
	  "instruction cache refills from L2"),
	E("IC_refills_sys", "INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM", 0x83, 0x00, LO,
	  "instruction cache refills from system"),
	E("ITLB_L1M_L2H", "L1_ITLB_MISS_AND_L2_ITLB_HIT", 0x84, 0x00, LO,
	  "L1 ITLB miss, L2 ITLB hit"),
	E("Ret_stk_hits", "RETURN_STACK_HITS", 0x88, 0x00, LO, "return stack hits"),
	E("Ret_stk_overflow", "RETURN_STACK_OVERFLOWS", 0x89, 0x00, LO, "return stack overflows"),
	E("Branches", "RETIRED_BRANCH_INSTRUCTIONS", 0xc2, 0x00, HI, "retired branches"),
	E("Mispred_branches", "RETIRED_MISPREDICTED_BRANCH_INSTRUCTIONS", 0xc3, 0x00, LO,
	  "retired mispredicted branches"),
	E("Taken_branches", "RETIRED_TAKEN_BRANCH_INSTRUCTIONS", 0xc4, 0x00, HI,
	  "retired taken branches"),
	E("Near_returns", "RETIRED_NEAR_RETURNS", 0xc8, 0x00, LO, "retired near returns"),
	E("Mispred_near_ret", "RETIRED_NEAR_RETURNS_MISPREDICTED", 0xc9, 0x00, LO,
	  "retired near returns mispredicted"),
	E("Dispatched_FP", "DISPATCHED_FPU:OPS_ADD:OPS_MULTIPLY:OPS_STORE", 0x00, 0x07, HI,
	  "dispatched FPU operations"),
	E("FPU_exceptions", "FPU_EXCEPTIONS:X87_RECLASS_MICROFAULTS:SSE_RETYPE_MICROFAULTS:"
	  "SSE_RECLASS_MICROFAULTS:SSE_AND_X87_MICROTRAPS", 0xdb, 0x0f, LO, "FPU exceptions"),
	{ NULL, NULL, C(0, 0), 0, 0, 0, NULL },
};

/* K8: DTLB/ITLB miss events take unit mask 0x00, Ret_MMX_FP 0x0F. */
static const struct arch_event amd_k8[] = {
	E("DTLB_L1M_L2H", "L1_DTLB_MISS_AND_L2_DTLB_HIT", 0x45, 0x00, LO,
	  "L1 DTLB miss, L2 DTLB hit"),
	E("DTLB_L1M_L2M", "L1_DTLB_AND_L2_DTLB_MISS", 0x46, 0x00, LO, "L1 and L2 DTLB miss"),
	E("ITLB_L1M_L2M", "L1_ITLB_MISS_AND_L2_ITLB_MISS", 0x85, 0x00, LO,
	  "L1 and L2 ITLB miss"),
	E("Ret_MMX_FP", "RETIRED_MMX_AND_FP_INSTRUCTIONS:X87:MMX_AND_3DNOW:"
	  "PACKED_SSE_AND_SSE2:SCALAR_SSE_AND_SSE2", 0xcb, 0x0f, LO,
	  "retired MMX/FP instructions"),
	{ NULL, NULL, C(0, 0), 0, 0, 0, NULL },
};

/* Fam10h: DTLB 0x07, ITLB 0x03, Ret_MMX_FP 0x07, a second DRAM controller,
 * L3 events and SSE FLOPS.  libpfm4's "barcelona" table knows only the 4K/2M
 * bits of 0x45 (the 1G-page bit came with later revisions), so the ALL mask is
 * used and libpfm4 picks the bits that revision has. */
static const struct arch_event amd_fam10h[] = {
	E("DTLB_L1M_L2H", "L1_DTLB_MISS_AND_L2_DTLB_HIT:ALL", 0x45, 0x07, LO,
	  "L1 DTLB miss, L2 DTLB hit"),
	E("DTLB_L1M_L2M", "L1_DTLB_AND_L2_DTLB_MISS:ALL", 0x46, 0x07, LO, "L1 and L2 DTLB miss"),
	E("ITLB_L1M_L2M", "L1_ITLB_MISS_AND_L2_ITLB_MISS:ALL", 0x85, 0x03, LO,
	  "L1 and L2 ITLB miss"),
	E("Ret_MMX_FP", "RETIRED_MMX_AND_FP_INSTRUCTIONS:X87:MMX_AND_3DNOW:PACKED_SSE_AND_SSE2",
	  0xcb, 0x07, LO, "retired MMX/FP instructions"),
	E("DRAM_accesses_0", "DRAM_ACCESSES_PAGE:HIT:MISS:CONFLICT", 0xe0, 0x07, HI,
	  "DRAM accesses, DCT0"),
	E("DRAM_accesses_1", "DRAM_ACCESSES_PAGE:DCT1_PAGE_HIT:DCT1_PAGE_MISS:DCT1_PAGE_CONFLICT",
	  0xe0, 0x38, HI, "DRAM accesses, DCT1"),
	E("L3_requests", "READ_REQUEST_TO_L3_CACHE:ANY_READ:ALL_CORES", 0x4e0, 0xf7, LO,
	  "read requests to L3 cache"),
	E("L3_misses", "L3_CACHE_MISSES:ANY_READ:ALL_CORES", 0x4e1, 0xf7, LO, "L3 cache misses"),
	E("SSE_SP_FLOPS", "RETIRED_SSE_OPERATIONS:SINGLE_ADD_SUB_OPS:SINGLE_MUL_OPS:"
	  "SINGLE_DIV_OPS:OP_TYPE", 0x03, 0x47, LO, "retired SSE operations, single precision"),
	E("SSE_DP_FLOPS", "RETIRED_SSE_OPERATIONS:DOUBLE_ADD_SUB_OPS:DOUBLE_MUL_OPS:"
	  "DOUBLE_DIV_OPS:OP_TYPE", 0x03, 0x78, LO, "retired SSE operations, double precision"),
	{ NULL, NULL, C(0, 0), 0, 0, 0, NULL },
};

/* Family tables first: their FAMDEP rows win over nothing in common, and a
 * name present in both (DRAM_accesses) resolves to the family's meaning. */
static const struct arch_event *const k8_tables[] = { amd_k8, amd_common, NULL };
static const struct arch_event *const fam10h_tables[] = { amd_fam10h, amd_common, NULL };

const struct arch_model model_amd64_k8 = {
	.name = "amd64_k8",
	.pmu_prefix = "amd64_k8",
	.pfm_force = "amd64_k8_revg",
	.desc = "AMD Athlon 64 / Opteron K8 (4 generic counters)",
	.tree = TREE_AMD,
	.n_generic = 4,
	.n_fixed = 0,
	.write_bytes = 8,
	.cycles = "CPU_clocks",
	.ilp_event = NULL,
	.inst_event = "Ret_instructions",
	.dispatch_width = 3,
	.tables = k8_tables,
};

const struct arch_model model_amd64_fam10h = {
	.name = "amd64_fam10h",
	.pmu_prefix = "amd64_fam10h",
	.pfm_force = "amd64_fam10h_barcelona",
	.desc = "AMD Family 10h Phenom / quad-core Opteron (4 generic counters)",
	.tree = TREE_AMD,
	.n_generic = 4,
	.n_fixed = 0,
	.write_bytes = 16,
	.cycles = "CPU_clocks",
	.ilp_event = NULL,
	.inst_event = "Ret_instructions",
	.dispatch_width = 3,
	.tables = fam10h_tables,
};

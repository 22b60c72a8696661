/* AMD Zen 1..5: the events the zen and topdown (Zen 4) trees, the presets
 * and the ILP sweep use, under libpfm4/PPR-style names with perf's amdzen
 * JSON spellings as aliases (ls_not_halted_cyc, ex_ret_ops,
 * de_no_dispatch_per_slot.no_ops_from_frontend ...).
 *
 * Sources (every row): Linux tools/perf/pmu-events/arch/x86/amdzen{2,3,4}/ *.json
 * (EventCode, UMask; per-file commits in ../shared/modern-pmu
 * ref/amd_perf_events.json), cross-checked with libpfm4 4.13 in
 * ../shared/modern-pmu/encodings_amd64_fam1{7,9}h_*.csv; Zen 1 rows use the
 * Zen 2 codes and are checked against libpfm4 only.  Event select bits 11:8
 * go to config bits 35:32 (0x1a0 -> 0x1000001a0).  The retire-side ILP
 * sweep RETIRED_OPS:c=1..8 and the no-retire cycles RETIRED_OPS:c=1:i=1 are
 * ../shared/MODERN-PMU.md 1.1 (perf zen2 ex_ret_cops: "0 to 8" ops a cycle).
 * Inventory: 6 generic counters per thread, no fixed counters, no per-event
 * constraints for these events (Linux arch/x86/events/amd/core.c:
 * AMD64_NUM_COUNTERS_CORE; pair_constraint only for large-increment events
 * such as 0x003).  ex_no_retire.all is corrected in arch/pfm-fix.c. */
#include "arch/model.h"

#define ANY 0
#define NOFIX -1
#define X(s, u, c, i, e, a) \
	{ .sel = (s), .umask = (u), .cmask = (c), .inv = (i), .edge = (e), .any = (a) }


static const struct arch_event zen1_events[] = {
	{ "CYCLES_NOT_IN_HALT|ls_not_halted_cyc", "CYCLES_NOT_IN_HALT",
	  X(0x76, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "core cycles while not halted" },
	{ "RETIRED_INSTRUCTIONS|ex_ret_instr", "RETIRED_INSTRUCTIONS",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "instructions retired" },
	{ "RETIRED_UOPS|ex_ret_ops|ex_ret_cops", "RETIRED_UOPS",
	  X(0xc1, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "macro-ops retired" },
	{ "RETIRED_UOPS:c=1:i=1|ex_ret_ops:c=1:i=1", "RETIRED_UOPS:c=1:i=1",
	  X(0xc1, 0x00, 1, 1, 0, 0), ANY, NOFIX, 2000003, "cycles with no op retired (stall on the retire side)" },
	{ "RETIRED_BRANCH_INSTRUCTIONS|ex_ret_brn", "RETIRED_BRANCH_INSTRUCTIONS",
	  X(0xc2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "branches retired" },
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED|ex_ret_brn_misp", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	  X(0xc3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "mispredicted branches retired" },
	{ "LS_DISPATCH|ls_dispatch|all_data_cache_accesses", "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH",
	  X(0x29, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache accesses (loads, stores)" },
	{ "L2_REQUESTS_FROM_DC|l2_cache_accesses_from_dc_misses|l2_request_g1.all_dc", "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:CHANGE_TO_X",
	  X(0x60, 0xc8, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 requests from data cache misses" },
	{ "L2_DEMAND_MISSES|l2_cache_req_stat.ic_dc_miss_in_l2", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:LS_RD_BLK_C",
	  X(0x64, 0x09, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 demand misses (instruction and data)" },
	{ "L2_DTLB_MISSES|l2_dtlb_misses|ls_l1_d_tlb_miss.all_l2_miss", "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS",
	  X(0x45, 0xf0, 0, 0, 0, 0), ANY, NOFIX, 0, "DTLB misses that walk the page table" },
	{ "DIV_CYCLES_BUSY_COUNT|ex_div_busy", "DIV_CYCLES_BUSY_COUNT",
	  X(0xd3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "UOPS_DISPATCHED|uops_dispatched|de_dis_uops_from_decoder", "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED:OPCACHE_DISPATCHED",
	  X(0xaa, 0x03, 0, 0, 0, 0), ANY, NOFIX, 0, "ops dispatched (decoder and op cache)" },
	{ "UOPS_DISPATCHED:c=1", "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED:OPCACHE_DISPATCHED:c=1",
	  X(0xaa, 0x03, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with an op dispatched" },
	{ "UOPS_DISPATCHED:c=1:i=1", "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED:OPCACHE_DISPATCHED:c=1:i=1",
	  X(0xaa, 0x03, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no op dispatched" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

/* Zen 1's ILP sweep, Zen 2's too: RETIRED_UOPS with CMASK 1..8. */
static const struct arch_event zen17h_ilp_events[] = {
	{ "RETIRED_UOPS:c=1|ex_ret_ops:c=1", "RETIRED_UOPS:c=1",
	  X(0xc1, 0x00, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=2|ex_ret_ops:c=2", "RETIRED_UOPS:c=2",
	  X(0xc1, 0x00, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=3|ex_ret_ops:c=3", "RETIRED_UOPS:c=3",
	  X(0xc1, 0x00, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=4|ex_ret_ops:c=4", "RETIRED_UOPS:c=4",
	  X(0xc1, 0x00, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=5|ex_ret_ops:c=5", "RETIRED_UOPS:c=5",
	  X(0xc1, 0x00, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=6|ex_ret_ops:c=6", "RETIRED_UOPS:c=6",
	  X(0xc1, 0x00, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=7|ex_ret_ops:c=7", "RETIRED_UOPS:c=7",
	  X(0xc1, 0x00, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 ops retired (ILP sweep)" },
	{ "RETIRED_UOPS:c=8|ex_ret_ops:c=8", "RETIRED_UOPS:c=8",
	  X(0xc1, 0x00, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 ops retired (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};


/* Zen 2 is Zen 1 with two more rows (its op queue and DRAM refill events),
 * listed between Zen 1's rows and the ILP sweep. */
static const struct arch_event zen2_events[] = {
	{ "UOPS_QUEUE_EMPTY|de_dis_uop_queue_empty_di0", "UOPS_QUEUE_EMPTY",
	  X(0xa9, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the op queue is empty (front end starved)" },
	{ "DATA_CACHE_REFILLS_FROM_SYSTEM.LS_MABRESP_LCL_DRAM|ls_refills_from_sys.ls_mabresp_lcl_dram", "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM",
	  X(0x43, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache fills from local DRAM" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event zen3_events[] = {
	{ "CYCLES_NOT_IN_HALT|ls_not_halted_cyc", "CYCLES_NOT_IN_HALT",
	  X(0x76, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "core cycles while not halted" },
	{ "RETIRED_INSTRUCTIONS|ex_ret_instr", "RETIRED_INSTRUCTIONS",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "instructions retired" },
	{ "RETIRED_OPS|ex_ret_ops|ex_ret_cops", "RETIRED_OPS",
	  X(0xc1, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "macro-ops retired" },
	{ "RETIRED_OPS:c=1:i=1|ex_ret_ops:c=1:i=1", "RETIRED_OPS:c=1:i=1",
	  X(0xc1, 0x00, 1, 1, 0, 0), ANY, NOFIX, 2000003, "cycles with no op retired (stall on the retire side)" },
	{ "RETIRED_BRANCH_INSTRUCTIONS|ex_ret_brn", "RETIRED_BRANCH_INSTRUCTIONS",
	  X(0xc2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "branches retired" },
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED|ex_ret_brn_misp", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	  X(0xc3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "mispredicted branches retired" },
	{ "LS_DISPATCH|ls_dispatch|all_data_cache_accesses", "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH",
	  X(0x29, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache accesses (loads, stores)" },
	{ "L2_REQUESTS_FROM_DC|l2_cache_accesses_from_dc_misses|l2_request_g1.all_dc", "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:LS_RD_BLK_C_S:CHANGE_TO_X",
	  X(0x60, 0xe8, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 requests from data cache misses" },
	{ "L2_DEMAND_MISSES|l2_cache_req_stat.ic_dc_miss_in_l2", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:LS_RD_BLK_C",
	  X(0x64, 0x09, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 demand misses (instruction and data)" },
	{ "L2_DTLB_MISSES|l2_dtlb_misses|ls_l1_d_tlb_miss.all_l2_miss", "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS",
	  X(0x45, 0xf0, 0, 0, 0, 0), ANY, NOFIX, 0, "DTLB misses that walk the page table" },
	{ "DIV_CYCLES_BUSY_COUNT|ex_div_busy", "DIV_CYCLES_BUSY_COUNT",
	  X(0xd3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "UOPS_QUEUE_EMPTY|de_dis_uop_queue_empty_di0", "UOPS_QUEUE_EMPTY",
	  X(0xa9, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the op queue is empty (front end starved)" },
	{ "OPS_TYPE_DISPATCHED_FROM_DECODER.FP|de_dis_cops_from_decoder.disp_op_type.any_fp_dispatch", "OPS_TYPE_DISPATCHED_FROM_DECODER:FP_DISP_IBS_MODE",
	  X(0xab, 0x04, 0, 0, 0, 0), ANY, NOFIX, 0, "FP ops dispatched" },
	{ "OPS_TYPE_DISPATCHED_FROM_DECODER.INT|de_dis_cops_from_decoder.disp_op_type.any_integer_dispatch", "OPS_TYPE_DISPATCHED_FROM_DECODER:INT_DISP_IBS_MODE",
	  X(0xab, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "integer ops dispatched" },
	{ "DISPATCH_RESOURCE_STALL_CYCLES_2.RETIRE_TOKEN_STALL|de_dis_dispatch_token_stalls2.retire_token_stall", "DISPATCH_RESOURCE_STALL_CYCLES_2:RETIRE_TOKEN_STALL",
	  X(0xaf, 0x20, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles dispatch waits for retire tokens (ROB full)" },
	{ "ANY_DATA_CACHE_FILLS_FROM_SYSTEM.MEM_IO|l1_data_cache_fills_from_memory", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT",
	  X(0x44, 0x48, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache fills from DRAM or IO" },
	{ "IC_TAG_HIT_MISS.IC_MISS|ic_tag_hit_miss.instruction_cache_miss", "IC_TAG_HIT_MISS:IC_MISS",
	  X(0x18e, 0x18, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache misses" },
	{ "IC_TAG_HIT_MISS.ALL_IC_ACCESS|ic_tag_hit_miss.all_instruction_cache_accesses", "IC_TAG_HIT_MISS:ALL_IC_ACCESS",
	  X(0x18e, 0x1f, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache accesses" },
	{ "RETIRED_OPS:c=1|ex_ret_ops:c=1", "RETIRED_OPS:c=1",
	  X(0xc1, 0x00, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=2|ex_ret_ops:c=2", "RETIRED_OPS:c=2",
	  X(0xc1, 0x00, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=3|ex_ret_ops:c=3", "RETIRED_OPS:c=3",
	  X(0xc1, 0x00, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=4|ex_ret_ops:c=4", "RETIRED_OPS:c=4",
	  X(0xc1, 0x00, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=5|ex_ret_ops:c=5", "RETIRED_OPS:c=5",
	  X(0xc1, 0x00, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=6|ex_ret_ops:c=6", "RETIRED_OPS:c=6",
	  X(0xc1, 0x00, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=7|ex_ret_ops:c=7", "RETIRED_OPS:c=7",
	  X(0xc1, 0x00, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=8|ex_ret_ops:c=8", "RETIRED_OPS:c=8",
	  X(0xc1, 0x00, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 ops retired (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event zen4_events[] = {
	{ "CYCLES_NOT_IN_HALT|ls_not_halted_cyc", "CYCLES_NOT_IN_HALT",
	  X(0x76, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "core cycles while not halted" },
	{ "RETIRED_INSTRUCTIONS|ex_ret_instr", "RETIRED_INSTRUCTIONS",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "instructions retired" },
	{ "RETIRED_OPS|ex_ret_ops|ex_ret_cops", "RETIRED_OPS",
	  X(0xc1, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "macro-ops retired" },
	{ "RETIRED_OPS:c=1:i=1|ex_ret_ops:c=1:i=1", "RETIRED_OPS:c=1:i=1",
	  X(0xc1, 0x00, 1, 1, 0, 0), ANY, NOFIX, 2000003, "cycles with no op retired (stall on the retire side)" },
	{ "RETIRED_BRANCH_INSTRUCTIONS|ex_ret_brn", "RETIRED_BRANCH_INSTRUCTIONS",
	  X(0xc2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "branches retired" },
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED|ex_ret_brn_misp", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	  X(0xc3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "mispredicted branches retired" },
	{ "LS_DISPATCH|ls_dispatch|all_data_cache_accesses", "LS_DISPATCH:LD_DISPATCH:STORE_DISPATCH:LD_ST_DISPATCH",
	  X(0x29, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache accesses (loads, stores)" },
	{ "L2_REQUESTS_FROM_DC|l2_cache_accesses_from_dc_misses|l2_request_g1.all_dc", "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:LS_RD_BLK_C_S:CHANGE_TO_X",
	  X(0x60, 0xe8, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 requests from data cache misses" },
	{ "L2_DEMAND_MISSES|l2_cache_req_stat.ic_dc_miss_in_l2", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS:LS_RD_BLK_C",
	  X(0x64, 0x09, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 demand misses (instruction and data)" },
	{ "L2_DTLB_MISSES|l2_dtlb_misses|ls_l1_d_tlb_miss.all_l2_miss", "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS",
	  X(0x45, 0xf0, 0, 0, 0, 0), ANY, NOFIX, 0, "DTLB misses that walk the page table" },
	{ "DIV_CYCLES_BUSY_COUNT|ex_div_busy", "DIV_CYCLES_BUSY_COUNT",
	  X(0xd3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles the divider is busy" },
	{ "IC_TAG_HIT_MISS.IC_MISS|ic_tag_hit_miss.instruction_cache_miss", "IC_TAG_HIT_MISS:IC_MISS",
	  X(0x18e, 0x18, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache misses" },
	{ "IC_TAG_HIT_MISS.ALL_IC_ACCESS|ic_tag_hit_miss.all_instruction_cache_accesses", "IC_TAG_HIT_MISS:ALL_IC_ACCESS",
	  X(0x18e, 0x1f, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache accesses" },
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER|de_src_op_disp.all", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER",
	  X(0xaa, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "ops dispatched from any source" },
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:c=1|de_src_op_disp.all:c=1", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER:c=1",
	  X(0xaa, 0x07, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with an op dispatched" },
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:c=1:i=1|de_src_op_disp.all:c=1:i=1", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER:c=1:i=1",
	  X(0xaa, 0x07, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no op dispatched" },
	{ "DISPATCH_STALLS_1.FE_NO_OPS|de_no_dispatch_per_slot.no_ops_from_frontend", "DISPATCH_STALLS_1:FE_NO_OPS",
	  X(0x1a0, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "dispatch slots the front end left empty" },
	{ "DISPATCH_STALLS_1.FE_NO_OPS:c=6|de_no_dispatch_per_slot.no_ops_from_frontend:c=6", "DISPATCH_STALLS_1:FE_NO_OPS:c=6",
	  X(0x1a0, 0x01, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles the front end delivered no op (fetch latency)" },
	{ "DISPATCH_STALLS_1.BE_STALLS|de_no_dispatch_per_slot.backend_stalls", "DISPATCH_STALLS_1:BE_STALLS",
	  X(0x1a0, 0x1e, 0, 0, 0, 0), ANY, NOFIX, 0, "dispatch slots lost to back-end stalls" },
	{ "DISPATCH_STALLS_1.SMT_CONTENTION|de_no_dispatch_per_slot.smt_contention", "DISPATCH_STALLS_1:SMT_CONTENTION",
	  X(0x1a0, 0x60, 0, 0, 0, 0), ANY, NOFIX, 0, "dispatch slots given to the other thread" },
	{ "RESYNCS|resyncs_or_nc_redirects", "RESYNCS",
	  X(0x96, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "pipeline restarts (resyncs, non-cacheable redirects)" },
	{ "RETIRED_UCODE_OPS|ex_ret_ucode_ops", "RETIRED_UCODE_OPS",
	  X(0x1c2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "microcoded ops retired" },
	{ "CYCLES_NO_RETIRE.ALL|ex_no_retire.all", "CYCLES_NO_RETIRE:ALL",
	  X(0xd6, 0x1b, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no op retired, any reason" },
	{ "CYCLES_NO_RETIRE.EMPTY|ex_no_retire.empty", "CYCLES_NO_RETIRE:EMPTY",
	  X(0xd6, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "no retire: the retire queue is empty" },
	{ "CYCLES_NO_RETIRE.NOT_COMPLETE|ex_no_retire.not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU",
	  X(0xd6, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "no retire: the oldest op is not complete" },
	{ "CYCLES_NO_RETIRE.LOAD_NOT_COMPLETE|ex_no_retire.load_not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD",
	  X(0xd6, 0xa2, 0, 0, 0, 0), ANY, NOFIX, 0, "no retire: waiting for a load" },
	{ "CYCLES_NO_RETIRE.OTHER|ex_no_retire.other", "CYCLES_NO_RETIRE:OTHER",
	  X(0xd6, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "no retire: other reasons" },
	{ "CYCLES_NO_RETIRE.THREAD_NOT_SELECTED|ex_no_retire.thread_not_selected", "CYCLES_NO_RETIRE:THREAD_NOT_SELECTED",
	  X(0xd6, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "no retire: the other thread retired" },
	{ "ANY_DATA_CACHE_FILLS_FROM_SYSTEM.DRAM_IO|ls_any_fills_from_sys.dram_io_all", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR:DRAM_IO_FAR",
	  X(0x44, 0x48, 0, 0, 0, 0), ANY, NOFIX, 0, "data cache fills from DRAM or IO" },
	{ "RETIRED_OPS:c=1|ex_ret_ops:c=1", "RETIRED_OPS:c=1",
	  X(0xc1, 0x00, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=2|ex_ret_ops:c=2", "RETIRED_OPS:c=2",
	  X(0xc1, 0x00, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=3|ex_ret_ops:c=3", "RETIRED_OPS:c=3",
	  X(0xc1, 0x00, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=4|ex_ret_ops:c=4", "RETIRED_OPS:c=4",
	  X(0xc1, 0x00, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=5|ex_ret_ops:c=5", "RETIRED_OPS:c=5",
	  X(0xc1, 0x00, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=6|ex_ret_ops:c=6", "RETIRED_OPS:c=6",
	  X(0xc1, 0x00, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=7|ex_ret_ops:c=7", "RETIRED_OPS:c=7",
	  X(0xc1, 0x00, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 ops retired (ILP sweep)" },
	{ "RETIRED_OPS:c=8|ex_ret_ops:c=8", "RETIRED_OPS:c=8",
	  X(0xc1, 0x00, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 ops retired (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};
/* AMD Zen 5 (Family 1Ah): libpfm4 4.13 has no PMU for it, so its rows carry
 * perf's names as their strings and encode from perf's table (engine/
 * events.c, arch/perf-events-data.c).  Every row: Linux 6.12
 * tools/perf/pmu-events/arch/x86/amdzen5/{load-store,execution,decode,
 * branch-prediction,l2-cache,inst-cache}.json (mapfile.csv v1), checked
 * against the generated table by tests/unit/test-perf-events.  Zen 5 dispatches
 * and retires up to 8 ops a cycle (amdzen5/pipeline.json total_dispatch_slots
 * = 8 * ls_not_halted_cyc; frontend_bound_by_latency uses cmask 0x8);
 * pipeline restarts are bp_redirects.resync (resyncs_or_nc_redirects is gone).
 * Inventory: 6 generic counters per thread, no fixed counters (Linux
 * arch/x86/events/amd/core.c: Family 17h on have 6 core counters,
 * PerfMonV2 on Zen 4 and 5). */
static const struct arch_event zen5_events[] = {
	{ "ls_not_halted_cyc", "ls_not_halted_cyc",
	  X(0x76, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "core cycles not in halt" },
	{ "ex_ret_instr", "ex_ret_instr",
	  X(0xc0, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "retired instructions" },
	{ "ex_ret_ops", "ex_ret_ops",
	  X(0xc1, 0x00, 0, 0, 0, 0), ANY, NOFIX, 2000003, "retired macro-ops" },
	{ "ex_ret_ops:c=1:i=1", "ex_ret_ops:c=1:i=1",
	  X(0xc1, 0x00, 1, 1, 0, 0), ANY, NOFIX, 2000003, "cycles with no op retired (stall on the retire side)" },
	{ "ex_ret_brn", "ex_ret_brn",
	  X(0xc2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "retired branch instructions (all types of architectural control flow changes, including exception" },
	{ "ex_ret_brn_misp", "ex_ret_brn_misp",
	  X(0xc3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "retired branch instructions mispredicted" },
	{ "de_src_op_disp.all", "de_src_op_disp.all",
	  X(0xaa, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "ops dispatched from any source" },
	{ "de_src_op_disp.all:c=1", "de_src_op_disp.all:c=1",
	  X(0xaa, 0x07, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with an op dispatched" },
	{ "de_src_op_disp.all:c=1:i=1", "de_src_op_disp.all:c=1:i=1",
	  X(0xaa, 0x07, 1, 1, 0, 0), ANY, NOFIX, 0, "cycles with no op dispatched" },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", "de_no_dispatch_per_slot.no_ops_from_frontend",
	  X(0x1a0, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "in each cycle counts dispatch slots left empty because the front-end did not supply ops" },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend:c=8", "de_no_dispatch_per_slot.no_ops_from_frontend:c=8",
	  X(0x1a0, 0x01, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles the front end delivered no op (fetch latency)" },
	{ "de_no_dispatch_per_slot.backend_stalls", "de_no_dispatch_per_slot.backend_stalls",
	  X(0x1a0, 0x1e, 0, 0, 0, 0), ANY, NOFIX, 0, "in each cycle counts ops unable to dispatch because of back-end stalls" },
	{ "de_no_dispatch_per_slot.smt_contention", "de_no_dispatch_per_slot.smt_contention",
	  X(0x1a0, 0x60, 0, 0, 0, 0), ANY, NOFIX, 0, "in each cycle counts ops unable to dispatch because the dispatch cycle was granted to the other S" },
	{ "bp_redirects.resync", "bp_redirects.resync",
	  X(0x9f, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "redirects of the branch predictor caused by resyncs" },
	{ "ex_ret_ucode_ops", "ex_ret_ucode_ops",
	  X(0x1c2, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "retired microcode ops" },
	{ "ex_no_retire.all", "ex_no_retire.all",
	  X(0xd6, 0x1b, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire for any reason" },
	{ "ex_no_retire.empty", "ex_no_retire.empty",
	  X(0xd6, 0x01, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire due to the lack of valid ops in the retire queue (may be caused by front-en" },
	{ "ex_no_retire.not_complete", "ex_no_retire.not_complete",
	  X(0xd6, 0x02, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire while the oldest op is waiting to be executed" },
	{ "ex_no_retire.load_not_complete", "ex_no_retire.load_not_complete",
	  X(0xd6, 0xa2, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire while the oldest op is waiting for load data" },
	{ "ex_no_retire.other", "ex_no_retire.other",
	  X(0xd6, 0x08, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire caused by other reasons (retire breaks, traps, faults, etc.)" },
	{ "ex_no_retire.thread_not_selected", "ex_no_retire.thread_not_selected",
	  X(0xd6, 0x10, 0, 0, 0, 0), ANY, NOFIX, 0, "cycles with no retire because thread arbitration did not select the thread" },
	{ "ls_dispatch.all", "ls_dispatch.all",
	  X(0x29, 0x07, 0, 0, 0, 0), ANY, NOFIX, 0, "number of memory operations dispatched to the load-store unit" },
	{ "l2_request_g1.all_dc", "l2_request_g1.all_dc",
	  X(0x60, 0xe0, 0, 0, 0, 0), ANY, NOFIX, 0, "L2 cache requests of common types from L1 data cache (including prefetches)" },
	{ "l2_cache_req_stat.ic_dc_miss_in_l2", "l2_cache_req_stat.ic_dc_miss_in_l2",
	  X(0x64, 0x09, 0, 0, 0, 0), ANY, NOFIX, 0, "core to L2 cache requests (not including L2 prefetch) for data and instruction cache misses" },
	{ "ls_l1_d_tlb_miss.all", "ls_l1_d_tlb_miss.all",
	  X(0x45, 0xff, 0, 0, 0, 0), ANY, NOFIX, 0, "L1 DTLB misses for all page sizes" },
	{ "ls_l1_d_tlb_miss.all_l2_miss", "ls_l1_d_tlb_miss.all_l2_miss",
	  X(0x45, 0xf0, 0, 0, 0, 0), ANY, NOFIX, 0, "L1 DTLB misses with L2 DTLB misses (page-table walks are requested) for all page sizes" },
	{ "ic_tag_hit_miss.instruction_cache_miss", "ic_tag_hit_miss.instruction_cache_miss",
	  X(0x18e, 0x18, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache misses" },
	{ "ic_tag_hit_miss.all_instruction_cache_accesses", "ic_tag_hit_miss.all_instruction_cache_accesses",
	  X(0x18e, 0x1f, 0, 0, 0, 0), ANY, NOFIX, 0, "instruction cache accesses of all types" },
	{ "ex_div_busy", "ex_div_busy",
	  X(0xd3, 0x00, 0, 0, 0, 0), ANY, NOFIX, 0, "number of cycles the divider is busy" },
	{ "ls_any_fills_from_sys.dram_io_all", "ls_any_fills_from_sys.dram_io_all",
	  X(0x44, 0x48, 0, 0, 0, 0), ANY, NOFIX, 0, "any data cache fills from either DRAM or MMIO in any NUMA node (same or different socket)" },
	{ "ex_ret_ops:c=1", "ex_ret_ops:c=1",
	  X(0xc1, 0x00, 1, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 1 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=2", "ex_ret_ops:c=2",
	  X(0xc1, 0x00, 2, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 2 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=3", "ex_ret_ops:c=3",
	  X(0xc1, 0x00, 3, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 3 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=4", "ex_ret_ops:c=4",
	  X(0xc1, 0x00, 4, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 4 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=5", "ex_ret_ops:c=5",
	  X(0xc1, 0x00, 5, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 5 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=6", "ex_ret_ops:c=6",
	  X(0xc1, 0x00, 6, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 6 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=7", "ex_ret_ops:c=7",
	  X(0xc1, 0x00, 7, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 7 ops retired (ILP sweep)" },
	{ "ex_ret_ops:c=8", "ex_ret_ops:c=8",
	  X(0xc1, 0x00, 8, 0, 0, 0), ANY, NOFIX, 0, "cycles with >= 8 ops retired (ILP sweep)" },
	{ NULL, NULL, X(0, 0, 0, 0, 0, 0), 0, 0, 0, NULL },
};

static const struct arch_event *const zen1_tables[] = { zen1_events, zen17h_ilp_events, NULL };
static const struct arch_event *const zen2_tables[] = { zen1_events, zen2_events,
							zen17h_ilp_events, NULL };
static const struct arch_event *const zen3_tables[] = { zen3_events, NULL };
static const struct arch_event *const zen4_tables[] = { zen4_events, NULL };
static const struct arch_event *const zen5_tables[] = { zen5_events, NULL };

#define ZEN(id, pmu, what, stall, perf) \
	const struct arch_model model_##id = { \
		.name = pmu, .pmu_prefix = pmu, .pfm_force = pmu, .desc = what, \
		.tree = TREE_ZEN, .n_generic = 6, .n_generic_nosmt = 6, .n_fixed = 0, \
		.pipeline_width = 6, .cycles = "CYCLES_NOT_IN_HALT", .dispatch_width = 8, \
		.ilp_sweep = "ex_ret_ops", \
		.stall_event = stall, .inst_event = "RETIRED_INSTRUCTIONS", .tables = id##_tables, \
		.perf_events = perf, \
	}
ZEN(zen1, "amd64_fam17h_zen1", "AMD Zen 1 (6 generic counters)",
    "RETIRED_UOPS:c=1:i=1", "amdzen1");
ZEN(zen2, "amd64_fam17h_zen2", "AMD Zen 2 (6 generic counters)",
    "RETIRED_UOPS:c=1:i=1", "amdzen2");
ZEN(zen3, "amd64_fam19h_zen3", "AMD Zen 3 (6 generic counters)",
    "RETIRED_OPS:c=1:i=1", "amdzen3");
ZEN(zen4, "amd64_fam19h_zen4", "AMD Zen 4 (6 generic counters)",
    "RETIRED_OPS:c=1:i=1", "amdzen4");

const struct arch_model model_zen5 = {
	.name = "amd64_fam1ah_zen5", .pmu_prefix = "amd64_fam1ah_zen5", .pfm_force = NULL,
	.desc = "AMD Zen 5 (6 generic counters; perf's amdzen5 events)", .tree = TREE_ZEN,
	.n_generic = 6, .n_generic_nosmt = 6, .n_fixed = 0, .pipeline_width = 8,
	.cycles = "ls_not_halted_cyc", .dispatch_width = 8, .ilp_sweep = "ex_ret_ops",
	.stall_event = "ex_ret_ops:c=1:i=1", .inst_event = "ex_ret_instr", .tables = zen5_tables,
	.perf_events = "amdzen5",
};

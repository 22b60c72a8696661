/* CPU models: counter inventories, event aliases, constraints.
 *
 * Pure data plus lookups.  libpfm4 does the encoding (engine/pfm.c); what it
 * lacks lives here: the papers' event names, per-event counter constraints,
 * family-dependent unit masks, IA-64 events, write widths.  Every row cites
 * where its numbers come from. */
#ifndef ARCH_MODEL_H
#define ARCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum arch_tree {
	TREE_NONE = -1,
	TREE_CORE2,
	TREE_IA64,
	TREE_AMD,
	TREE_SW,
	TREE_INTEL,    /* Core2 master equation on Sandy Bridge .. Sapphire Rapids */
	TREE_TOPDOWN,  /* perf's TopDown level 1-2 (Intel tma_*, AMD Zen 4 pipeline) */
	TREE_ZEN,      /* master equation on Zen 1-4 (dispatch basis) */
	TREE_ARM,      /* master equation on Armv8 cores (Neoverse, Cortex-A) */
	TREE_WALL,     /* wall time: on the CPU and off it by reason (off-cpu) */
	TREE_COUNT
};

/* How a model's event codes become perf's attr.config. */
enum model_encoding {
	ENC_PERFEVTSEL,  /* x86: PERFEVTSEL fields (event_code_config) */
	ENC_ARMV8,       /* Arm PMUv3: config = the event number (PMEVTYPER<n>_EL0.evtCount) */
};

/* Vendor encoding of an event: x86 PERFEVTSEL fields; on Arm only .sel, the
 * 16-bit event number (0x11 CPU_CYCLES, 0x4005 STALL_BACKEND_MEM). */
struct arch_code {
	uint16_t sel;   /* event select (AMD up to 12 bits; Arm event number) */
	uint8_t umask;
	uint8_t cmask;
	bool inv;
	bool edge;
	bool any;       /* AnyThread (bit 21): both SMT threads (NHM..SKL) */
};

/* One event of a model under the name the papers use. */
struct arch_event {
	const char *name;       /* paper name: RS_UOPS_DISPATCHED.CYCLES_NONE, Ret_instructions */
	const char *pfm;        /* libpfm4 string for this model (NULL: not in libpfm4) */
	struct arch_code code;  /* vendor values, checked against libpfm4 by tests */
	uint8_t counters;       /* bitmask of generic counters it may use; 0 = any */
	int8_t fixed;           /* fixed counter it may use instead, or -1 */
	uint32_t sav;           /* recommended sample-after value, 0 = none */
	const char *desc;
};

/* A penalty in cycles for one event of a model whose stalls have no cycle
 * event (Nehalem/Westmere loads by source): the asm view's penalty column. */
struct model_penalty {
	const char *event;   /* row name; NULL ends the table */
	double cycles;
	const char *source;
};

struct arch_model {
	const char *name;       /* our model name: core, amd64_k8, amd64_fam10h, ia64, perf */
	const char *pmu_prefix; /* libpfm4 PMU names it covers (prefix match) */
	const char *pfm_force;  /* PMU to force in libpfm4 for encodings, NULL if none */
	/* ENC_ARMV8 models encode from .code, never through libpfm4 (whose arm
	 * tables an x86 build lacks); their rows' pfm holds the architecture's
	 * event name, the one libpfm4's arm tables and perf's JSON use. */
	enum model_encoding encoding;
	const char *desc;
	enum arch_tree tree;    /* the tree this model's events feed */
	int n_generic;          /* generic counters per thread with SMT on */
	int n_generic_nosmt;    /* ... with SMT off (0: the same) */
	int n_fixed;
	int n_metrics;          /* PERF_METRICS events beside slots (ICL 4, SPR 8), 0: none */
	int pipeline_width;     /* TopDown slots per cycle (0: no TopDown); on Arm the
				 * default of PMMIR_EL1.SLOTS, which the kernel's caps/slots
				 * overrides (tree_ctx.slots) */
	const char *slots_event; /* the PERF_METRICS group leader (TOPDOWN.SLOTS) */
	int write_bytes;        /* AMD System_write transfer size: 8 (K8) or 16 (Fam10h) */
	const char *cycles;     /* reference event carried in every group */
	const char *ilp_event;  /* dispatch event swept with cmask=1..width+1, inv=1 */
	int dispatch_width;     /* maximum uops dispatched per cycle (ILP bins) */
	/* The modern ILP sweep "EVENT:c=k", k = 1..dispatch_width (cycles with at
	 * least k uops); NULL where the sweep is ilp_event's cmask/inv form. */
	const char *ilp_sweep;
	/* Why the model has no ILP histogram, in one line (an Armv8 PMU without
	 * a counter threshold...), printed by the ILP view and the tree; NULL:
	 * it has one, or says nothing. */
	const char *no_ilp;
	/* The asm view's references (NULL when the model has none): */
	const char *stall_event; /* stall cycles to set penalty cycles against */
	const char *inst_event;  /* retired instructions, for loop iterations */
	const char *bus_event;   /* cache lines over the bus, for bus efficiency */
	/* the asm view's penalties; NULL: the Core2 paper's (arch/penalty.c) */
	const struct model_penalty *penalties;
	const struct arch_event *const *tables; /* searched in order, NULL-terminated */
	/* Linux perf's core events of this CPU (arch/perf-events.h): the table
	 * generated from perf's pmu-events JSON ("amdzen4", "sapphirerapids",
	 * "alderlake_atom"), NULL if none.  perf's names resolve through it and
	 * its encoding wins over libpfm4's (engine/events.c). */
	const char *perf_events;
};

const struct arch_model *model_find(const char *name);
/* The model of perf's HEADER_CPUID string ("GenuineIntel,6,23,10"), or
 * NULL when cyctop has no tables for that CPU. */
const struct arch_model *model_from_cpuid(const char *cpuid);
/* The model of an Arm core by its MIDR_EL1 fields (implementer 0x41 is Arm,
 * part 0xd0c Neoverse N1 ...), NULL when cyctop has no tables for it. */
const struct arch_model *model_from_midr(unsigned implementer, unsigned part);
const struct arch_model *model_for_tree(enum arch_tree tree);
const struct arch_model *model_at(size_t i);   /* NULL past the end */

/* Finds the row of MODEL that NAME denotes: a paper name, a libpfm4 string
 * (case, order of unit masks and modifier spelling do not matter) or a raw
 * x86 code "rHEX".  NULL if none.  Walks the model's rows. */
const struct arch_event *model_lookup(const struct arch_model *model, const char *name);

/* The same through IX, every canonical spelling of a model's rows to its
 * row, built on the first lookup of that model and kept: one probe a
 * lookup.  Made and kept by whoever looks up many names (a counts file's
 * resolver); IX NULL is model_lookup. */
struct model_index;
struct model_index *model_index_new(void);   /* NULL: out of memory */
void model_index_free(struct model_index *ix);
const struct arch_event *model_index_lookup(struct model_index *ix, const struct arch_model *model,
					    const char *name);

/* Canonical spelling of an event string for matching: upper case, unit masks
 * sorted, modifiers as :C=n:E=1:I=1, privilege modifiers dropped, a paper's
 * EVENT.UMASK turned into EVENT:UMASK.  Returns false if it does not fit. */
bool event_canon(const char *name, char *out, size_t outsz);

/* Decodes "r<hex>" (perf's raw syntax) into vendor fields. */
bool event_raw_decode(const char *name, struct arch_code *code);

/* The PERFEVTSEL value of CODE (AMD event select bits 11:8 in 35:32), as
 * perf's attr.config for PERF_TYPE_RAW. */
unsigned long long event_code_config(const struct arch_code *code);

/* The same for MODEL's encoding: on Arm "r11" is event 0x11 and the config
 * is the event number (perf's armv8 PMU format "event=config:0-15"); x86 as
 * above.  MODEL may be NULL (x86). */
bool model_raw_decode(const struct arch_model *model, const char *name, struct arch_code *code);
unsigned long long model_code_config(const struct arch_model *model, const struct arch_code *code);

/* perf's event NAME on MODEL (any case; with :c=N:i=1:e=1 modifiers, or in
 * perf's cpu/NAME,cmask=N,inv/ syntax): its CODE, attr.config1 (the MSR value
 * of offcore_rsp=, ldlat=, frontend=) and perf's spelling.  False when NAME
 * is no event of MODEL's perf table. */
struct perf_events_table;
const struct perf_events_table *model_perf_table(const struct arch_model *model);
bool model_perf_code(const struct arch_model *model, const char *name, struct arch_code *code,
		     uint64_t *config1, const char **perf_name);

/* Whether MODEL is a hardware PMU's (x86 through libpfm4, or Arm from our
 * tables), not the software "perf" model or IA-64's table. */
bool model_is_hardware(const struct arch_model *model);

/* perf's PMU syntax: "cpu/event=0xb1,umask=0x1,cmask=1,inv/",
 * "cpu/UOPS_EXECUTED.THREAD,cmask=0x6/", "cpu_core/topdown-retiring/".
 * PMU receives the PMU name; NAME the event name term ("" when the event is
 * given by event= and umask=); CODE the fields given (event=, umask=,
 * cmask=, inv, edge, any); HAS_CODE whether event= was given.  Returns
 * false when NAME is not in this syntax or a term is malformed. */
struct perf_pmu_event {
	char pmu[32];  /* cpu, cpu_core, armv8_neoverse_n1 ... */
	char name[128];
	struct arch_code code;  /* event=/umask= and the modifiers */
	bool has_event;         /* event= given */
	bool has_config;        /* config= given: CONFIG is the raw attr.config */
	unsigned long long config;
};
bool event_perf_syntax(const char *name, struct perf_pmu_event *out);

/* Whether EV is a PERF_METRICS event of MODEL (topdown-*: counted through
 * the slots leader's group, on no counter of its own). */
bool event_is_metric(const struct arch_model *model, const struct arch_event *ev);

/* Iterates over every row of a model. */
typedef void (*model_visit_fn)(const struct arch_event *ev, void *arg);
void model_foreach(const struct arch_model *model, model_visit_fn fn, void *arg);

/* Whether EV may be placed on generic counter IDX. */
bool event_fits_counter(const struct arch_event *ev, int idx);

const char *tree_name(enum arch_tree tree);
enum arch_tree tree_from_name(const char *name);

#endif

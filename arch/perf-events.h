/* Linux perf's core events (tools/perf/pmu-events JSON), by perf's names,
 * for the models cyctop has: generated into arch/perf-events.c by
 * arch/gen/pmu-events.py, which records the JSON's version in that file's
 * header.  Pure data plus lookups. */
#ifndef ARCH_PERF_EVENTS_H
#define ARCH_PERF_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERF_EV_INV 1
#define PERF_EV_EDGE 2
#define PERF_EV_ANY 4
#define PERF_EV_DEPRECATED 8

/* The MSR a row's extra value is for; it goes into attr.config1 as the
 * kernel's formats say (arch/x86/events/intel/core.c). */
enum perf_ev_msr {
	PERF_MSR_NONE,
	PERF_MSR_LDLAT,     /* 0x3F6: "ldlat=config1:0-15" */
	PERF_MSR_OFFCORE,   /* 0x1A6/0x1A7: "offcore_rsp=config1:0-63" */
	PERF_MSR_FRONTEND,  /* 0x3F7: "frontend=config1:0-23" */
};

struct perf_event_row {
	uint32_t name;   /* offset in perf_events_pool: EventName as the JSON spells it */
	uint32_t desc;   /* offset: BriefDescription, one line */
	uint16_t sel;    /* EventCode (AMD up to 12 bits; Arm the 16-bit event number) */
	uint8_t umask;
	uint8_t cmask;
	uint8_t flags;   /* PERF_EV_* */
	uint8_t msr;     /* enum perf_ev_msr */
	uint16_t msrval; /* index in perf_events_msrval (0: none) */
};

struct perf_events_table {
	const char *name;     /* amdzen4, sapphirerapids, alderlake_atom, neoverse-n1 */
	const char *source;   /* perf directory and version: "x86/amdzen4 v1" */
	bool amd;             /* select bits 11:8 in config 35:32 */
	const struct perf_event_row *rows;  /* sorted by lower-case name */
	size_t n;
};

extern const char perf_events_source[];  /* which JSON: "Linux perf pmu-events, Linux 6.12..." */
extern const char perf_events_pool[];
extern const uint64_t perf_events_msrval[];
extern const struct perf_events_table perf_events_tables[];  /* NULL name ends it */

const struct perf_events_table *perf_events_table(const char *name);
/* The row of NAME (any case, perf's EVENT.UMASK spelling) in T, or NULL. */
const struct perf_event_row *perf_events_find(const struct perf_events_table *t,
					      const char *name);
static inline const char *perf_event_name(const struct perf_event_row *r)
{
	return perf_events_pool + r->name;
}
static inline const char *perf_event_desc(const struct perf_event_row *r)
{
	return perf_events_pool + r->desc;
}
/* attr.config1: the MSR value of the row, 0 if none. */
uint64_t perf_event_config1(const struct perf_event_row *r);

#endif

/* Lookups in the generated tables of perf's core events (the data is
 * arch/perf-events-data.c, written by arch/gen/pmu-events.py). */
#include "arch/perf-events.h"

#include <string.h>
#include <strings.h>

const struct perf_events_table *perf_events_table(const char *name)
{
	if (!name)
		return NULL;
	for (const struct perf_events_table *t = perf_events_tables; t->name; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

/* The rows are sorted by their lower-case names (the generator's order), so
 * strcasecmp's order is theirs: perf matches event names case-insensitively. */
const struct perf_event_row *perf_events_find(const struct perf_events_table *t,
					      const char *name)
{
	size_t lo = 0, hi = t ? t->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcasecmp(name, perf_event_name(&t->rows[mid]));
		if (c == 0)
			return &t->rows[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

uint64_t perf_event_config1(const struct perf_event_row *r)
{
	return r->msr != PERF_MSR_NONE ? perf_events_msrval[r->msrval] : 0;
}

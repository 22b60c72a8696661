/* cyctop selftest's checks in order, their context (the host, cyctop's
 * path, the fault switch).  Each check is a file of its own
 * (engine/selftest-*.c); how they watch the calibrated program is
 * engine/selftest-run.c's. */
#include "engine/selftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/events.h"
#include "engine/pfm.h"

const struct selftest selftests[] = {
	{ "host", "host: PMU, counters, paranoid, trees", st_check_host },
	{ "exact", "exact counts of the calibration loop", st_check_exact },
	{ "perf", "counts equal to perf stat's", st_check_perf },
	{ "groups", "every preset's groups scheduled whole", st_check_groups },
	{ "mux", "multiplexed estimates and coverage", st_check_mux },
	{ "sampling", "sampled shares of a 2:1 program", st_check_sampling },
	{ "method", "the trees' invariants on live counts", st_check_method },
	{ "software", "software events: clocks, faults, switches", st_check_software },
	{ NULL, NULL, NULL },
};

bool selftest_fault(const struct selftest_ctx *c, const char *fault)
{
	return c->fault && strcmp(c->fault, fault) == 0;
}

int selftest_init(struct selftest_ctx *c, const char *self, char *err, size_t errsz)
{
	static const char *const faults[] = { "scale", "startup", "counters", "split",
					      "method", "host", "member", NULL };

	memset(c, 0, sizeof(*c));
	c->self = self;
	c->fault = getenv("CYCTOP_SELFTEST_FAULT");
	if (c->fault && !*c->fault)
		c->fault = NULL;
	for (int i = 0; c->fault && faults[i]; i++)
		if (strcmp(c->fault, faults[i]) == 0)
			break;
		else if (!faults[i + 1]) {
			snprintf(err, errsz, "CYCTOP_SELFTEST_FAULT=%s: not a fault (scale, startup, "
				 "counters, split, method, host, member)", c->fault);
			return -1;
		}
	if (!(c->pfm = pfm_host_new())) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (pfm_setup(c->pfm, NULL, err, errsz) < 0)
		return -1;
	c->model = events_host_model(c->pfm);
	c->hardware = pfm_host_kernel_pmu(c->pfm) != NULL;
	st_host_read(c);
	return 0;
}

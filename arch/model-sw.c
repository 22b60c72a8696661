/* The kernel's generic events (libpfm4 "perf" PMU).  Software events count on
 * any host, including VMs without a PMU; generic hardware events need one.
 * Software events take no counter, so the inventory is unlimited (0). */
#include "arch/model.h"

#define E(name, pfm, desc) { name, pfm, { 0, 0, 0, false, false, false }, 0, -1, 0, desc }

static const struct arch_event perf_events[] = {
	E("cpu-clock", "cpu-clock", "CPU time by a per-CPU hrtimer (ns)"),
	E("task-clock", "task-clock", "CPU time of the task (ns)"),
	E("page-faults|faults", "page-faults", "page faults"),
	E("minor-faults", "minor-faults", "minor page faults"),
	E("major-faults", "major-faults", "major page faults"),
	E("context-switches|cs", "context-switches", "context switches"),
	E("cpu-migrations|migrations", "cpu-migrations", "CPU migrations"),
	E("duration_time", NULL, "wall-clock time of the measurement (ns)"),
	E("cycles|cpu-cycles", "cycles", "CPU cycles (needs a hardware PMU)"),
	E("instructions", "instructions", "retired instructions (needs a hardware PMU)"),
	E("branches|branch-instructions", "branches", "retired branches (needs a hardware PMU)"),
	E("branch-misses", "branch-misses", "mispredicted branches (needs a hardware PMU)"),
	E("cache-misses", "cache-misses", "last-level cache misses (needs a hardware PMU)"),
	{ NULL, NULL, { 0, 0, 0, false, false, false }, 0, 0, 0, NULL },
};

static const struct arch_event *const perf_tables[] = { perf_events, NULL };

const struct arch_model model_perf = {
	.name = "perf",
	.pmu_prefix = "perf",
	.pfm_force = NULL,
	.desc = "generic kernel events (software events work without a PMU)",
	.tree = TREE_SW,
	.n_generic = 0,
	.n_fixed = 0,
	.write_bytes = 0,
	.cycles = "cpu-clock",
	.ilp_event = NULL,
	.dispatch_width = 0,
	.tables = perf_tables,
};

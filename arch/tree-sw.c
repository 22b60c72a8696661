/* The software tree for hosts without a hardware PMU: what the kernel's
 * software events can say (CPU time, utilization, faults, switches). */
#include <math.h>

#include "arch/tree.h"

enum {
	I_NONE, I_TASK_CLOCK, I_CPU_CLOCK, I_DURATION, I_FAULTS, I_MINOR, I_MAJOR, I_CS,
	I_MIGRATIONS, I_CPU_NS, I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_TASK_CLOCK] = { "task-clock", false },
	[I_CPU_CLOCK] = { "cpu-clock", false },
	[I_DURATION] = { "duration_time", false },
	[I_FAULTS] = { "page-faults", false },
	[I_MINOR] = { "minor-faults", false },
	[I_MAJOR] = { "major-faults", false },
	[I_CS] = { "context-switches", false },
	[I_MIGRATIONS] = { "cpu-migrations", false },
	[I_CPU_NS] = { "task-clock (or cpu-clock)", true },
};

static void derive(double *in, const struct tree_ctx *ctx)
{
	(void)ctx;
	in[I_CPU_NS] = isnan(in[I_TASK_CLOCK]) ? in[I_CPU_CLOCK] : in[I_TASK_CLOCK];
}

#define F(fn, expr) \
	static double fn(const double *in, const struct tree_ctx *c) { (void)c; return (expr); }
F(f_cpu_s, in[I_CPU_NS] / 1e9)
F(f_wall_s, in[I_DURATION] / 1e9)
F(f_util, in[I_CPU_NS] / in[I_DURATION])
F(f_faults, in[I_FAULTS])
F(f_fault_rate, in[I_FAULTS] / (in[I_CPU_NS] / 1e9))
F(f_minor, in[I_MINOR])
F(f_major, in[I_MAJOR])
F(f_cs, in[I_CS])
F(f_cs_rate, in[I_CS] / (in[I_CPU_NS] / 1e9))
F(f_migrations, in[I_MIGRATIONS])

#define SRC "kernel software events"

static const struct tree_node_def nodes[] = {
	{ "cpu_seconds", "CPU time", UNIT_SECONDS, 0, { I_CPU_NS }, f_cpu_s, NULL, SRC },
	{ "seconds", "Elapsed time", UNIT_SECONDS, 0, { I_DURATION }, f_wall_s, NULL, SRC },
	{ "utilization", "CPUs used", UNIT_RATIO, 0, { I_CPU_NS, I_DURATION }, f_util, NULL,
	  SRC ", task-clock / duration_time" },
	{ "page_faults", "Page faults", UNIT_COUNT, TN_EXACT, { I_FAULTS }, f_faults, NULL, SRC },
	{ "page_faults.minor", "Minor", UNIT_COUNT, TN_PART, { I_MINOR }, f_minor, NULL, SRC },
	{ "page_faults.major", "Major", UNIT_COUNT, TN_PART, { I_MAJOR }, f_major, NULL, SRC },
	{ "page_faults.rate", "Per CPU second", UNIT_PER_SECOND, 0, { I_FAULTS, I_CPU_NS },
	  f_fault_rate, NULL, SRC },
	{ "context_switches", "Context switches", UNIT_COUNT, 0, { I_CS }, f_cs, NULL, SRC },
	{ "context_switches.rate", "Per CPU second", UNIT_PER_SECOND, 0, { I_CS, I_CPU_NS },
	  f_cs_rate, NULL, SRC },
	{ "cpu_migrations", "CPU migrations", UNIT_COUNT, 0, { I_MIGRATIONS }, f_migrations,
	  NULL, SRC },
};

const struct tree_def tree_sw = {
	.id = TREE_SW,
	.name = "sw",
	.title = "Software events (no hardware PMU)",
	.inputs = inputs,
	.n_inputs = I_COUNT,
	.nodes = nodes,
	.n_nodes = (int)(sizeof(nodes) / sizeof(nodes[0])),
	.derive = derive,
};

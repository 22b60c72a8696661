/* The wall tree: wall time = time on a CPU + time off it by reason
 * (arch/offcpu.h), from the off-cpu event's switch records
 * (engine/offcpu.c).  Its inputs are the batch JSON's "wall" fields, in
 * nanoseconds, named wall.on_cpu_ns and wall.off_cpu.REASON (a counts
 * file may give them as EVENT,VALUE rows); the nodes are seconds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arch/tree.h"

enum {
	I_NONE, I_ON, I_RUNNABLE, I_SLEEP, I_LOCK, I_IO, I_WAIT, I_OTHER, I_OFF, I_WALL, I_COUNT
};

static const struct tree_input_def inputs[I_COUNT] = {
	[I_ON] = { "wall.on_cpu_ns", false },
	[I_RUNNABLE] = { "wall.off_cpu.runnable", false },
	[I_SLEEP] = { "wall.off_cpu.sleep", false },
	[I_LOCK] = { "wall.off_cpu.lock", false },
	[I_IO] = { "wall.off_cpu.io", false },
	[I_WAIT] = { "wall.off_cpu.wait", false },
	[I_OTHER] = { "wall.off_cpu.other", false },
	[I_OFF] = { "off-CPU time (the six reasons)", true },
	[I_WALL] = { "wall time (on + off the CPU)", true },
};

/* Off the CPU is its six reasons' sum; wall time, on + off. */
static void derive(double *in, const struct tree_ctx *ctx)
{
	(void)ctx;
	in[I_OFF] = in[I_RUNNABLE] + in[I_SLEEP] + in[I_LOCK] + in[I_IO] + in[I_WAIT] +
		    in[I_OTHER];
	in[I_WALL] = in[I_ON] + in[I_OFF];
}

#define S(fn, i) \
	static double fn(const double *in, const struct tree_ctx *c) { (void)c; return in[i] / 1e9; }
S(f_wall, I_WALL)
S(f_on, I_ON)
S(f_off, I_OFF)
S(f_runnable, I_RUNNABLE)
S(f_sleep, I_SLEEP)
S(f_lock, I_LOCK)
S(f_io, I_IO)
S(f_wait, I_WAIT)
S(f_other, I_OTHER)

#define SRC "PERF_RECORD_SWITCH intervals (engine/offcpu.c)"
#define WHY "the switch-out stack's kernel frames (arch/offcpu.c)"

static const struct tree_node_def nodes[] = {
	{ "wall", "Wall time (thread seconds)", UNIT_SECONDS, TN_EXACT, { I_WALL }, f_wall, NULL,
	  SRC },
	{ "wall.on_cpu", "On a CPU", UNIT_SECONDS, TN_PART, { I_ON }, f_on, NULL, SRC },
	{ "wall.off_cpu", "Off the CPU", UNIT_SECONDS, TN_PART | TN_EXACT, { I_OFF }, f_off, NULL,
	  SRC },
	{ "wall.off_cpu.runnable", "Runnable (preempted)", UNIT_SECONDS, TN_PART, { I_RUNNABLE },
	  f_runnable, NULL, "PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (Linux 4.17)" },
	{ "wall.off_cpu.sleep", "Sleep (timers)", UNIT_SECONDS, TN_PART, { I_SLEEP }, f_sleep, NULL,
	  WHY },
	{ "wall.off_cpu.lock", "Lock (futex, mutex, rwsem)", UNIT_SECONDS, TN_PART, { I_LOCK },
	  f_lock, NULL, WHY },
	{ "wall.off_cpu.io", "I/O (block, page cache, fsync)", UNIT_SECONDS, TN_PART, { I_IO },
	  f_io, NULL, WHY },
	{ "wall.off_cpu.wait", "Wait (pipes, sockets, poll, wait4)", UNIT_SECONDS, TN_PART,
	  { I_WAIT }, f_wait, NULL, WHY },
	{ "wall.off_cpu.other", "Other", UNIT_SECONDS, TN_PART, { I_OTHER }, f_other, NULL, WHY },
};

const struct tree_def tree_wall = {
	.id = TREE_WALL,
	.name = "wall",
	.title = "Wall time: on the CPU and off it by reason",
	.inputs = inputs,
	.n_inputs = I_COUNT,
	.nodes = nodes,
	.n_nodes = (int)(sizeof(nodes) / sizeof(nodes[0])),
	.derive = derive,
};

/* wall.on_cpu carries the host method's tree: that of the counts' model
 * (a hardware model's cycle accounting; on a host without a PMU the
 * software tree), its nodes under wall.on_cpu with their ids prefixed
 * "wall.on_cpu.".  The joined definition is built from the two constant
 * ones into the result that shows it (its caller's, no cache here); its
 * host nodes' values come from evaluating the host tree on the same
 * counts, not from their formulas, so it is never evaluated itself. */
#define ON_CPU 1   /* nodes[ON_CPU] is wall.on_cpu; the host's follow it */

static const struct tree_def *joined_def(const struct tree_def *host, struct tree_join *l)
{
	int nw = tree_wall.n_nodes, nh = host->n_nodes;  /* nw + nh fit: checked */

	for (int i = 0, j = 0; i < nw; i++) {
		l->nodes[j++] = nodes[i];
		for (int h = 0; i == ON_CPU && h < nh; h++, j++) {
			l->nodes[j] = host->nodes[h];
			snprintf(l->ids[j], TREE_JOIN_ID, "wall.on_cpu.%s", host->nodes[h].id);
			l->nodes[j].id = l->ids[j];
			l->nodes[j].same_as = NULL;  /* checked in the host's own result */
		}
	}
	l->def = tree_wall;
	l->def.nodes = l->nodes;
	l->def.n_nodes = nw + nh;
	return &l->def;
}

/* The index in the joined tree of the wall tree's node I. */
static int joined_index(int i, int nh)
{
	return i <= ON_CPU ? i : i + nh;
}

void tree_wall_link(const struct counts *c, const struct tree_ctx *ctx, struct tree_result *r)
{
	const struct arch_model *m = ctx ? ctx->model : NULL;
	struct tree_result h;

	if (r->def != &tree_wall || !m || m->tree == TREE_NONE || m->tree == TREE_WALL)
		return;
	const struct tree_def *host = tree_def_pick(m->tree, m, c);
	if (!host || tree_wall.n_nodes + host->n_nodes > TREE_MAX_NODES)
		return;
	tree_eval(host, c, ctx, &h);
	if (tree_inputs_present(&h) == 0)   /* nothing of the host's counted */
		return;
	const struct tree_def *j = joined_def(host, &r->join);
	int nh = host->n_nodes;
	for (int i = tree_wall.n_nodes - 1; i > ON_CPU; i--) {
		struct node_value v = r->v[i];
		if (v.parent > ON_CPU)
			v.parent = joined_index(v.parent, nh);
		r->v[joined_index(i, nh)] = v;
	}
	for (int k = 0; k < nh; k++) {
		struct node_value v = h.v[k];
		v.parent = v.parent < 0 ? ON_CPU : v.parent + ON_CPU + 1;
		v.depth += r->v[ON_CPU].depth + 1;
		v.missing = 0;        /* its bits name the host's inputs */
		if (v.parent == ON_CPU)
			v.pct_parent = NAN;   /* cycles are not seconds */
		r->v[ON_CPU + 1 + k] = v;
	}
	r->def = j;
}

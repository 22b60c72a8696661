/* The control flow of one function's instructions: basic blocks, loops
 * (back-edges), per-loop estimates, and the papers' correlation of penalty
 * cycles with stall cycles.  Pure: it works on decoded instructions and
 * sample counts handed in by the caller. */
#ifndef ARCH_FLOW_H
#define ARCH_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum flow_kind {
	FLOW_PLAIN,
	FLOW_JUMP,     /* unconditional direct jump */
	FLOW_CJUMP,    /* conditional direct jump */
	FLOW_IJUMP,    /* indirect jump (switch tables, tail calls through a register) */
	FLOW_CALL,
	FLOW_RET,
	FLOW_BAD       /* bytes that did not decode */
};

struct flow_insn {
	uint64_t addr;
	uint64_t target;       /* direct branch target, 0 if none */
	uint8_t size;
	uint8_t kind;          /* enum flow_kind */
	uint16_t load_bytes;   /* memory bytes read per execution */
	uint16_t store_bytes;  /* memory bytes written per execution */
};

struct flow_block {
	size_t first, last;    /* instruction indexes, inclusive */
	int loop;              /* innermost loop containing it, or -1 */
};

struct flow_loop {
	size_t head, tail;     /* first instruction, and the back-edge branch */
	int parent;            /* enclosing loop, or -1 */
	int depth;             /* 1 for an outermost loop */
	size_t n_insns;        /* instructions from head to tail */
	unsigned load_bytes, store_bytes;  /* per iteration, straight-line count */
};

struct flow {
	size_t n_insns;
	size_t *block_of;      /* [n_insns] */
	bool *back_edge;       /* [n_insns] the branch of a back-edge (a loop's) */
	struct flow_block *blocks;
	size_t n_blocks;
	struct flow_loop *loops;  /* sorted by head, outer loops before inner */
	size_t n_loops;
};

/* Splits N instructions into basic blocks and finds loops.  A block starts
 * at the first instruction, at every branch target inside the function and
 * after every jump or return; calls fall through.  A loop is a branch back
 * to an earlier (or the same) address of the function: its body is the
 * address range from the target to the branch, as compilers lay loops out;
 * back-edges to one head form one loop.  Returns 0, or -1 out of memory. */
int flow_build(const struct flow_insn *insn, size_t n, struct flow *out);
void flow_free(struct flow *f);

/* Whether instruction I is the branch of a back-edge (marked as a loop). */
bool flow_is_back_edge(const struct flow *f, size_t i);

/* Sums PER_INSN[first..last] of a block or a loop. */
double flow_sum(const double *per_insn, size_t first, size_t last);

/* The loop's estimated iteration count: instructions retired in its body
 * (INST_RETIRED.ANY_P samples x SAV, summed over the body) divided by the
 * instructions of one iteration, as the cache-line article does.  NAN when
 * the loop is empty.  Exact for a body without inner branches. */
double flow_loop_iterations(const struct flow_loop *l, double retired_in_body);

/* Bus efficiency: the bytes the loop really needs (per-iteration loads and
 * stores x iterations) over the bytes the bus moved (BUS_TRANS x 64-byte
 * lines).  Below 1, lines were fetched for bytes never used.  NAN without
 * bus transactions. */
double flow_bus_efficiency(const struct flow_loop *l, double iterations,
			   double bus_transactions);

/* Correlation of penalty cycles (architectural events x their penalties)
 * with the stall cycles measured at the same place (Core2 paper,
 * "Estimating Penalties"; IA-64 paper section 4): */
enum flow_mark {
	MARK_NONE,     /* penalty cycles insignificant here */
	MARK_STALLED,  /* penalty cycles coincide with stall cycles: worth fixing */
	MARK_HIDDEN    /* penalty cycles without stalls: hidden by the OOO engine */
};

/* Penalty cycles of a place are significant from FLOW_MIN_SHARE of the
 * function's penalty cycles on; they are hidden when the stall cycles there
 * are below FLOW_HIDDEN_RATIO of them (the out-of-order engine overlapped
 * at least three quarters of the nominal penalty). */
#define FLOW_MIN_SHARE 0.05
#define FLOW_HIDDEN_RATIO 0.25

enum flow_mark flow_classify(double penalty_cycles, double stall_cycles,
			     double function_penalty_cycles);

const char *flow_mark_name(enum flow_mark m);

#endif

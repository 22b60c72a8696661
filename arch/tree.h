/* Metric trees: data (nodes with ids, units, inputs) plus formulas over
 * normalized event counts.  A node whose inputs are missing is "not
 * measured", never 0; nonsense (negative components, a component larger
 * than its parent, parts that do not add up) is flagged, not hidden. */
#ifndef ARCH_TREE_H
#define ARCH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/counts.h"
#include "arch/model.h"
#include "arch/penalty.h"

#define TREE_MAX_INPUTS 64
#define TREE_MAX_NODES 96
#define TREE_MAX_VARIANTS 8
#define TREE_MAX_NEEDS 12
/* Sampling and multiplexing noise allowed before a check fires. */
#define TREE_TOLERANCE 0.05

enum arch_unit {
	UNIT_NONE,
	UNIT_CYCLES,
	UNIT_RATIO,
	UNIT_PERCENT,
	UNIT_MBPS,
	UNIT_SECONDS,
	UNIT_UOPS_PER_CYCLE,
	UNIT_COUNT,
	UNIT_PER_SECOND,
	UNIT_MFLOPS,
};

struct tree_ctx {
	const struct arch_model *model;  /* resolves event names */
	const struct penalties *pen;
	double clock_hz;                 /* 0: not given */
	bool smt;                        /* perf's #SMT_on (counting per thread, so
					  * #core_wide = !smt) */
	double slots;                    /* perf's #slots on Arm: the core PMU's
					  * caps/slots (PMMIR_EL1.SLOTS) when the
					  * host has it; 0: the model's
					  * pipeline_width */
};

/* Node flags. */
#define TN_GROUP 0x01     /* a heading without a value */
#define TN_PART 0x02      /* a component of its parent (checked against it) */
#define TN_REMAINDER 0x04 /* parent minus its measured TN_PART siblings */
#define TN_STRICT 0x08    /* remainder needs every sibling measured */
#define TN_SIGNED 0x10    /* may be negative without being nonsense */
#define TN_OVERLAP 0x20   /* not prioritized: may overlap its siblings */
#define TN_EXACT 0x40     /* its TN_PART children must add up to it */
#define TN_CLOCK 0x80     /* needs the clock frequency */
#define TN_USEFUL 0x100   /* useful work (retiring): a bottleneck only when it takes
			   * TREE_BN_USEFUL of its parent (toplev's Retiring > 0.7) */

/* The bottleneck path (toplev's rule, pmu-tools toplev.py find_bn): from
 * the first root with measured parts down, at each level the largest
 * measured part (not TN_OVERLAP) taking TREE_BN_SHARE of its parent or
 * more; below the first level, two such parts within TREE_BN_AMBIGUOUS of
 * each other (toplev's SIB_THRESH) end the path at their parent. */
#define TREE_BN_SHARE 0.20
#define TREE_BN_USEFUL 0.70
#define TREE_BN_AMBIGUOUS 0.05

struct tree_input_def {
	/* event (paper or perfmon name; alternatives after '|', the first one
	 * the counts hold is read), or what a derived input needs */
	const char *name;  /* NULL: an index this definition does not use */
	bool derived;      /* computed by tree_def.derive, not read from counts */
};

struct tree_node_def {
	const char *id;     /* dotted path: the contract */
	const char *label;
	enum arch_unit unit;
	unsigned flags;
	uint8_t needs[TREE_MAX_NEEDS];  /* input indices (1-based), 0 ends */
	double (*eval)(const double *in, const struct tree_ctx *ctx);
	const char *same_as;  /* id of a node it must equal within tolerance */
	const char *source;   /* paper and equation */
};

struct tree_def {
	enum arch_tree id;
	const char *name;
	const char *title;
	const struct tree_input_def *inputs;  /* index 0 unused */
	int n_inputs;
	const struct tree_node_def *nodes;
	int n_nodes;
	/* Fills derived inputs (NAN when they cannot be had). */
	void (*derive)(double *in, const struct tree_ctx *ctx);
	/* Variants: several definitions share one id when the formulas differ
	 * by CPU model (perf's TopDown per model, the ILP width).  MODELS names
	 * the models a definition is for (NULL-terminated; NULL: every model),
	 * the first being its default. */
	const char *const *models;
};

enum node_state { NODE_VALUE, NODE_MISSING, NODE_HEADING };

#define WARN_NEGATIVE 0x01        /* a component below zero */
#define WARN_EXCEEDS_PARENT 0x02  /* a component above its parent */
#define WARN_SUM 0x04             /* exact parts do not add up */
#define WARN_MISMATCH 0x08        /* differs from the node it must equal */
#define WARN_OVERCOUNT 0x10       /* remainder below zero: penalties over-count */

struct node_value {
	enum node_state state;
	double value;
	double pct_parent;   /* NAN when not meaningful */
	unsigned warn;
	uint64_t missing;    /* bit i: input i missing */
	bool no_clock;       /* missing because --clock-hz was not given */
	int parent;          /* node index, -1 for a root */
	int depth;
};

/* The wall tree joined with a host tree (tree_wall_link): its definition,
 * built from the two constant ones in the result that shows it. */
#define TREE_JOIN_ID 96
struct tree_join {
	struct tree_def def;
	struct tree_node_def nodes[TREE_MAX_NODES];
	char ids[TREE_MAX_NODES][TREE_JOIN_ID];
};

struct tree_result {
	const struct tree_def *def;
	struct node_value v[TREE_MAX_NODES];
	double in[TREE_MAX_INPUTS];
	/* the result's own storage for DEF where DEF is the joined wall tree
	 * (DEF then points into it: such a result is not copied by value) */
	struct tree_join join;
};

/* The default definition of TREE (its first variant), NULL if none. */
const struct tree_def *tree_def_get(enum arch_tree tree);
/* Every definition, variants included, in order; NULL past the end. */
const struct tree_def *tree_def_at(size_t i);
/* The definition of TREE for MODEL: the variant listing MODEL by name; else
 * (no model, or one no variant lists) the variant most of whose inputs C
 * holds (C may be NULL: the default).  Never NULL for a defined tree. */
const struct tree_def *tree_def_pick(enum arch_tree tree, const struct arch_model *model,
				     const struct counts *c);
/* Whether MODEL's events feed TREE: its default tree, or one of the tree's
 * definitions lists it (topdown on skl, the AMD paper's tree on Zen), or
 * the tree is generic (every definition's MODELS NULL: software events,
 * which every host counts). */
bool tree_fits_model(enum arch_tree tree, const struct arch_model *model);
bool tree_is_generic(enum arch_tree tree);
/* The trees of MODEL, in the order the view's `t` walks them: the model's
 * own tree, the other trees listing it (table order), then the generic
 * ones.  Every id appears once; returns how many (at most TREE_COUNT). */
int tree_model_trees(const struct arch_model *model, enum arch_tree *out);
/* Every tree id of the table, once, in table order; returns how many. */
int tree_all_ids(enum arch_tree *out);
/* The model a definition is evaluated with when none was given: the first
 * model feeding its id, else its default model (NULL if not in the tables). */
const struct arch_model *tree_default_model(const struct tree_def *def);
/* The wall tree's result (TREE_WALL) comes joined to the host method's:
 * see tree_wall_link. */
void tree_eval(const struct tree_def *def, const struct counts *c,
	       const struct tree_ctx *ctx, struct tree_result *out);
/* Hangs the tree of CTX's model, evaluated on C, under R's wall.on_cpu
 * (ids "wall.on_cpu.ID"; R->def becomes the joined definition, built in
 * R->join) when R is the wall tree's and C counted any of that tree's
 * inputs (arch/tree-wall.c). */
void tree_wall_link(const struct counts *c, const struct tree_ctx *ctx, struct tree_result *r);
int tree_node_index(const struct tree_def *def, const char *id);
/* Value of node ID, NAN if not measured or unknown. */
double tree_value(const struct tree_result *r, const char *id);
/* How many of the tree's event inputs the counts provide. */
int tree_inputs_present(const struct tree_result *r);
const char *unit_name(enum arch_unit unit);

/* The first node after node I's subtree. */
int tree_subtree_end(const struct tree_result *r, int i);
/* Node I and everything under it has no value (headings have none). */
bool tree_dark(const struct tree_result *r, int i);
/* The run of dark siblings from node I (I dark): its rows, the inputs they
 * miss and whether the clock is among them.  Returns the node after it. */
int tree_dark_run(const struct tree_result *r, int i, int *rows, uint64_t *missing,
		  bool *no_clock);
/* Node I's value as a share of its parent's (0.625), NAN when not both
 * measured in one unit. */
double tree_parent_share(const struct tree_result *r, int i);
/* Whether node I is a share (a ratio part of a ratio whole, or that whole:
 * TopDown's fractions of slots), for people written as a percent. */
bool tree_is_share(const struct tree_def *def, int i);
/* The bottleneck path (TREE_BN_*) into PATH, root first: its length, 0
 * when no part qualifies. */
int tree_bottleneck_path(const struct tree_result *r, int *path);
/* One line naming what a warning means. */
const char *warn_text(unsigned warn_bit);

#endif

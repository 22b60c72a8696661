/* The group planner: packs requested events into groups that fit a model's
 * counter inventory and each event's counter constraints, with the model's
 * cycles reference (cpu-clock on the "perf" model) in every group, formula
 * partners kept together where they fit, and as few groups as possible.
 *
 * Pure: works on arch_model rows, no syscalls, no libpfm4.
 *
 * Semantics (the contract the engine and `cyctop list groups` rely on):
 * - A hardware event uses one counter: one of its fixed counters (row->fixed)
 *   or a generic counter allowed by row->counters (0 = any).  An event not in
 *   our tables (row NULL) needs one generic counter, any.
 * - Software events (kernel events, and every event on a model without a
 *   counter inventory, i.e. "perf") use no counter.
 * - MAX_COUNTERS (--counters N), 0 = the model's inventory:
 *   on a model with counters it caps the GENERIC counters per group (a
 *   smaller PMU; fixed counters stay; a cap above the inventory changes
 *   nothing); the reference uses one of them when it has no fixed counter
 *   (AMD, IA-64), as it would on that PMU.  On a model without counters it
 *   caps the events per group beside the reference (which is how
 *   multiplexing is forced, and tested, on software events).
 * - Several groups: every group carries the reference exactly once.  The
 *   user's own reference event is shared by all groups (never duplicated);
 *   otherwise it is added and marked PLAN_ADDED.  One group: the reference is
 *   added only if it fits (nothing is multiplexed, so nothing needs it; the
 *   AMD paper's four-event sets stay one run, seeds/004 4.3.3.1).
 * - Software events on a model with counters take no counter and no room:
 *   they go into the first group. */
#ifndef ARCH_PLAN_H
#define ARCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/model.h"

#define PLAN_MAX_EVENTS 64
#define PLAN_MAX_SLOTS (PLAN_MAX_EVENTS + 1)  /* every event plus the reference */
#define PLAN_MAX_PARTNERS 8                   /* members of one partner set */
#define PLAN_MAX_PARTNER_SETS 32

/* plan_slot.event of the reference when the planner added it. */
#define PLAN_ADDED (-1)
/* plan.event_group[] of the user's own reference: it is in every group. */
#define PLAN_EVERY_GROUP (-2)

struct plan_request {
	const char *name;              /* for messages: the user's (or paper) name */
	const struct arch_event *row;  /* the model's row, NULL if not in our tables */
	bool software;                 /* a kernel software event: uses no counter */
};

enum plan_counter {
	PLAN_GENERIC,     /* generic counter .counter (PMCn) */
	PLAN_FIXED,       /* fixed counter .counter */
	PLAN_NO_COUNTER,  /* software, or a model without an inventory */
};

struct plan_slot {
	int event;              /* request index, or PLAN_ADDED */
	enum plan_counter kind;
	int counter;            /* -1 for PLAN_NO_COUNTER */
};

struct plan_group {
	int n;
	int ref;  /* index in slots[] of the reference, -1 if the group has none */
	struct plan_slot slots[PLAN_MAX_SLOTS];  /* the reference first */
};

/* A formula-partner set of the partner table whose members (at least two
 * besides the reference) were requested. */
struct plan_partners {
	int n;
	int ev[PLAN_MAX_PARTNERS];  /* request indexes */
	bool together;              /* all in one group */
	const char *formula;        /* what needs them together, with its source */
};

/* About 50 KB: keep one static or on the heap. */
struct plan {
	const struct arch_model *model;
	int n_events;             /* requests planned */
	int max_counters;         /* the cap asked for, 0 = none */
	int n_generic;            /* generic counters usable per group (after the cap) */
	int reference;            /* request index of the user's reference, or PLAN_ADDED */
	const char *reference_name;
	bool optimal;             /* the group count is proven minimal */
	int n_groups;
	int event_group[PLAN_MAX_EVENTS];  /* group of each request, or PLAN_EVERY_GROUP */
	int n_partners;
	struct plan_partners partners[PLAN_MAX_PARTNER_SETS];
	struct plan_group groups[PLAN_MAX_EVENTS];
};

/* A row of the formula-partner table: events that are terms of one formula
 * other than a ratio to the reference (which every group has anyway). */
struct plan_partner_def {
	enum arch_tree tree;
	const char *events[PLAN_MAX_PARTNERS];  /* paper names; the first is the hub */
	const char *formula;                    /* the formula and its source */
};

const struct plan_partner_def *plan_partner_def_at(size_t i);  /* NULL past the end */

/* The formulas that pair adjacent steps of an ILP sweep (arch/ilp.h): the
 * CMASK sweep of the older models, the modern cmask sweep, Arm's
 * counter-threshold sweep. */
extern const char plan_ilp_formula[];
extern const char plan_ilp_sweep_formula[];
extern const char plan_arm_th_formula[];

/* Plans the N requests REQ for MODEL with at most MAX_COUNTERS generic
 * counters (0 = the inventory).  Returns the number of groups, or -1 with a
 * one-line reason naming the event in ERR. */
int plan_build(const struct arch_model *model, const struct plan_request *req, int n,
	       int max_counters, struct plan *out, char *err, size_t errsz);

/* "PMC1", "FIXED0" or "-" for a slot, into BUF. */
const char *plan_counter_name(const struct plan_slot *slot, char *buf, size_t bufsz);

#endif

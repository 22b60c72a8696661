/* A set of event counts: what a tree is computed from.
 *
 * Filled from counts files (EVENT,VALUE[,PERIOD] lines or `perf stat -x,`
 * output) or from a profile.  Values are normalized event counts: a sample
 * count with a PERIOD becomes samples x period before any arithmetic, as the
 * AMD paper (section 3) and the Core2 slides require. */
#ifndef ARCH_COUNTS_H
#define ARCH_COUNTS_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/model.h"

#define COUNT_NAME_MAX 160

struct count_entry {
	char name[COUNT_NAME_MAX];  /* as first written */
	double value;               /* normalized event count */
	double samples;             /* samples when a period was given, else 0 */
	double period;              /* sampling period, 0 if VALUE was a count */
	double coverage;            /* fraction of the time it was counted (1 = all) */
	bool not_counted;           /* perf stat said <not counted> / <not supported> */
	int sources;                /* files merged into this entry */
};

struct counts_memo;

struct counts {
	struct count_entry *v;
	size_t n, cap;
	/* What each entry's name denotes under the last model asked, and the
	 * model_index its names are looked up through: a cache (model_lookup
	 * walks every row of a model), its entries dropped when entries are
	 * added, all of it freed by counts_free. */
	struct counts_memo *memo;
};

void counts_init(struct counts *c);
void counts_free(struct counts *c);

/* Adds or accumulates one entry; duplicates within one source are summed. */
struct count_entry *counts_add(struct counts *c, const char *name, double value,
			       double period);

/* Parses BUF (one counts file named FNAME).  On error returns -1 and writes
 * "FNAME:LINE: what" into ERR. */
int counts_parse(struct counts *c, const char *buf, size_t len, const char *fname,
		 char *err, size_t errsz);

/* Merges SRC (another file) into DST: an event measured in several files is
 * averaged over them, since each file is a measurement of the same run length
 * (one group per run). */
void counts_merge(struct counts *dst, const struct counts *src);

/* The entry that denotes the same event as NAME under MODEL, or NULL.
 * Entries may use perf's names: `cpu/event=0xb1,umask=0x1,cmask=1,inv/`
 * (matched by encoding against MODEL's rows), `cpu_core/EVENT/`,
 * `uops_executed.thread` (perfmon names, any case), `slots` and
 * `topdown-*` (the kernel's PERF_METRICS aliases).  Hybrid E-core rows
 * (`cpu_atom/.../`) never match: they are kept apart. */
const struct count_entry *counts_find(const struct counts *c,
				      const struct arch_model *model, const char *name);

/* Whether NAME is an event of the hybrid E-core PMU (cpu_atom). */
bool counts_other_core_type(const char *name);
/* How many entries of C are cpu_atom rows, kept apart from the trees. */
size_t counts_kept_apart(const struct counts *c);
/* The E-core view of SRC into DST (initialized here): the cpu_atom rows
 * without their PMU wrapper, and the rows of no core PMU (duration_time,
 * software events); cpu_core and cpu rows are left out.  -1 on OOM. */
int counts_atom_rows(struct counts *dst, const struct counts *src);

#endif

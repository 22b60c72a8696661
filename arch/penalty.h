/* Penalties in cycles for the Core2 stall decomposition.
 * Source: Levinthal, Core2 cycle accounting (seeds/000), "Example issues and
 * penalties"; the slides (seeds/002) give the same figures. */
#ifndef ARCH_PENALTY_H
#define ARCH_PENALTY_H

#include <stddef.h>

enum penalty_id {
	PEN_L2_HIT,          /* L1D line miss that hits L2: ~12 */
	PEN_L2_MISS,         /* ~165 desktop, ~300 server */
	PEN_DTLB_MISS,       /* ~10 */
	PEN_DTLB_WALK,       /* x DTLB_MISS + PAGE_WALKS.CYCLES: 4 */
	PEN_LOAD_BLOCK_STA,  /* ~5 */
	PEN_LOAD_BLOCK_OVERLAP_STORE, /* ~6 */
	PEN_LOAD_BLOCK_UNTIL_RETIRE,  /* ~20 */
	PEN_ILD_STALL,       /* 6 */
	PEN_FP_ASSIST,       /* ~200 */
	PEN_COUNT
};

struct penalties {
	double cycles[PEN_COUNT];
	const char *name;    /* "desktop", "server" or the file */
};

void penalties_default(struct penalties *p, int server);
const char *penalty_key(enum penalty_id id);
/* The event a penalty weighs (paper name). */
const char *penalty_event(enum penalty_id id);

/* Parses KEY,CYCLES lines over the defaults already in P; "FNAME:LINE: what"
 * in ERR on error. */
int penalties_parse(struct penalties *p, const char *buf, size_t len, const char *fname,
		    char *err, size_t errsz);

#endif

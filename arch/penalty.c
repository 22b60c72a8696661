#include "arch/penalty.h"

#include "arch/lines.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *key;
	const char *event;
	double desktop;
	double server;
} table[PEN_COUNT] = {
	[PEN_L2_HIT] = { "l2_hit", "MEM_LOAD_RETIRED.L1D_LINE_MISS", 12, 12 },
	[PEN_L2_MISS] = { "l2_miss", "MEM_LOAD_RETIRED.L2_LINE_MISS", 165, 300 },
	[PEN_DTLB_MISS] = { "dtlb_miss", "MEM_LOAD_RETIRED.DTLB_MISS", 10, 10 },
	[PEN_DTLB_WALK] = { "dtlb_walk", "MEM_LOAD_RETIRED.DTLB_MISS", 4, 4 },
	[PEN_LOAD_BLOCK_STA] = { "load_block_sta", "LOAD_BLOCK.STA", 5, 5 },
	[PEN_LOAD_BLOCK_OVERLAP_STORE] = { "load_block_overlap_store",
					   "LOAD_BLOCK.OVERLAP_STORE", 6, 6 },
	[PEN_LOAD_BLOCK_UNTIL_RETIRE] = { "load_block_until_retire",
					  "LOAD_BLOCK.UNTIL_RETIRE", 20, 20 },
	[PEN_ILD_STALL] = { "ild_stall", "ILD_STALL", 6, 6 },
	[PEN_FP_ASSIST] = { "fp_assist", "FP_ASSIST", 200, 200 },
};

void penalties_default(struct penalties *p, int server)
{
	for (int i = 0; i < PEN_COUNT; i++)
		p->cycles[i] = server ? table[i].server : table[i].desktop;
	p->name = server ? "server" : "desktop";
}

const char *penalty_key(enum penalty_id id)
{
	return id < PEN_COUNT ? table[id].key : "?";
}

const char *penalty_event(enum penalty_id id)
{
	return id < PEN_COUNT ? table[id].event : "?";
}

static int find_key(const char *key)
{
	for (int i = 0; i < PEN_COUNT; i++)
		if (strcasecmp(key, table[i].key) == 0)
			return i;
	return -1;
}

int penalties_parse(struct penalties *p, const char *buf, size_t len, const char *fname,
		    char *err, size_t errsz)
{
	char line[512];
	struct line_reader lr;

	lines_init(&lr, buf, len);
	while (lines_next(&lr, line, sizeof(line), true)) {
		int ln = lr.number;
		if (lr.too_long) {
			snprintf(err, errsz, "%s:%d: line too long", fname, ln);
			return -1;
		}
		char *key = lines_trim(line);
		if (!*key)
			continue;
		char *comma = strchr(key, ',');
		if (!comma) {
			snprintf(err, errsz, "%s:%d: expected KEY,CYCLES", fname, ln);
			return -1;
		}
		*comma = '\0';
		key = lines_trim(key);
		int id = find_key(key);
		if (id < 0) {
			snprintf(err, errsz, "%s:%d: unknown penalty '%.60s' (known: l2_hit, "
				 "l2_miss, dtlb_miss, dtlb_walk, load_block_sta, "
				 "load_block_overlap_store, load_block_until_retire, ild_stall, "
				 "fp_assist)", fname, ln, key);
			return -1;
		}
		char *end;
		double v = strtod(comma + 1, &end);
		while (isspace((unsigned char)*end))
			end++;
		if (end == comma + 1 || *end || !isfinite(v) || v < 0) {
			snprintf(err, errsz, "%s:%d: penalty for %s is not a non-negative number",
				 fname, ln, key);
			return -1;
		}
		p->cycles[id] = v;
	}
	p->name = fname;
	return 0;
}

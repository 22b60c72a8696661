/* The call graph a session collects, printed for tests/e2e/callgraph.sh:
 *
 *   cg-probe [-e EVENTS] [-o FILE] MODE FUNC -- COMMAND [ARGS...]
 *   cg-probe -i FILE FUNC
 *
 * The first watches COMMAND with --call-graph MODE (events: cpu-clock),
 * recording to FILE with -o (as cyctop record does: perf report can then
 * read the very samples that were unwound here); the second reads a
 * recorded session.
 *
 * Polls until the target ends, takes one snapshot and prints, one "key
 * values" line each, for the first event:
 *   samples N            the profile's samples
 *   stacks N             samples with a stack (cg_samples)
 *   truncated N          stacks that ended early
 *   overflow N           stacks past the node cap
 *   skipped N            samples counted without their stack (time budget)
 *   cost_ns N            mean unwinding + symbolization time per stack (live)
 *   func FUNC SELF TOTAL
 *   caller NAME MODULE SAMPLES PERCENT   FUNC's direct callers, PERCENT of TOTAL
 *   root NAME SAMPLES    the outermost frames of the stacks, by samples
 *   frames N             caller-tree rows (depth >= 1) below every sampled function
 *   bad_frames N         of those, rows whose module is unknown (garbage);
 *                        user functions' stacks only (see check_frames)
 *   max_depth N          the deepest of those rows
 * Exits 0, 1 on a failure, 2 on bad arguments. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/callgraph.h"
#include "engine/profile.h"
#include "engine/session-priv.h"
#include "engine/session.h"

#define MAX_DEPTH 1000
#define MAX_ROOTS 8

static int usage(void)
{
	fprintf(stderr, "usage: cg-probe [-e EVENTS] [-o FILE] MODE FUNC -- COMMAND [ARGS...]\n"
			"       cg-probe -i FILE FUNC\n");
	return 2;
}

struct root {
	char name[256];
	uint64_t n;
};

static int by_samples(const void *a, const void *b)
{
	const struct root *x = a, *y = b;

	return x->n < y->n ? 1 : x->n > y->n ? -1 : strcmp(x->name, y->name);
}

/* Sums the folded lines ("root;...;leaf COUNT") by their root. */
static void print_roots(const struct cg_snapshot *cg)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0, n = 0, cap = 64;
	FILE *f = open_memstream(&buf, &len);
	struct root *roots = calloc(cap, sizeof(*roots));

	if (!f || !roots || cg_write_folded(cg, 0, f) < 0 || fclose(f) != 0) {
		free(roots);
		free(buf);
		return;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');
		if (!sp)
			continue;
		uint64_t count = strtoull(sp + 1, NULL, 10);
		line[strcspn(line, "; ")] = '\0';
		size_t i;
		for (i = 0; i < n && strcmp(roots[i].name, line) != 0; i++)
			;
		if (i == n) {
			if (n == cap) {
				struct root *v = realloc(roots, 2 * cap * sizeof(*v));
				if (!v)
					break;
				roots = v;
				cap *= 2;
			}
			snprintf(roots[n].name, sizeof(roots[n].name), "%s", line);
			roots[n++].n = 0;
		}
		roots[i].n += count;
	}
	qsort(roots, n, sizeof(*roots), by_samples);
	for (size_t i = 0; i < n && i < MAX_ROOTS; i++)
		printf("root %s %" PRIu64 "\n", roots[i].name, roots[i].n);
	free(roots);
	free(buf);
}

/* Every frame of every stack lies in the caller tree of a sampled function
 * (its leaf): the rows below the function itself must name a module. */
static int check_frames(const struct snapshot *snap)
{
	uint64_t frames = 0, bad = 0;
	int max_depth = 0;

	for (size_t i = 0; i < snap->n_funcs; i++) {
		const struct snap_func *fn = &snap->funcs[i];
		/* a kernel function's stack may start at a user frame no module
		 * holds: a sample inside execve, the old image gone and the new
		 * one not mapped yet (perf's own stacks say [unknown] there);
		 * the busier the machine, the longer an exec and the likelier */
		if (!fn->samples[0] || strcmp(fn->module, "[kernel.kallsyms]") == 0)
			continue;
		size_t n = cg_caller_tree(snap->cg, fn->name, fn->module, 0, MAX_DEPTH, NULL, 0);
		struct cg_row *rows = n ? malloc(n * sizeof(*rows)) : NULL;
		if (n && !rows)
			return -1;
		n = cg_caller_tree(snap->cg, fn->name, fn->module, 0, MAX_DEPTH, rows, n);
		for (size_t r = 0; r < n; r++) {
			if (rows[r].depth == 0)
				continue;
			frames++;
			if (!rows[r].module || strcmp(rows[r].module, CG_UNKNOWN) == 0 ||
			    !rows[r].name || !rows[r].name[0])
				bad++;
			if (rows[r].depth > max_depth)
				max_depth = rows[r].depth;
		}
		free(rows);
	}
	printf("frames %" PRIu64 "\nbad_frames %" PRIu64 "\nmax_depth %d\n", frames, bad,
	       max_depth);
	return 0;
}

static int report(struct session *s, const char *func)
{
	struct snapshot *snap = session_snapshot(s);
	const struct cg_edge *edges;
	uint64_t self = 0, total = 0;
	const char *module = NULL;

	if (!snap || !snap->cg) {
		fprintf(stderr, "cg-probe: no call graph in the snapshot\n");
		snapshot_free(snap);
		return 1;
	}
	printf("samples %" PRIu64 "\nstacks %" PRIu64 "\ntruncated %" PRIu64
	       "\noverflow %" PRIu64 "\nskipped %" PRIu64 "\n",
	       snap->ev[0].samples, cg_samples(snap->cg, 0), cg_truncated(snap->cg, 0),
	       cg_overflow(snap->cg, 0), snap->stacks_skipped);
	if (s->cg_stacks)
		printf("cost_ns %" PRIu64 "\n", s->cg_ns / s->cg_stacks);
	for (size_t i = 0; i < snap->n_funcs && !module; i++)
		if (strcmp(snap->funcs[i].name, func) == 0)
			module = snap->funcs[i].module;
	if (module)
		cg_function(snap->cg, func, module, 0, &self, &total);
	printf("func %s %" PRIu64 " %" PRIu64 "\n", func, self, total);
	size_t n = module ? cg_callers(snap->cg, func, module, 0, &edges) : 0;
	for (size_t i = 0; i < n; i++)
		printf("caller %s %s %" PRIu64 " %.2f\n", edges[i].name, edges[i].module,
		       edges[i].samples, total ? 100.0 * (double)edges[i].samples / (double)total : 0);
	print_roots(snap->cg);
	int rc = check_frames(snap);
	snapshot_free(snap);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct session_opts o = { .events = "cpu-clock", .cmdline = argv };
	char err[512];
	struct session *s;
	int a = 1;

	if (argc == 4 && strcmp(argv[1], "-i") == 0) {
		struct session_file_opts fo = { .path = argv[2] };
		s = session_open_file(&fo, err, sizeof(err));
		a = 3;
	} else {
		for (; a + 1 < argc && argv[a][0] == '-' && argv[a][1] && !argv[a][2]; a += 2) {
			if (argv[a][1] == 'e')
				o.events = argv[a + 1];
			else if (argv[a][1] == 'o')
				o.record = argv[a + 1], o.start_sink = session_record_start;
			else
				return usage();
		}
		if (argc - a < 4 || strcmp(argv[a + 2], "--") != 0)
			return usage();
		if (session_parse_call_graph(argv[a], &o, err, sizeof(err)) < 0) {
			fprintf(stderr, "cg-probe: %s\n", err);
			return 2;
		}
		o.argv = argv + a + 3;
		s = session_open(&o, err, sizeof(err));
		a++;
	}
	if (!s) {
		fprintf(stderr, "cg-probe: %s\n", err);
		return 1;
	}
	while (!session_poll(s, 100))
		;
	if (o.record && session_record_finish(s, err, sizeof(err)) < 0) {
		fprintf(stderr, "cg-probe: %s\n", err);
		session_close(s);
		return 1;
	}
	printf("mode %s\n", o.argv ? argv[a - 1] : "file");
	int rc = report(s, argv[a]);
	session_close(s);
	return rc;
}

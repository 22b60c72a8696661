/* Tests 2 and 3: exact counts.  The calibration loop's instructions:u and
 * branches:u, less the same program's with zero iterations (the start-up
 * term: the dynamic loader, main, the exit), are its known count within
 * 0.01% (test 2); and perf stat counts what cyctop counts on the same
 * program, the loop and the start-up alone (test 3).  perf hands its
 * child an environment of its own (PERF_BUILDID_DIR, PREFIX, its exec path
 * first in PATH: tools/perf/perf.c), and the loader's and libc's start-up
 * work grows with the environment: some 900 user instructions for those
 * three, which is what cyctop and perf differed by on the same command.
 * Test 3 gives cyctop's watch the environment perf's child had (read from
 * the child itself), so both count one process the same.  Without a PMU,
 * test 3 compares software events instead (engine/selftest-perf-sw.c). */
#include "engine/selftest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A count no sampling period reaches: counting only. */
#define NOSAMPLE "1000000000000"
#define EXACT_ITERS 10000000UL
#define EXACT_BOUND 1e-4       /* 0.01% */
#define PERF_BOUND 5e-3        /* 0.5%: user-only counts */

struct st_counts {
	double v[2];   /* instructions:u, branches:u */
	int n;         /* 1: instructions only (the PMU has no branches event) */
};

static const char *const count_names[] = { "instructions:u", "branches:u" };

/* Counts the program WORK (KIND:N) with instructions:u and branches:u
 * when the PMU has it; ENVP as st_watch.  -1 with one line in ERR. */
static int count_work(struct selftest_ctx *c, const char *work, int n_events, char *const *envp,
		      struct st_counts *out, char *err, size_t errsz)
{
	char events[128];
	struct st_watch w = { .events = events, .work = work, .envp = envp };

	snprintf(events, sizeof(events), "instructions:u/" NOSAMPLE "%s",
		 n_events > 1 ? ",branches:u/" NOSAMPLE : "");
	struct snapshot *snap = st_watch_run(c, &w, err, errsz);
	if (!snap)
		return -1;
	out->n = n_events;
	for (int e = 0; e < n_events; e++)
		out->v[e] = snap->ev[e].counted ? snap->ev[e].count : -1;
	snapshot_free(snap);
	return 0;
}

/* Whether the PMU takes branches:u (QEMU's has no BR_RETIRED): 2 events
 * or 1; -1 when not even instructions:u opens (the reason in ERR). */
static int events_here(struct selftest_ctx *c, char *err, size_t errsz)
{
	struct st_counts k;
	char e2[256];

	if (count_work(c, "loop:0", 2, NULL, &k, e2, sizeof(e2)) == 0)
		return 2;
	if (count_work(c, "loop:0", 1, NULL, &k, err, errsz) == 0)
		return 1;
	return -1;
}

/* SKIP when the host cannot count hardware events, with why. */
static bool skip_hardware(struct selftest_ctx *c, struct st_outcome *o, int *n_events)
{
	char err[512];

	if (!c->hardware) {
		st_set(o, ST_SKIP, "%s", ST_NO_PMU);
		return true;
	}
	*n_events = events_here(c, err, sizeof(err));
	if (*n_events < 0) {
		st_set(o, ST_SKIP, "instructions:u does not open (perf_event_paranoid %d): %s",
		       c->host.paranoid, err);
		return true;
	}
	return false;
}

void st_check_exact(struct selftest_ctx *c, struct st_outcome *o)
{
	struct st_counts base, loop;
	char err[512], work[64];
	int n;

	if (skip_hardware(c, o, &n))
		return;
	snprintf(work, sizeof(work), "loop:%lu", EXACT_ITERS);
	if (count_work(c, "loop:0", n, NULL, &base, err, sizeof(err)) < 0 ||
	    count_work(c, work, n, NULL, &loop, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		return;
	}
	const double known[2] = { (double)ST_LOOP_INSNS * EXACT_ITERS,
				  (double)ST_LOOP_BRANCHES * EXACT_ITERS };
	snprintf(o->expected, sizeof(o->expected), "instructions %.0f, branches %.0f (+ start-up),"
		 " within 0.01%%", known[0], known[1]);
	o->measured[0] = '\0';
	for (int e = 0; e < n; e++) {
		double d = loop.v[e] - base.v[e];
		size_t len = strlen(o->measured);
		snprintf(o->measured + len, sizeof(o->measured) - len, "%s%s %.0f + %.0f start-up",
			 e ? ", " : "", count_names[e], d, base.v[e]);
		if (loop.v[e] < 0 || base.v[e] < 0 || d < known[e] * (1 - EXACT_BOUND) ||
		    d > known[e] * (1 + EXACT_BOUND)) {
			st_set(o, ST_FAIL, "%s: %.0f for %lu iterations, not %.0f (%+.4f%%)",
			       count_names[e], d, EXACT_ITERS, known[e],
			       100 * (d - known[e]) / known[e]);
			return;
		}
	}
	st_set(o, ST_PASS, "%s%s", o->measured,
	       n < 2 ? "; branches:u: the PMU has no such event, not checked" : "");
}

/* --- test 3: perf stat on the same program --------------------------------- */

double st_perf_count(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *f1 = strchr(l, ','), *f2 = f1 ? strchr(f1 + 1, ',') : NULL;
		if (f2 && strncmp(f2 + 1, name, len) == 0 && f2[1 + len] == ',' &&
		    l[0] >= '0' && l[0] <= '9')
			return strtod(l, NULL);
	}
	return -1;
}

int st_perf_stat(struct selftest_ctx *c, const char *events, const char *work, char *out,
		 size_t outsz, char *stat, size_t statsz, char *err, size_t errsz)
{
	char *argv[] = { "perf", "stat", "-x,", "-e", (char *)events, "--", (char *)c->self,
			 "selftest", "--workload", (char *)work, NULL };
	int rc = st_run_capture(argv, out, outsz, stat, statsz);

	if (rc != 0) {
		stat[strcspn(stat, "\n")] = '\0';
		snprintf(err, errsz, "perf stat exited with %d: %.200s", rc, stat);
		return -1;
	}
	return 0;
}

struct perf_run {
	char out[16384];     /* the child's stdout (its environment for "env") */
	char stat[4096];     /* perf stat's lines */
};

/* perf stat -x, of cyctop's program WORK; 0, or -1 with why in ERR. */
static int perf_stat(struct selftest_ctx *c, const char *work, int n_events, struct perf_run *r,
		     struct st_counts *out, char *err, size_t errsz)
{
	if (st_perf_stat(c, n_events > 1 ? "instructions:u,branches:u" : "instructions:u", work,
			 r->out, sizeof(r->out), r->stat, sizeof(r->stat), err, errsz) < 0)
		return -1;
	out->n = n_events;
	for (int e = 0; e < n_events; e++)
		if ((out->v[e] = st_perf_count(r->stat, count_names[e])) < 0) {
			snprintf(err, errsz, "perf stat did not count %s", count_names[e]);
			return -1;
		}
	return 0;
}

char **st_perf_env(struct selftest_ctx *c, const char *text)
{
	static const char pad[] = "CYCTOP_SELFTEST_PAD=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
	size_t n = 2, len = strlen(text);

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	char **envp = malloc(n * sizeof(*envp) + len + sizeof(pad) + 1);
	if (!envp)
		return NULL;
	char *copy = (char *)(envp + n);
	memcpy(copy, text, len + 1);
	n = 0;
	for (char *l = strtok(copy, "\n"); l; l = strtok(NULL, "\n"))
		envp[n++] = l;
	if (selftest_fault(c, "startup"))
		envp[n++] = memcpy(copy + len + 1, pad, sizeof(pad));
	envp[n] = NULL;
	return envp;
}

/* Compares cyctop's counts C with perf's P: within BOUND of perf's, or
 * within ABS instructions.  False with why in O. */
static bool agree(const char *what, const struct st_counts *cy, const struct st_counts *p,
		  double bound, double abs_bound, struct st_outcome *o)
{
	for (int e = 0; e < p->n; e++) {
		double d = cy->v[e] - p->v[e];
		if (d < 0)
			d = -d;
		if (d > bound * p->v[e] && d > abs_bound) {
			st_set(o, ST_FAIL, "%s: cyctop counts %s %.0f, perf stat %.0f (%+.0f)", what,
			       count_names[e], cy->v[e], p->v[e], cy->v[e] - p->v[e]);
			return false;
		}
	}
	return true;
}

void st_check_perf(struct selftest_ctx *c, struct st_outcome *o)
{
	struct perf_run *r = calloc(1, sizeof(*r));
	struct st_counts p_loop, p_base, p_base2, k, cy_loop, cy_base;
	char err[512], work[64];
	char **envp = NULL;
	int n;

	if (!r) {
		st_set(o, ST_FAIL, "out of memory");
		return;
	}
	snprintf(work, sizeof(work), "loop:%lu", EXACT_ITERS);
	if (!c->hardware) {  /* software events: every host has them */
		st_check_perf_software(c, o);
		goto out;
	}
	if (skip_hardware(c, o, &n))
		goto out;
	if (!c->host.perf[0]) {
		st_set(o, ST_SKIP, "perf is not installed (perf --version did not run)");
		goto out;
	}
	if (perf_stat(c, "env", n, r, &k, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	if (!(envp = st_perf_env(c, r->out))) {
		st_set(o, ST_FAIL, "out of memory");
		goto out;
	}
	if (perf_stat(c, work, n, r, &p_loop, err, sizeof(err)) < 0 ||
	    perf_stat(c, "loop:0", n, r, &p_base, err, sizeof(err)) < 0 ||
	    perf_stat(c, "loop:0", n, r, &p_base2, err, sizeof(err)) < 0 ||
	    count_work(c, work, n, envp, &cy_loop, err, sizeof(err)) < 0 ||
	    count_work(c, "loop:0", n, envp, &cy_base, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	/* the start-up alone: as reproducible as perf's own two runs are, and
	 * 64 instructions (a real PMU's user counts move by a few between
	 * runs; the emulated one's not at all); a padded environment moves
	 * them by hundreds */
	double spread = p_base.v[0] - p_base2.v[0], abs_bound;
	abs_bound = 64 + 4 * (spread < 0 ? -spread : spread);
	snprintf(o->measured, sizeof(o->measured), "instructions:u cyctop %.0f perf %.0f; "
		 "start-up cyctop %.0f perf %.0f", cy_loop.v[0], p_loop.v[0], cy_base.v[0],
		 p_base.v[0]);
	snprintf(o->expected, sizeof(o->expected), "within 0.5%%; start-up within %.0f "
		 "instructions", abs_bound);
	if (agree("the loop", &cy_loop, &p_loop, PERF_BOUND, 0, o) &&
	    agree("the start-up alone", &cy_base, &p_base, 0, abs_bound, o))
		st_set(o, ST_PASS, "%s (%s)", o->measured, c->host.perf);
out:
	free(envp);
	free(r);
}

/* Test 6, sampling: the two-function calibrated program (st_loop_a runs
 * two iterations for each of st_loop_b's, in rounds: 2:1 by construction)
 * sampled on cycles (cpu-clock without a PMU), each sample of one of the
 * two; st_loop_a's share of them within 2 points of 2/3.  The period is
 * set from a counting run so that some 12,000 samples come: the sd of
 * the share is then sqrt(2/9 / 12000) = 0.43 points, and 2 points are 4.6
 * sd.  A run whose loops got under 6,000 samples (the program's start
 * took 0.19 s of 0.43 under a sanitizer; sampling every 50 us slows the
 * loop on a VM) runs once more with the iterations scaled to the
 * samples wanted, at most 4 times.  Cycles, not instructions: an emulated PMU (QEMU 7.2) raises the
 * overflow interrupt on the cycle counter only, and cycles sample on
 * every PMU.  Its second half, leader sampling, is
 * engine/selftest-leader.c's. */
#include "engine/selftest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOSAMPLE "1000000000000"
#define WANT_SAMPLES 12000.0
#define SHARE_BOUND 0.02
#define MIN_SAMPLES 6000

/* The program's environment with the split fault's variable, or NULL
 * (cyctop's own). */
static char **split_env(struct selftest_ctx *c)
{
	extern char **environ;
	size_t n = 0;

	if (!selftest_fault(c, "split"))
		return NULL;
	while (environ[n])
		n++;
	char **envp = calloc(n + 2, sizeof(*envp));
	if (envp) {
		memcpy(envp, environ, n * sizeof(*envp));
		envp[n] = "CYCTOP_SELFTEST_EVEN=1";
	}
	return envp;
}

static uint64_t func_samples(const struct snapshot *snap, const char *name)
{
	for (size_t i = 0; i < snap->n_funcs; i++)
		if (strcmp(snap->funcs[i].name, name) == 0)
			return snap->funcs[i].samples[0];
	return 0;
}

/* The second half, once the shares pass: leader sampling.  O gets both
 * halves' figures; the verdict is the second's. */
static void leader_half(struct selftest_ctx *c, struct st_outcome *o)
{
	struct st_outcome l = { 0 };
	char shares[256], why[sizeof(o->reason)];
	bool shares_failed = o->result == ST_FAIL;

	snprintf(shares, sizeof(shares), "%s", o->measured);
	snprintf(why, sizeof(why), "%s", o->reason);
	st_check_leader(c, &l);
	snprintf(o->measured, sizeof(o->measured), "%.100s; %.150s", shares, l.measured);
	snprintf(o->expected, sizeof(o->expected), "66.67%% within 2 points; %.200s",
		 l.expected);
	if (l.result != ST_PASS)
		st_set(o, l.result, "%.200s%s%.200s", l.reason, shares_failed ? "; " : "",
		       shares_failed ? why : "");
	else if (shares_failed)
		st_set(o, ST_FAIL, "%s", why);
	else
		st_set(o, ST_PASS, "%s; leader sampling: %s%s", shares, l.measured,
		       c->hardware ? "; sampled on cycles: an emulated PMU (QEMU 7.2) interrupts "
				     "on the cycle counter's overflow only" : "");
}

void st_check_sampling(struct selftest_ctx *c, struct st_outcome *o)
{
	const char *ev = c->hardware ? "cycles:u" : "cpu-clock";
	char err[512], work[64], events[96];
	char **envp = split_env(c);
	struct st_watch w = { .events = events, .work = work, .envp = envp };
	struct snapshot *snap = NULL;

	if (st_loop_speed(c, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	/* software: 0.7 s of the loop (14,000 samples at 50 us); a PMU
	 * samples cycles at any period */
	unsigned long iters = st_iters_for(c, c->hardware ? 0.1 : 0.7, 3000000);
	snprintf(work, sizeof(work), "split:%lu", iters);
	snprintf(events, sizeof(events), "%s/" NOSAMPLE, ev);
	if (!(snap = st_watch_run(c, &w, err, sizeof(err)))) {
		st_set(o, c->hardware ? ST_FAIL : ST_SKIP, "%s", err);
		goto out;
	}
	double period = floor(snap->ev[0].count / WANT_SAMPLES);
	snapshot_free(snap);
	if (!c->hardware && period < 50000)
		period = 50000;  /* 50 us: 20 kHz, under the kernel's rate limit */
	if (period < 1000)
		period = 1000;
	snprintf(events, sizeof(events), "%s/%.0f", ev, period);
	if (!(snap = st_watch_run(c, &w, err, sizeof(err)))) {
		st_set(o, ST_FAIL, "%s", err);
		goto out;
	}
	uint64_t a = func_samples(snap, "st_loop_a"), b = func_samples(snap, "st_loop_b");
	if (a + b > 0 && a + b < MIN_SAMPLES) {
		double scale = fmin(4, WANT_SAMPLES / (double)(a + b));
		snprintf(work, sizeof(work), "split:%lu", (unsigned long)((double)iters * scale));
		snapshot_free(snap);
		if (!(snap = st_watch_run(c, &w, err, sizeof(err)))) {
			st_set(o, ST_FAIL, "%s", err);
			goto out;
		}
		a = func_samples(snap, "st_loop_a");
		b = func_samples(snap, "st_loop_b");
	}
	double share = a + b ? (double)a / (double)(a + b) : 0;
	snprintf(o->measured, sizeof(o->measured), "st_loop_a %.2f%% of %llu samples "
		 "(%s, period %.0f)", 100 * share, (unsigned long long)(a + b), ev, period);
	snprintf(o->expected, sizeof(o->expected), "66.67%% within 2 points");
	if (a + b < MIN_SAMPLES)
		st_set(o, ST_FAIL, "%llu samples in st_loop_a and st_loop_b (%llu in all), want "
		       "%d or more", (unsigned long long)(a + b),
		       (unsigned long long)snap->ev[0].samples, MIN_SAMPLES);
	else if (fabs(share - 2.0 / 3) > SHARE_BOUND)
		st_set(o, ST_FAIL, "st_loop_a has %.2f%% of the samples, not 66.67%% (2:1)",
		       100 * share);
	/* the leader half runs whatever the shares said: its failure is
	 * named first, each half's verdict its own */
	leader_half(c, o);
out:
	snapshot_free(snap);
	free(envp);
}

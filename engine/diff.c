/* Before and after: rows matched by key, deltas and their intervals (see
 * engine/diff.h for the methods). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hashtab.h"
#include "engine/diff.h"

/* t(0.975, df) for df = 1..30 (any statistics table, e.g. NIST/SEMATECH
 * e-Handbook 1.3.6.7.2), to 4 decimals. */
static const double t975[31] = {
	NAN,    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622,
	2.2281, 2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930,
	2.0860, 2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452,
	2.0423,
};

double diff_t975(double df)
{
	if (!(df >= 1))
		df = 1;
	if (isinf(df))
		return DIFF_Z95;
	if (df <= 30) {
		/* t is close to linear in 1/df between whole degrees */
		int lo = (int)floor(df), hi = lo + 1;
		if (lo >= 30 || df == lo)
			return t975[lo];
		double w = (1 / df - 1 / (double)hi) / (1 / (double)lo - 1 / (double)hi);
		return w * t975[lo] + (1 - w) * t975[hi];
	}
	/* Cornish-Fisher (Abramowitz and Stegun 26.7.5) */
	double z = DIFF_Z95, z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df) +
	       (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) /
		       (92160 * df * df * df * df);
}

static void mean_var(const double *x, int n, double *mean, double *var)
{
	double s = 0, ss = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
}

static double mean_of(const double *v, int n)
{
	double s = 0;

	for (int i = 0; v && i < n; i++)
		s += v[i];
	return s / n;
}

void diff_stat_compute(enum diff_method method, const double *b, const double *vb, int nb,
		       const double *n, const double *vn, int nn, struct diff_stat *s)
{
	double mb, mn, sb, sn;
	double t;

	mean_var(b, nb, &mb, &sb);
	mean_var(n, nn, &mn, &sn);
	/* runs: a sampled count is known to one sample at best (VB, VN hold
	 * P^2 then); two or three equal runs (a function sampled once in
	 * each) must not make an interval of width 0 */
	sb = fmax(sb, mean_of(vb, nb));
	sn = fmax(sn, mean_of(vn, nn));
	s->base = mb;
	s->new_ = mn;
	s->delta = mn - mb;
	s->delta_pct = mb != 0 ? 100 * s->delta / mb : NAN;
	if (method == DIFF_SAMPLING) {
		double v = (vb ? vb[0] : 0) + (vn ? vn[0] : 0);
		s->sd = sqrt(v);
		s->df = INFINITY;
		t = DIFF_Z95;
	} else {
		/* Welch: the standard error of the difference of means with
		 * unequal variances, and the Welch-Satterthwaite df */
		double qb = sb / nb, qn = sn / nn;
		s->sd = sqrt(qb + qn);
		double den = qb * qb / (nb - 1) + qn * qn / (nn - 1);
		s->df = den > 0 ? (qb + qn) * (qb + qn) / den : INFINITY;
		t = diff_t975(s->df);
	}
	s->low = s->delta - t * s->sd;
	s->high = s->delta + t * s->sd;
	s->significant = s->low > 0 || s->high < 0;
}

/* ---- rows by key -------------------------------------------------------- */

struct keyed {
	struct diff_row *rows;
	size_t n, alloc;
	struct hashtab index;
};

struct key {
	const char *name, *module;
};

static bool key_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct key *k = key;
	const struct keyed *t = ctx;

	return strcmp(t->rows[idx].name, k->name) == 0 &&
	       strcmp(t->rows[idx].module, k->module) == 0;
}

static uint64_t key_hash(const struct key *k)
{
	return hash_mix(hash_str(k->name) ^ hash_mix(hash_str(k->module)));
}

/* The row of KEY, added when new; -1 when out of memory. */
static long row_of(struct keyed *t, const char *name, const char *module)
{
	struct key k = { name, module };
	uint64_t h = key_hash(&k);
	uint32_t i = hashtab_find(&t->index, h, &k, key_eq, t);

	if (i != HASHTAB_NONE)
		return i;
	if (GROW(t->rows, t->n + 1, t->alloc) < 0 || hashtab_add(&t->index, h, (uint32_t)t->n) < 0)
		return -1;
	memset(&t->rows[t->n], 0, sizeof(t->rows[t->n]));
	t->rows[t->n].name = name;
	t->rows[t->n].module = module;
	return (long)t->n++;
}

/* qsort_r's comparator (glibc's order: the context last); CTX points at
 * the index of the event the rows are sorted by. */
static int by_abs_delta(const void *a, const void *b, void *ctx)
{
	const struct diff_row *x = a, *y = b;
	int ev = *(const int *)ctx;
	double dx = fabs(x->ev[ev].delta), dy = fabs(y->ev[ev].delta);

	if (dx != dy)
		return dx < dy ? 1 : -1;
	/* ties (unchanged rows): the larger count first, then by name */
	double cx = fmax(x->ev[ev].base, x->ev[ev].new_);
	double cy = fmax(y->ev[ev].base, y->ev[ev].new_);
	if (cx != cy)
		return cx < cy ? 1 : -1;
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->module, y->module);
}

/* The rows of every key of the runs of both sides. */
static int collect_keys(struct keyed *t, const struct diff_run *runs, int nruns, bool base)
{
	for (int r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct diff_obs *o = &runs[r].obs[i];
			long k = row_of(t, o->name, o->module);
			if (k < 0)
				return -1;
			if (base)
				t->rows[k].in_base = true;
			else
				t->rows[k].in_new = true;
		}
	return 0;
}

/* The sums of each row's observations in each run: ACC[((r * NK) + k) *
 * N_EVENTS + e] the count, the same offset past NRUNS * NK * N_EVENTS the
 * variance.  Rows met twice in a run (threads of one name, two modules of
 * one basename) add up. */
static int sum_runs(struct keyed *t, const struct diff_run *runs, int nruns, int n_events,
		    double *acc)
{
	size_t half = (size_t)nruns * t->n * (size_t)n_events;

	for (int r = 0; r < nruns; r++)
		for (size_t i = 0; i < runs[r].n; i++) {
			const struct diff_obs *o = &runs[r].obs[i];
			long k = row_of(t, o->name, o->module);
			if (k < 0)
				return -1;
			double *c = acc + ((size_t)r * t->n + (size_t)k) * (size_t)n_events;
			for (int e = 0; e < n_events; e++) {
				c[e] += o->count[e];
				c[half + (size_t)e] += o->var[e];
			}
		}
	return 0;
}

/* Row K's counts and variances of event EV in each of NRUNS runs into X[]
 * and V[] (from sum_runs' ACC). */
static void gather(size_t nk, size_t k, int nruns, int n_events, const double *acc, int ev,
		   double *x, double *v)
{
	size_t half = (size_t)nruns * nk * (size_t)n_events;

	for (int r = 0; r < nruns; r++) {
		size_t at = ((size_t)r * nk + k) * (size_t)n_events + (size_t)ev;
		x[r] = acc[at];
		v[r] = acc[half + at];
	}
}

int diff_build(const struct diff_run *base, int nb, const struct diff_run *new_, int nn,
	       int n_events, int sort_ev, struct diff_table *out, char *err, size_t errsz)
{
	struct keyed t = { 0 };

	memset(out, 0, sizeof(*out));
	if (nb < 1 || nn < 1 || (nb == 1) != (nn == 1)) {
		snprintf(err, errsz, "%d run(s) of the base against %d of the new: give one a "
			 "side (the sampling interval) or two or more a side (the runs' spread)",
			 nb, nn);
		return -1;
	}
	out->method = nb == 1 ? DIFF_SAMPLING : DIFF_RUNS;
	out->n_events = n_events;
	if (collect_keys(&t, base, nb, true) < 0 || collect_keys(&t, new_, nn, false) < 0)
		goto oom;
	size_t nk = t.n ? t.n : 1, ne = (size_t)n_events;
	double *x = malloc(sizeof(double) * 2 * (size_t)(nb + nn));
	double *accb = calloc(2 * (size_t)nb * nk * ne, sizeof(double));
	double *accn = calloc(2 * (size_t)nn * nk * ne, sizeof(double));
	if (!x || !accb || !accn || sum_runs(&t, base, nb, n_events, accb) < 0 ||
	    sum_runs(&t, new_, nn, n_events, accn) < 0) {
		free(x);
		free(accb);
		free(accn);
		goto oom;
	}
	double *vx = x + nb, *y = vx + nb, *vy = y + nn;
	for (size_t k = 0; k < t.n; k++)
		for (int e = 0; e < n_events; e++) {
			gather(t.n, k, nb, n_events, accb, e, x, vx);
			gather(t.n, k, nn, n_events, accn, e, y, vy);
			/* sampling: n + 1 samples a side; runs: the floor of one
			 * sample (see diff_stat_compute) */
			bool runs = out->method == DIFF_RUNS;
			for (int r = 0; r < nb; r++)
				vx[r] = (runs ? 0 : vx[r]) + base[r].period[e] * base[r].period[e];
			for (int r = 0; r < nn; r++)
				vy[r] = (runs ? 0 : vy[r]) + new_[r].period[e] * new_[r].period[e];
			diff_stat_compute(out->method, x, vx, nb, y, vy, nn, &t.rows[k].ev[e]);
		}
	free(x);
	free(accb);
	free(accn);
	hashtab_free(&t.index);
	int ev = sort_ev >= 0 && sort_ev < n_events ? sort_ev : 0;
	if (t.n)
		qsort_r(t.rows, t.n, sizeof(*t.rows), by_abs_delta, &ev);
	out->rows = t.rows;
	out->n = t.n;
	return 0;
oom:
	hashtab_free(&t.index);
	free(t.rows);
	snprintf(err, errsz, "out of memory");
	return -1;
}

void diff_table_free(struct diff_table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = 0;
}

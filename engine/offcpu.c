/* Off-CPU time per thread from switch records (engine/offcpu.h). */
#include "engine/offcpu.h"

#include <stdlib.h>
#include <string.h>

#include "lib/hashtab.h"

struct oc_thread {
	uint32_t pid, tid;
	bool off;              /* last switch: out */
	bool seen;             /* a switch was seen: SINCE is valid */
	bool preempted;        /* the last switch out's */
	uint64_t since;        /* the last switch's time */
	uint64_t on_ns, off_ns[OFFCPU_REASONS];
	void *held;            /* the switch-out sample (offcpu_hold) */
	size_t held_cap;
	uint64_t held_time;
	bool has_held;         /* HELD is a sample not yet charged */
};

struct offcpu {
	struct oc_thread *t;
	size_t n, alloc;
	struct hashtab index;  /* tid -> t[] */
	uint64_t clock;
};

struct offcpu *offcpu_new(void)
{
	return calloc(1, sizeof(struct offcpu));
}

void offcpu_free(struct offcpu *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++)
		free(o->t[i].held);
	free(o->t);
	hashtab_free(&o->index);
	free(o);
}

static bool tid_is(const void *key, uint32_t idx, const void *ctx)
{
	const struct offcpu *o = ctx;

	return o->t[idx].tid == *(const uint32_t *)key;
}

static struct oc_thread *find(const struct offcpu *o, uint32_t tid)
{
	uint32_t k = hashtab_find(&o->index, hash_mix(tid), &tid, tid_is, o);

	return k == HASHTAB_NONE ? NULL : &o->t[k];
}

static struct oc_thread *get(struct offcpu *o, uint32_t pid, uint32_t tid)
{
	struct oc_thread *t = find(o, tid);

	if (t)
		return t;
	if (GROW(o->t, o->n + 1, o->alloc) < 0 ||
	    hashtab_add(&o->index, hash_mix(tid), (uint32_t)o->n) < 0)
		return NULL;
	t = &o->t[o->n++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

void offcpu_clock(struct offcpu *o, uint64_t time)
{
	if (time > o->clock)
		o->clock = time;
}

bool offcpu_switch(struct offcpu *o, uint32_t pid, uint32_t tid, uint64_t time, bool out,
		   bool preempt, struct offcpu_iv *iv)
{
	struct oc_thread *t = get(o, pid, tid);
	bool ended = false;

	offcpu_clock(o, time);
	if (!t)
		return false;
	t->pid = pid;
	/* a time going back (records of another ring late) counts nothing */
	uint64_t d = t->seen && time > t->since ? time - t->since : 0;
	if (out && !t->off) {
		t->on_ns += d;
	} else if (!out && t->off && t->seen) {
		*iv = (struct offcpu_iv){ .pid = pid, .tid = tid, .out_time = t->since, .ns = d,
					  .preempted = t->preempted };
		ended = true;
	}
	/* two outs or two ins in a row (a record lost): restart from here */
	t->off = out;
	t->preempted = out && preempt;
	t->since = time;
	t->seen = true;
	return ended;
}

void offcpu_charge(struct offcpu *o, uint32_t pid, uint32_t tid, enum offcpu_reason r,
		   uint64_t ns)
{
	struct oc_thread *t = get(o, pid, tid);

	if (t && (unsigned)r < OFFCPU_REASONS)
		t->off_ns[r] += ns;
}

int offcpu_hold(struct offcpu *o, uint32_t pid, uint32_t tid, uint64_t time,
		const struct perf_event_header *h)
{
	struct oc_thread *t = get(o, pid, tid);
	unsigned char *p;

	if (!t)
		return -1;
	p = t->held;
	if (GROW(p, h->size, t->held_cap) < 0)
		return -1;
	memcpy(p, h, h->size);
	t->held = p;
	t->held_time = time;
	t->has_held = true;
	return 0;
}

const struct perf_event_header *offcpu_held(const struct offcpu *o, uint32_t tid,
					    uint64_t since)
{
	const struct oc_thread *t = find(o, tid);

	if (!t || !t->has_held || t->held_time < since)
		return NULL;
	return t->held;
}

void offcpu_drop(struct offcpu *o, uint32_t tid)
{
	struct oc_thread *t = find(o, tid);

	if (t)
		t->has_held = false;
}

/* Thread T's row, its open interval counted up to the clock (off: as
 * the reason it will be charged to is unknown yet, as other; runnable when
 * it was preempted). */
static void row_of(const struct offcpu *o, const struct oc_thread *t,
		   struct snap_wall_row *w)
{
	uint64_t open = t->seen && o->clock > t->since ? o->clock - t->since : 0;

	memset(w, 0, sizeof(*w));
	w->pid = t->pid;
	w->tid = t->tid;
	w->on_ns = t->on_ns + (t->off ? 0 : open);
	memcpy(w->reason_ns, t->off_ns, sizeof(w->reason_ns));
	if (t->off)
		w->reason_ns[t->preempted ? OFFCPU_RUNNABLE : OFFCPU_OTHER] += open;
	for (int r = 0; r < OFFCPU_REASONS; r++)
		w->off_ns += w->reason_ns[r];
}

static void add_row(struct snap_wall_row *sum, const struct snap_wall_row *w)
{
	sum->on_ns += w->on_ns;
	sum->off_ns += w->off_ns;
	for (int r = 0; r < OFFCPU_REASONS; r++)
		sum->reason_ns[r] += w->reason_ns[r];
}

struct snap_wall *offcpu_snapshot(const struct offcpu *o, int64_t pid)
{
	struct snap_wall *w = calloc(1, sizeof(*w) + o->n * sizeof(w->threads[0]));

	if (!w)
		return NULL;
	w->total.pid = pid < 0 ? 0 : (uint32_t)pid;
	for (size_t i = 0; i < o->n; i++) {
		if (pid >= 0 && o->t[i].pid != (uint32_t)pid)
			continue;
		row_of(o, &o->t[i], &w->threads[w->n]);
		add_row(&w->total, &w->threads[w->n++]);
	}
	return w;
}

bool snap_wall_sum(const struct snap_wall *w, int64_t pid, int64_t tid,
		   struct snap_wall_row *sum)
{
	bool any = false;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; w && i < w->n; i++) {
		const struct snap_wall_row *r = &w->threads[i];
		if ((tid >= 0 && r->tid != (uint32_t)tid) || (pid >= 0 && r->pid != (uint32_t)pid))
			continue;
		sum->pid = r->pid;
		sum->tid = tid >= 0 ? r->tid : r->pid;
		add_row(sum, r);
		any = true;
	}
	return any;
}

/* Time-slice multiplexing (the contract is in engine/mux.h). */
#include "engine/mux.h"

#include <stdio.h>
#include <string.h>

#include "engine/profile.h"
#include "engine/sys.h"

int mux_plan(const struct ev_list *evl, int max_counters, struct plan *plan, int *group,
	     char *err, size_t errsz)
{
	struct plan_request req[EVENTS_MAX];
	char names[EVENTS_MAX][EVENT_NAME_MAX];

	for (int e = 0; e < evl->n; e++) {
		/* the primary name of an alias list "A|B" names the model row */
		snprintf(names[e], sizeof(names[e]), "%.*s", (int)strcspn(evl->ev[e].name, "|"),
			 evl->ev[e].name);
		req[e] = (struct plan_request){ names[e], model_lookup(evl->model, names[e]),
						evl->ev[e].software };
	}
	int n = plan_build(evl->model, req, evl->n, max_counters, plan, err, errsz);
	for (int e = 0; n > 0 && e < evl->n; e++) {
		int g = plan->event_group[e];
		group[e] = g == PLAN_EVERY_GROUP ? SNAP_EVERY_GROUP : g;
	}
	return n;
}

void mux_start(struct mux *m, int n_groups, unsigned slice_ms, uint64_t now_ns)
{
	m->n_groups = n_groups;
	m->current = 0;
	m->slice_ns = (uint64_t)(slice_ms ? slice_ms : MUX_SLICE_MS_DEFAULT) * 1000000ull;
	m->next_ns = now_ns + m->slice_ns;
	m->rotations = 0;
}

int mux_due_ms(const struct mux *m, uint64_t now_ns)
{
	if (m->n_groups <= 1)
		return -1;
	if (now_ns >= m->next_ns)
		return 0;
	return (int)((m->next_ns - now_ns + 999999) / 1000000);
}

static int switch_group(const struct mux_fd *fds, int nfds, int group, unsigned long req)
{
	int rc = 0;

	for (int i = 0; i < nfds; i++)
		if (fds[i].group == group && sys_ioctl(fds[i].fd, req, 0) < 0)
			rc = -1;
	return rc;
}

int mux_tick(struct mux *m, const struct mux_fd *fds, int nfds, uint64_t now_ns)
{
	if (m->n_groups <= 1 || now_ns < m->next_ns)
		return 0;
	int next = (m->current + 1) % m->n_groups;
	/* disable first: the two groups never count together, so no group ever
	 * needs more counters than the plan gave it */
	int rc = switch_group(fds, nfds, m->current, PERF_EVENT_IOC_DISABLE);
	if (switch_group(fds, nfds, next, PERF_EVENT_IOC_ENABLE) < 0)
		rc = -1;
	m->current = next;
	m->rotations++;
	/* a late tick (a busy host) does not make the following slices short */
	m->next_ns = now_ns + m->slice_ns;
	return rc < 0 ? -1 : 1;
}

void mux_read(const struct mux_fd *fds, int nfds, int ncpus, struct mux_totals *ev,
	      int n_events, struct mux_totals *ref)
{
	uint64_t buf[4];

	for (int e = 0; e < n_events; e++)
		ev[e] = (struct mux_totals){ 0, 0, 0 };
	*ref = (struct mux_totals){ 0, 0, 0 };
	/* the rotating groups first, then what counts all the time (the
	 * reference among them): the fds are read one after another, and a
	 * group read after the reference would have run a little longer than
	 * the whole it is divided by (a read pass preempted on a busy host:
	 * coverages adding up to 1.012) */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < nfds; i++) {
			if ((fds[i].group == MUX_ALWAYS) != (pass == 1))
				continue;
			if (sys_read(fds[i].fd, buf, sizeof(buf)) < (ssize_t)(3 * sizeof(uint64_t)))
				continue;
			struct mux_totals *t = fds[i].ev == MUX_REFERENCE ? ref
					       : fds[i].ev < n_events ? &ev[fds[i].ev] : NULL;
			if (!t)
				continue;
			t->value += (double)buf[0];
			t->enabled += (double)buf[1];
			t->running += (double)buf[2];
		}
	}
	if (ncpus < 1)
		ncpus = 1;
	for (int e = 0; e < n_events; e++)
		ev[e].enabled /= ncpus;
	ref->enabled /= ncpus;
}

struct mux_scaled mux_scale(const struct mux_totals *t, double ref_enabled)
{
	struct mux_scaled s = { 0, 0, t->running > 0 };
	double whole = ref_enabled > 0 ? ref_enabled : t->enabled;

	if (whole <= 0)
		return s;
	s.coverage = t->running / whole;
	if (s.coverage > 1)
		s.coverage = 1;  /* the reference started a little later */
	if (s.counted)
		s.count = t->value / s.coverage;
	return s;
}

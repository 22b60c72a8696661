#include "engine/side.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/hashtab.h"
#include "engine/pfm.h"
#include "engine/sys.h"

/* The software tree's counters (arch/tree-sw.c) that sampling cpu-clock
 * does not give. */
static const char *const sw_side[] = {
	"page-faults", "minor-faults", "major-faults", "context-switches", "cpu-migrations",
};

struct side_fd {
	int fd;
	int idx;        /* into specs */
};

struct side_counters {
	struct ev_spec specs[SNAP_SIDE_MAX];
	int n;
	struct side_fd *fds;
	size_t nfds, cap;
};

static bool in_list(const struct ev_list *l, const char *name)
{
	for (int e = 0; e < l->n; e++)
		if (strcmp(l->ev[e].name, name) == 0)
			return true;
	return false;
}

int side_specs(const struct ev_list *events, struct ev_spec *out, int max)
{
	struct ev_list *one;
	char err[256];
	int n = 0;

	if (pfm_host_hardware(events->host) || !(one = malloc(sizeof(*one))))
		return 0;
	for (size_t i = 0; i < sizeof(sw_side) / sizeof(sw_side[0]) && n < max; i++)
		if (!in_list(events, sw_side[i]) &&
		    events_parse(sw_side[i], events->model, events->host, one, err, sizeof(err)) == 0)
			out[n++] = one->ev[0];
	free(one);
	return n;
}

static void side_attr(struct perf_event_attr *a, const struct ev_spec *spec, bool system_wide,
		      bool launched)
{
	*a = spec->attr;
	a->size = sizeof(*a);
	a->sample_period = 0;
	a->freq = 0;
	a->sample_type = 0;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->inherit = !system_wide;
	a->disabled = launched;
	a->enable_on_exec = launched;
	a->exclude_hv = 1;
}

static int add_fd(struct side_counters *sc, int fd, int idx)
{
	if (GROW(sc->fds, sc->nfds + 1, sc->cap) < 0)
		return -1;
	sc->fds[sc->nfds++] = (struct side_fd){ fd, idx };
	return 0;
}

/* One fd; a kernel count refused (perf_event_paranoid 2) falls back to user
 * space as perf does.  -1 when it cannot be opened. */
static int open_one(struct perf_event_attr *a, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && (errno == EACCES || errno == EPERM) && !a->exclude_kernel) {
		a->exclude_kernel = 1;
		fd = sys_perf_event_open(a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

/* Counter I on every thread (or CPU); false, its fds closed, on a failure. */
static bool open_counter(struct side_counters *sc, int i, const pid_t *tids, int ntids,
			 const bool *cpu_on, int ncpus, bool system_wide, bool launched)
{
	struct perf_event_attr a;
	size_t first = sc->nfds;
	int n = system_wide ? ncpus : ntids;

	side_attr(&a, &sc->specs[i], system_wide, launched);
	for (int k = 0; k < n; k++) {
		if (system_wide && cpu_on && !cpu_on[k])
			continue;
		/* counting needs no ring: one fd per thread on every CPU */
		int fd = system_wide ? open_one(&a, -1, k) : open_one(&a, tids[k], -1);
		if (fd < 0 || add_fd(sc, fd, i) < 0) {
			if (fd >= 0)
				sys_close(fd);
			while (sc->nfds > first)
				sys_close(sc->fds[--sc->nfds].fd);
			return false;
		}
	}
	return sc->nfds > first;
}

struct side_counters *side_open(const struct ev_list *events, const pid_t *tids, int ntids,
				const bool *cpu_on, int ncpus, bool system_wide, bool launched)
{
	struct ev_spec specs[SNAP_SIDE_MAX];
	int n = side_specs(events, specs, SNAP_SIDE_MAX);
	struct side_counters *sc;

	if (n == 0 || !(sc = calloc(1, sizeof(*sc))))
		return NULL;
	for (int i = 0; i < n; i++) {
		sc->specs[sc->n] = specs[i];
		if (open_counter(sc, sc->n, tids, ntids, cpu_on, ncpus, system_wide, launched))
			sc->n++;
	}
	if (sc->n == 0) {
		side_close(sc);
		return NULL;
	}
	return sc;
}

void side_read(const struct side_counters *sc, struct snapshot *snap)
{
	double count[SNAP_SIDE_MAX] = { 0 };

	if (!sc)
		return;
	for (size_t i = 0; i < sc->nfds; i++) {
		uint64_t v[3];
		if (sys_read(sc->fds[i].fd, v, sizeof(v)) != (ssize_t)sizeof(v) || !v[2])
			continue;
		/* scaled as perf stat scales: value x enabled / running */
		count[sc->fds[i].idx] += (double)v[0] * ((double)v[1] / (double)v[2]);
	}
	snap->n_side = 0;
	/* a counter not yet enabled (before the exec) has counted 0 */
	for (int i = 0; i < sc->n; i++) {
		snprintf(snap->side[snap->n_side].name, sizeof(snap->side[0].name), "%s",
			 sc->specs[i].name);
		snap->side[snap->n_side++].count = count[i];
	}
}

void side_close(struct side_counters *sc)
{
	if (!sc)
		return;
	for (size_t i = 0; i < sc->nfds; i++)
		sys_close(sc->fds[i].fd);
	free(sc->fds);
	free(sc);
}

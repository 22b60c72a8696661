#include "engine/session.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "engine/disasm.h"
#include "engine/pfm.h"
#include "engine/record.h"
#include "engine/ring.h"
#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/target.h"

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define MAX_TIDS 4096
#define MAP_REFRESH_NS 200000000ull

struct evfd {
	int fd;
	int ev;
	uint64_t id;
};

struct space {
	pid_t pid;
	struct symtab *st;
	uint64_t last_refresh;
};

struct recbuf {
	unsigned char *data;
	size_t len, cap;
};

struct session {
	struct target target;
	struct ev_list events;
	struct profile *prof;
	int ncpus;
	struct evfd *fds;
	int nfds, capfds;
	struct ring *rings;      /* per CPU */
	struct pollfd *pfds;
	struct space *spaces;
	int nspaces, capspaces;
	struct recbuf batch;
	double t0, last_snap;
	bool hup;
	size_t ring_pages;
	struct asm_cache *asmc;  /* functions opened in the asm view */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- address spaces ----------------------------------------------------- */

static struct space *space_find(struct session *s, pid_t pid)
{
	for (int i = 0; i < s->nspaces; i++)
		if (s->spaces[i].pid == pid)
			return &s->spaces[i];
	return NULL;
}

static struct space *space_get(struct session *s, pid_t pid)
{
	struct space *sp = space_find(s, pid);

	if (sp)
		return sp;
	if (s->nspaces == s->capspaces) {
		int cap = s->capspaces ? s->capspaces * 2 : 8;
		struct space *v = realloc(s->spaces, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		s->spaces = v;
		s->capspaces = cap;
	}
	sp = &s->spaces[s->nspaces];
	sp->pid = pid;
	sp->st = symtab_new();
	sp->last_refresh = 0;
	if (!sp->st)
		return NULL;
	s->nspaces++;
	return sp;
}

/* A sample outside every known mapping: the mapping record may be in another
 * CPU's ring or predate the watch; re-read /proc/PID/maps, rate-limited. */
static void space_refresh(struct space *sp)
{
	uint64_t t = now_ns();

	if (t - sp->last_refresh < MAP_REFRESH_NS)
		return;
	sp->last_refresh = t;
	symtab_add_proc_maps(sp->st, sp->pid);
}

/* --- records ------------------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
	const struct evfd *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Per sample: the fds are sorted by id once they are all open. */
static int event_of(const struct session *s, uint64_t id)
{
	struct evfd key = { .id = id };
	const struct evfd *f = bsearch(&key, s->fds, (size_t)s->nfds, sizeof(key), by_id);

	return f ? f->ev : -1;
}

static void handle_sample(struct session *s, const struct rec_sample *smp)
{
	struct sym_info si;
	int ev = event_of(s, smp->id);
	struct space *sp = space_get(s, (pid_t)smp->pid);

	if (ev < 0 || !sp)
		return;
	if (!symtab_lookup(sp->st, smp->ip, &si)) {
		space_refresh(sp);
		if (!symtab_lookup(sp->st, smp->ip, &si))
			si.name = NULL, si.module = "[unknown]";
	}
	profile_add(s->prof, ev, smp->tid, smp->ip, si.name, si.module, 1);
}

static void handle_task(struct session *s, const struct record *r)
{
	const struct rec_task *t = &r->u.task;

	if (r->type == PERF_RECORD_EXIT)
		profile_thread_exit(s->prof, t->tid);
	else
		profile_thread_fork(s->prof, t->tid, t->ptid);
	if (r->type == PERF_RECORD_FORK && t->pid != t->ppid) {
		struct space *parent = space_find(s, (pid_t)t->ppid);
		struct space *child = space_get(s, (pid_t)t->pid);
		if (parent && child)
			symtab_copy_maps(child->st, parent->st);
	}
}

static void handle_other(struct session *s, const struct record *r)
{
	struct space *sp;

	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!(r->u.mmap.prot & PROT_EXEC))
			break;
		sp = space_get(s, (pid_t)r->u.mmap.pid);
		if (sp)
			symtab_add_map(sp->st, r->u.mmap.filename, r->u.mmap.addr,
				       r->u.mmap.addr + r->u.mmap.len, r->u.mmap.pgoff);
		break;
	case PERF_RECORD_COMM:
		profile_set_thread_name(s->prof, r->u.comm.tid, r->u.comm.comm);
		if (!r->u.comm.exec)
			break;
		sp = space_get(s, (pid_t)r->u.comm.pid);
		if (sp)
			symtab_clear(sp->st);
		if ((pid_t)r->u.comm.pid == s->target.pid)
			snprintf(s->target.comm, sizeof(s->target.comm), "%s", r->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		handle_task(s, r);
		break;
	case PERF_RECORD_LOST:
		profile_add_lost(s->prof, r->u.lost.lost);
		break;
	case PERF_RECORD_THROTTLE:
		profile_add_throttle(s->prof);
		break;
	default:
		break;
	}
}

static void collect(const struct perf_event_header *hdr, void *arg)
{
	struct recbuf *b = arg;

	if (b->len + hdr->size > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1 << 16;
		while (cap < b->len + hdr->size)
			cap *= 2;
		unsigned char *d = realloc(b->data, cap);
		if (!d)
			return;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, hdr, hdr->size);
	b->len += hdr->size;
}

/* Mapping and task records first, then samples: a sample must not be
 * symbolized before the mapping it lies in, whichever ring either came in. */
static void process_batch(struct session *s)
{
	struct record r;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t off = 0; off < s->batch.len;) {
			const struct perf_event_header *h = (const void *)(s->batch.data + off);
			off += h->size;
			bool is_sample = h->type == PERF_RECORD_SAMPLE;
			if (is_sample != (pass == 1))
				continue;
			if (record_decode(h, SAMPLE_TYPE, true, &r) < 0) {
				profile_add_undecodable(s->prof);
				continue;
			}
			if (is_sample)
				handle_sample(s, &r.u.sample);
			else
				handle_other(s, &r);
		}
	}
	s->batch.len = 0;
}

/* --- opening ------------------------------------------------------------ */

static void attr_setup(struct perf_event_attr *a, const struct ev_spec *ev, bool launched,
		       bool first)
{
	*a = ev->attr;
	a->size = sizeof(*a);
	a->sample_period = ev->sav;
	a->freq = 0;
	a->sample_type = SAMPLE_TYPE;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			 PERF_FORMAT_ID;
	a->disabled = launched;
	a->enable_on_exec = launched;
	a->inherit = 1;
	a->sample_id_all = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->wakeup_events = 0;
	a->watermark = 1;
	a->wakeup_watermark = 16 * 1024;
	if (first) {
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
	}
}

static int add_fd(struct session *s, int fd, int ev)
{
	uint64_t id = 0;

	if (s->nfds == s->capfds) {
		int cap = s->capfds ? s->capfds * 2 : 32;
		struct evfd *v = realloc(s->fds, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		s->fds = v;
		s->capfds = cap;
	}
	if (sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&id) < 0)
		return -1;
	s->fds[s->nfds++] = (struct evfd){ fd, ev, id };
	return 0;
}

static void open_error(struct session *s, const struct ev_spec *ev, pid_t pid, int e,
		       char *err, size_t errsz)
{
	if ((e == EACCES || e == EPERM) && !s->target.launched)
		snprintf(err, errsz, "cannot watch pid %d: %s", (int)pid, sys_perf_strerror(e));
	else if (e == ESRCH)
		snprintf(err, errsz, "pid %d: %s", (int)pid, sys_perf_strerror(e));
	else
		snprintf(err, errsz, "event '%s' (model %s): %s", ev->name, s->events.model->name,
			 sys_perf_strerror(e));
}

/* One fd per (event, thread, CPU); the first fd of a CPU owns that CPU's
 * ring, the others write into it (mmap fails with inherit and cpu=-1). */
static int open_one(struct session *s, int e, pid_t pid, int cpu, bool first, char *err,
		    size_t errsz)
{
	struct perf_event_attr a;
	struct ring *rg = &s->rings[cpu];

	attr_setup(&a, &s->events.ev[e], s->target.launched, first);
	int fd = sys_perf_event_open(&a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		open_error(s, &s->events.ev[e], pid, errno, err, errsz);
		return -1;
	}
	if (add_fd(s, fd, e) < 0) {
		sys_close(fd);
		snprintf(err, errsz, "perf ioctl ID: %s", strerror(errno));
		return -1;
	}
	if (!rg->base) {
		if (ring_open(rg, fd, s->ring_pages) < 0) {
			snprintf(err, errsz, "mmap of the sample ring: %s", strerror(errno));
			return -1;
		}
	} else if (sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)rg->fd) < 0) {
		snprintf(err, errsz, "perf ioctl SET_OUTPUT: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int open_events(struct session *s, const pid_t *tids, int ntids, char *err,
		       size_t errsz)
{
	for (int e = 0; e < s->events.n; e++)
		for (int t = 0; t < ntids; t++)
			for (int c = 0; c < s->ncpus; c++)
				if (open_one(s, e, tids[t], c, e == 0,
					     err, errsz) < 0)
					return -1;
	return 0;
}

static int setup_rings(struct session *s, size_t pages)
{
	s->ring_pages = pages ? pages : 64;
	if (s->ring_pages & (s->ring_pages - 1))
		return -1;
	s->rings = calloc((size_t)s->ncpus, sizeof(*s->rings));
	s->pfds = calloc((size_t)s->ncpus, sizeof(*s->pfds));
	return s->rings && s->pfds ? 0 : -1;
}

/* Threads older than the watch had their COMM record before it: name them
 * from /proc, as perf synthesizes COMM records for them. */
static void name_threads(struct session *s, const pid_t *tids, int n)
{
	char path[64], comm[PROFILE_COMM_MAX + 2];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)s->target.pid,
			 (int)tids[i]);
		FILE *f = sys_fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			profile_set_thread_name(s->prof, (uint32_t)tids[i], comm);
		}
		fclose(f);
	}
}

static int attach_threads(struct session *s, char *err, size_t errsz)
{
	pid_t *tids = malloc(MAX_TIDS * sizeof(*tids));
	int n;

	if (!tids) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	n = target_tids(s->target.pid, tids, MAX_TIDS);
	if (n <= 0) {
		snprintf(err, errsz, "no process with pid %d", (int)s->target.pid);
		free(tids);
		return -1;
	}
	int rc = open_events(s, tids, n, err, errsz);
	if (rc == 0)
		name_threads(s, tids, n);
	free(tids);
	return rc;
}

struct session *session_open(const struct session_opts *o, char *err, size_t errsz)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	s->target.go_fd = s->target.err_fd = -1;
	s->ncpus = (int)sys_ncpus();
	if (s->ncpus < 1)
		s->ncpus = 1;
	if (events_parse(o->events ? o->events : "cycles", events_host_model(), &s->events, err,
			 errsz) < 0 ||
	    setup_rings(s, o->ring_pages) < 0)
		goto fail;
	s->prof = profile_new(&s->events);
	if (!s->prof)
		goto fail;
	if (o->argv) {
		if (target_launch(&s->target, o->argv, err, errsz) < 0)
			goto fail;
		pid_t pid = s->target.pid;
		if (open_events(s, &pid, 1, err, errsz) < 0)
			goto fail;
	} else {
		if (target_attach(&s->target, o->pid, err, errsz) < 0)
			goto fail;
		struct space *sp = space_get(s, s->target.pid);
		if (sp)
			symtab_add_proc_maps(sp->st, s->target.pid);
		if (attach_threads(s, err, errsz) < 0)
			goto fail;
	}
	qsort(s->fds, (size_t)s->nfds, sizeof(*s->fds), by_id);
	for (int c = 0; c < s->ncpus; c++)
		s->pfds[c] = (struct pollfd){ s->rings[c].base ? s->rings[c].fd : -1, POLLIN, 0 };
	s->t0 = s->last_snap = (double)now_ns() / 1e9;
	if (o->argv && target_start(&s->target, err, errsz) < 0)
		goto fail;
	return s;
fail:
	session_close(s);
	return NULL;
}

/* --- running ------------------------------------------------------------ */

bool session_poll(struct session *s, int timeout_ms)
{
	int n = sys_poll(s->pfds, (nfds_t)s->ncpus, timeout_ms);

	if (n < 0 && errno != EINTR)
		s->hup = true;
	for (int c = 0; c < s->ncpus; c++) {
		if (s->pfds[c].revents & (POLLHUP | POLLERR))
			s->hup = true;
		ring_drain(&s->rings[c], collect, &s->batch);
	}
	process_batch(s);
	if (target_poll_end(&s->target) || s->hup) {
		/* whatever the kernel wrote before the exit */
		for (int c = 0; c < s->ncpus; c++)
			ring_drain(&s->rings[c], collect, &s->batch);
		process_batch(s);
		return s->target.ended || (s->hup && target_poll_end(&s->target));
	}
	return false;
}

static void read_counts(struct session *s)
{
	double value[EVENTS_MAX] = { 0 }, enabled[EVENTS_MAX] = { 0 }, running[EVENTS_MAX] = { 0 };
	uint64_t buf[4];

	for (int i = 0; i < s->nfds; i++) {
		if (sys_read(s->fds[i].fd, buf, sizeof(buf)) < (ssize_t)(3 * sizeof(uint64_t)))
			continue;
		int e = s->fds[i].ev;
		value[e] += (double)buf[0];
		enabled[e] += (double)buf[1];
		running[e] += (double)buf[2];
	}
	/* A task's per-CPU fds all accrue enabled time while the task lives, but
	 * run only on their own CPU: the time the task was watchable is the
	 * enabled sum over one fd per CPU, i.e. divided by the CPU count. */
	for (int e = 0; e < s->events.n; e++)
		profile_set_count(s->prof, e, value[e], enabled[e] / s->ncpus, running[e]);
}

struct snapshot *session_snapshot(struct session *s)
{
	double now = (double)now_ns() / 1e9;

	read_counts(s);
	struct snapshot *snap = profile_snapshot(s->prof, now - s->t0, now - s->last_snap);
	s->last_snap = now;
	if (!snap)
		return NULL;
	snap->pid = s->target.pid;
	snprintf(snap->command, sizeof(snap->command), "%s", s->target.comm);
	snap->ended = s->target.ended;
	snap->exit_status = s->target.status_known ? s->target.status : -1;
	snprintf(snap->pmu, sizeof(snap->pmu), "%s",
		 pfm_host_pmu() ? pfm_host_pmu() : "none (software events only)");
	snprintf(snap->notice, sizeof(snap->notice), "%s", s->events.notice);
	return snap;
}

void session_set_thread_filter(struct session *s, uint32_t tid)
{
	profile_set_thread_filter(s->prof, tid);
}

struct ip_counts *session_ip_counts(struct session *s, const char *name, const char *module)
{
	return profile_ip_counts(s->prof, name, module);
}

const struct ev_list *session_events(const struct session *s)
{
	return &s->events;
}

void session_close(struct session *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nfds; i++)
		sys_close(s->fds[i].fd);
	if (s->rings)
		for (int c = 0; c < s->ncpus; c++)
			ring_close(&s->rings[c]);
	target_finish(&s->target);
	for (int i = 0; i < s->nspaces; i++)
		symtab_free(s->spaces[i].st);
	free(s->spaces);
	free(s->fds);
	free(s->rings);
	free(s->pfds);
	free(s->batch.data);
	asm_cache_free(s->asmc);
	profile_free(s->prof);
	free(s);
}

/* --- asm ---------------------------------------------------------------- */

/* The address space where ADDR is NAME in MODULE: the target's first. */
static struct symtab *space_of(struct session *s, uint64_t addr, const char *name,
			       const char *module)
{
	struct space *first = space_find(s, s->target.pid);

	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		struct sym_info si;
		if (!sp || !symtab_lookup(sp->st, addr, &si) || !si.module ||
		    strcmp(si.module, module) != 0)
			continue;
		if ((!si.name && strcmp(name, "[unknown]") == 0) || (si.name && !strcmp(si.name, name)))
			return sp->st;
	}
	return NULL;
}

/* A function without samples: looked up by name. */
static const struct asm_func *asm_by_name(struct session *s, const char *name,
					  const char *module, char *err, size_t errsz)
{
	struct space *sp = space_find(s, s->target.pid);
	struct sym_info si;

	if (!sp && s->nspaces > 0)
		sp = &s->spaces[0];
	if (!sp || !symtab_find(sp->st, name, module, &si)) {
		snprintf(err, errsz, "function '%s' not found%s%s", name, module ? " in " : "",
			 module ? module : "");
		return NULL;
	}
	return asm_cache_get(s->asmc, sp->st, si.start, si.start, err, errsz);
}

const struct asm_func *session_asm(struct session *s, const char *name, const char *module,
				   char *err, size_t errsz)
{
	struct ip_counts *ipc = module ? profile_ip_counts(s->prof, name, module) : NULL;
	const struct asm_func *fn = NULL;
	struct symtab *st;

	if (!s->asmc && !(s->asmc = asm_cache_new())) {
		snprintf(err, errsz, "out of memory");
		free(ipc);
		return NULL;
	}
	if (ipc && ipc->n > 0 && (st = space_of(s, ipc->ips[0].ip, name, module)))
		fn = asm_cache_get(s->asmc, st, ipc->ips[0].ip, ipc->ips[ipc->n - 1].ip, err,
				   errsz);
	else if (strcmp(name, "[unknown]") == 0)
		snprintf(err, errsz, "no samples in unknown code of %s", module ? module : "?");
	else
		fn = asm_by_name(s, name, module, err, errsz);
	free(ipc);
	return fn;
}

const struct asm_func *session_asm_at(struct session *s, const struct asm_func *from,
				      uint64_t addr, char *err, size_t errsz)
{
	for (int k = 0; k < s->nspaces; k++) {
		struct sym_info si;
		if (symtab_lookup(s->spaces[k].st, from->start, &si) && si.module == from->module &&
		    symtab_lookup(s->spaces[k].st, addr, &si) && si.name)
			return asm_cache_get(s->asmc, s->spaces[k].st, addr, addr, err, errsz);
	}
	snprintf(err, errsz, "0x%" PRIx64 ": no function there", addr);
	return NULL;
}

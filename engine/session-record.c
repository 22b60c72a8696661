/* cyctop record: a live watch that also writes every record the rings
 * deliver, as delivered, into a perf.data file after the attrs with their
 * ids; at the end the build ids of the binaries that had samples and
 * cyctop's metadata (engine/session-meta.h) complete it.  perf report reads
 * it, and reads what a killed recording flushed. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/perfdata.h"
#include "engine/pfm.h"
#include "engine/session-meta.h"
#include "engine/symbols.h"
#include "engine/sys.h"

#define REC_MAX_BUILD_IDS 1024

struct session_rec {
	struct perfdata_writer *w;
	char *const *cmdline;
	uint64_t records, bytes;
	uint64_t round_records;  /* records when the last FINISHED_ROUND was written */
	bool failed;
	char err[PATH_MAX + 128];
	bool internal_ref;       /* the last attr is the internal reference */
	char path[PATH_MAX];
	struct perfdata_build_id ids[REC_MAX_BUILD_IDS];
	size_t n_ids;
};

static const struct session_sink record_sink;

/* The recording's state: the session's sink_state when it records. */
static struct session_rec *rec_of(const struct session *s)
{
	return s->sink == &record_sink ? s->sink_state : NULL;
}

/* Writes H; a record of the watch's (not a marker) counts in RECORDS. */
static void write_one(struct session_rec *r, const struct perf_event_header *h, bool counted)
{
	if (r->failed)
		return;
	if (perfdata_write(r->w, h) < 0) {
		r->failed = true;
		snprintf(r->err, sizeof(r->err), "writing %s: %s", r->path, strerror(errno));
		return;
	}
	r->records += counted;
	r->bytes += h->size;
}

static void rec_write(struct session *s, const struct perf_event_header *h)
{
	write_one(rec_of(s), h, true);
}

/* Once per poll: every ring was drained, so the round ends as perf record
 * ends it (a FINISHED_ROUND after the round's records: readers order and
 * deliver up to it, rather than queue the whole file), and what the rings
 * gave is on disk, should cyctop be killed. */
static void rec_flush(struct session *s)
{
	struct session_rec *r = rec_of(s);
	static const struct perf_event_header round = { REC_FINISHED_ROUND, 0, sizeof(round) };

	if (r->records > r->round_records) {
		write_one(r, &round, false);
		r->round_records = r->records;
	}
	if (r->failed || perfdata_flush(r->w) == 0)
		return;
	r->failed = true;
	snprintf(r->err, sizeof(r->err), "writing %s: %s", r->path, strerror(errno));
}

/* --- synthesized records (attach): what existed before the watch -------- */

/* The sample_id_all trailer of our attrs (SAMPLE_TYPE): pid/tid, time, id. */
struct sid_trailer {
	uint32_t pid, tid;
	uint64_t time, id;
};

/* BUF holds a record of BODY bytes and room for the trailer. */
static void write_synth(struct session *s, unsigned char *buf, size_t body, pid_t pid,
			pid_t tid)
{
	struct sid_trailer t = { (uint32_t)pid, (uint32_t)tid, 0, s->nfds ? s->fds[0].id : 0 };
	struct perf_event_header h;

	memcpy(buf + body, &t, sizeof(t));
	memcpy(&h, buf, sizeof(h));
	h.size = (uint16_t)(body + sizeof(t));
	memcpy(buf, &h, sizeof(h));
	rec_write(s, (const struct perf_event_header *)(const void *)buf);
}

static void synth_comm(struct session *s, pid_t pid, pid_t tid, const char *comm)
{
	_Alignas(8) unsigned char buf[128] = { 0 };
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 0 };
	uint32_t ids[2] = { (uint32_t)pid, (uint32_t)tid };
	size_t len = strnlen(comm, 16) + 1, body = sizeof(h) + sizeof(ids) + ((len + 7) & ~7u);

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), ids, sizeof(ids));
	memcpy(buf + sizeof(h) + sizeof(ids), comm, len - 1);
	write_synth(s, buf, body, pid, tid);
}

/* One MMAP2 record for an executable line of /proc/PID/maps (MISC 0), or
 * for the kernel (pid -1, PERF_RECORD_MISC_KERNEL). */
static void synth_mmap(struct session *s, pid_t pid, uint16_t misc, uint64_t start,
		       uint64_t end, uint64_t pgoff, const char *path)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
	} m;
	_Alignas(8) unsigned char buf[sizeof(m) + PATH_MAX + 64] = { 0 };
	size_t len = strnlen(path, PATH_MAX - 1) + 1;

	memset(&m, 0, sizeof(m));
	m.h = (struct perf_event_header){ PERF_RECORD_MMAP2, misc, 0 };
	m.pid = m.tid = (uint32_t)pid;
	m.addr = start;
	m.len = end - start;
	m.pgoff = pgoff;
	m.prot = 0x4; /* PROT_EXEC */
	m.flags = 0x2; /* MAP_PRIVATE */
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + sizeof(m), path, len - 1);
	write_synth(s, buf, sizeof(m) + ((len + 7) & ~(size_t)7), pid, pid);
}

static void synth_maps(struct session *s, pid_t pid)
{
	char fname[64], *line = NULL, perms[8], path[PATH_MAX];
	size_t cap = 0;
	FILE *f;

	snprintf(fname, sizeof(fname), "/proc/%d/maps", (int)pid);
	if (!(f = sys_fopen(fname, "r")))
		return;
	while (getline(&line, &cap, f) > 0) {
		uint64_t start, end, off;
		path[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095[^\n]",
			   &start, &end, perms, &off, path) >= 4 &&
		    perms[2] == 'x')
			synth_mmap(s, pid, 0, start, end, off, path[0] ? path : "//anon");
	}
	free(line);
	fclose(f);
}

/* The kernel's text as perf record describes it, so that perf report can
 * place kernel samples: "[kernel.kallsyms]_text" from _text to the end of
 * the address space, pgoff the address of _text (the symbol named after
 * the "]", perf's relocation reference).  As perf (ref_reloc_sym_names in
 * tools/perf/util/event.c): _text, else _stext, which arm64's kallsyms has
 * alone (Linux 6.1).  Without a readable /proc/kallsyms (kptr_restrict)
 * there is nothing to say. */
static void synth_kernel_mmap(struct session *s)
{
	FILE *f = sys_fopen("/proc/kallsyms", "r");
	char line[256], name[128], type;
	uint64_t addr = 0, text = 0, stext = 0;

	if (!f)
		return;
	while (!text && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %127s", &addr, &type, name) == 3) {
			if (strcmp(name, "_text") == 0)
				text = addr;
			else if (strcmp(name, "_stext") == 0 && !stext)
				stext = addr;
		}
	fclose(f);
	if (text)
		synth_mmap(s, -1, PERF_RECORD_MISC_KERNEL, text, UINT64_MAX, text,
			   "[kernel.kallsyms]_text");
	else if (stext)
		synth_mmap(s, -1, PERF_RECORD_MISC_KERNEL, stext, UINT64_MAX, stext,
			   "[kernel.kallsyms]_stext");
}

/* A COMM record for every thread, named as /proc has it now. */
static void synth_comms(struct session *s, pid_t pid, const char *pcomm)
{
	pid_t tids[1024];
	int n = target_tids(pid, tids, 1024);
	char path[64], comm[32];

	synth_comm(s, pid, pid, pcomm);
	for (int i = 0; i < n; i++) {
		FILE *f;
		if (tids[i] == pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tids[i]);
		if (!(f = sys_fopen(path, "r")))
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			synth_comm(s, pid, tids[i], comm);
		}
		fclose(f);
	}
}

/* System-wide: every process there is, as perf record -a synthesizes them
 * (kernel threads have a name and no mappings). */
static void synth_all(struct session *s)
{
	DIR *d = sys_opendir("/proc");
	struct dirent *e;
	char path[64], comm[32];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		FILE *f;
		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		if (!(f = sys_fopen(path, "r")))
			continue;  /* gone meanwhile */
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = '\0';
		fclose(f);
		comm[strcspn(comm, "\n")] = '\0';
		synth_comms(s, (pid_t)pid, comm);
		synth_maps(s, (pid_t)pid);
	}
	closedir(d);
}

static int add_attrs(struct session *s, char *err, size_t errsz);

static void rec_abort(struct session *s);

static const struct session_sink record_sink = {
	.write = rec_write,
	.flush = rec_flush,
	.abort = rec_abort,
};

/* The attrs go first (every fd is open by now): a recording killed before
 * its end then still reads, up to its last flush (rec_flush). */
int session_record_start(struct session *s, const struct session_opts *o, char *err,
			 size_t errsz)
{
	if (!o->record)
		return 0;
	s->sink = &record_sink;
	s->sink_state = calloc(1, sizeof(struct session_rec));
	if (!s->sink_state) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	rec_of(s)->cmdline = o->cmdline;
	snprintf(rec_of(s)->path, sizeof(rec_of(s)->path), "%s", o->record);
	rec_of(s)->w = perfdata_create(o->record, err, errsz);
	if (!rec_of(s)->w)
		return -1;
	if (add_attrs(s, err, errsz) < 0)
		return -1;
	if (perfdata_begin(rec_of(s)->w) < 0) {
		snprintf(err, errsz, "writing %s: %s", rec_of(s)->path, strerror(errno));
		return -1;
	}
	if (!s->user_only)
		synth_kernel_mmap(s);
	if (o->all_cpus || o->cpus) {
		synth_all(s);
	} else if (!o->argv) {  /* attached: its name and mappings predate the watch */
		synth_comms(s, s->target.pid, s->target.comm);
		synth_maps(s, s->target.pid);
	}
	return 0;
}

/* --- finishing ---------------------------------------------------------- */

static void add_build_id(void *arg, const char *path, const uint8_t *id, size_t len)
{
	struct session_rec *r = arg;

	for (size_t i = 0; i < r->n_ids; i++)
		if (strcmp(r->ids[i].path, path) == 0)
			return;
	if (r->n_ids == REC_MAX_BUILD_IDS || len > sizeof(r->ids[0].id))
		return;
	struct perfdata_build_id *b = &r->ids[r->n_ids++];
	b->path = path;
	b->pid = -1;
	b->id_len = len;
	memcpy(b->id, id, len);
}

/* The running kernel's build id, as perf record writes it, so that a reader
 * knows whether its kallsyms fit the file's kernel samples. */
static void add_kernel_build_id(const struct session *s, struct session_rec *r)
{
	uint8_t id[20];
	size_t len = s->user_only ? 0 : symbols_kernel_build_id(NULL, id, sizeof(id));

	if (len == 0)
		return;
	add_build_id(r, "[kernel.kallsyms]", id, len);
	r->ids[r->n_ids - 1].kernel = true;
}

/* The internal reference (multiplexing) goes last: its fds carry the
 * side-band records, so perf must know their ids; cyctop's metadata says
 * it is no event of the user's (session-meta.h). */
static int add_reference_attr(struct session *s, char *err, size_t errsz)
{
	uint64_t *ids = malloc((size_t)(s->nfds ? s->nfds : 1) * sizeof(*ids));
	const struct perf_event_attr *attr = NULL;
	const char *name = NULL;
	size_t n = 0;
	int rc = 0;

	if (!ids) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (int i = 0; i < s->nfds; i++)
		if (s->fds[i].ev == MUX_REFERENCE)
			ids[n++] = s->fds[i].id;
	if (n && s->src->ref_attr)
		attr = s->src->ref_attr(s, &name);
	if (attr && perfdata_add_attr(rec_of(s)->w, attr, ids, n, name) < 0) {
		snprintf(err, errsz, "writing the session: %s", strerror(errno));
		rc = -1;
	}
	rec_of(s)->internal_ref = attr != NULL;
	free(ids);
	return rc;
}

static int add_attrs(struct session *s, char *err, size_t errsz)
{
	uint64_t *ids = malloc((size_t)(s->nfds ? s->nfds : 1) * sizeof(*ids));

	if (!ids) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (int e = 0; e < s->events.n; e++) {
		size_t n = 0;
		for (int i = 0; i < s->nfds; i++)
			if (s->fds[i].ev == e)
				ids[n++] = s->fds[i].id;
		if (n && perfdata_add_attr(rec_of(s)->w, s->src->attr(s, e), ids, n,
					   s->events.ev[e].name) < 0) {
			snprintf(err, errsz, "writing the session: %s", strerror(errno));
			free(ids);
			return -1;
		}
	}
	free(ids);
	return add_reference_attr(s, err, errsz);
}

/* What perf has no field for: counts, coverages, the plan, the exit. */
static void fill_meta(struct session *s, const struct snapshot *snap, struct session_meta *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->model, sizeof(m->model), "%s", s->events.model->name);
	snprintf(m->command, sizeof(m->command), "%s", snap->command);
	m->duration = snap->time;
	m->system_wide = snap->system_wide;
	m->has_exit = snap->ended && snap->exit_status >= 0;
	m->exit_status = snap->exit_status;
	m->n_groups = snap->n_groups;
	m->slice_ms = snap->slice_ms;
	snprintf(m->reference, sizeof(m->reference), "%s", snap->reference);
	m->reference_count = snap->reference_count;
	m->n_events = snap->n_events;
	for (int e = 0; e < snap->n_events; e++)
		m->ev[e] = (struct meta_event){ true, snap->ev[e].group, snap->ev[e].counted,
						snap->ev[e].coverage, snap->ev[e].count };
}

static void cpu_description(char *out, size_t outsz)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *f = sys_fopen("/proc/cpuinfo", "r");

	snprintf(out, outsz, "unknown");
	while (f && getline(&line, &cap, f) > 0)
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			char *v = strchr(line, ':') + 1;
			v += strspn(v, " \t");
			snprintf(out, outsz, "%.*s", (int)strcspn(v, "\n"), v);
			break;
		}
	free(line);
	if (f)
		fclose(f);
}

int session_record_finish(struct session *s, char *err, size_t errsz)
{
	struct session_rec *r = rec_of(s);
	struct perfdata_meta pm;
	struct session_meta sm;
	char blob[8192], cpudesc[128];
	int rc = -1;

	if (!r || !r->w) {
		snprintf(err, errsz, "not recording");
		return -1;
	}
	struct snapshot *snap = session_snapshot(s);
	if (!snap) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (r->failed) {  /* its header covers what was flushed before */
		snprintf(err, errsz, "%s (the file keeps the records up to the last flush)",
			 r->err);
		perfdata_abort(r->w);
		r->w = NULL;
		goto out;
	}
	session_foreach_build_id(s, add_build_id, r);
	add_kernel_build_id(s, r);
	fill_meta(s, snap, &sm);
	sm.internal_reference = r->internal_ref;
	cpu_description(cpudesc, sizeof(cpudesc));
	memset(&pm, 0, sizeof(pm));
	pm.cmdline = (const char *const *)r->cmdline;
	pm.cpudesc = cpudesc;
	pm.pmu = pfm_host_pmu(s->pfm) ? pfm_host_pmu(s->pfm) : "perf";
	pm.nr_cpus = (uint32_t)s->ncpus;
	pm.build_ids = r->ids;
	pm.nr_build_ids = r->n_ids;
	int len = session_meta_format(&sm, blob, sizeof(blob));
	pm.blob = blob;
	pm.blob_len = len > 0 ? (size_t)len + 1 : 0;
	rc = perfdata_finish(r->w, &pm, err, errsz);
	r->w = NULL;
out:
	snapshot_free(snap);
	return rc;
}

bool session_record_failed(const struct session *s)
{
	return rec_of(s) && rec_of(s)->failed;
}

void session_record_stats(const struct session *s, uint64_t *records, uint64_t *bytes)
{
	*records = rec_of(s) ? rec_of(s)->records : 0;
	*bytes = rec_of(s) ? rec_of(s)->bytes : 0;
}

static void rec_abort(struct session *s)
{
	struct session_rec *r = rec_of(s);

	if (!r)
		return;
	if (r->w)
		perfdata_abort(r->w);
	free(r);
	s->sink_state = NULL;
}

/* Sessions read from perf.data files (cyctop -i FILE): every record goes
 * through the same symbolization and profile as a live watch, so every view
 * works on a file as on a live process.
 *
 * Events come from the file's attrs: the event descriptions name them; raw
 * hardware codes (perf record -e r1d100a0) are named back through the model
 * tables (the file's model: cyctop's metadata, perf's cpuid, or --model).
 * Binaries are found by the build ids the file records: under --symfs, at
 * the recorded path, or in a build-id directory; a missing binary leaves its
 * samples "[unknown]" in their module. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "arch/model.h"
#include "engine/ordered.h"
#include "engine/perfdata.h"
#include "engine/session-meta.h"
#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/unwind.h"

#define BUILD_ID_MAX 20
#define BLOB_MAX (64u << 10)

struct session_file {
	struct perfdata *pd;
	char path[PATH_MAX];
	char symfs[PATH_MAX];
	uint64_t first_type;
	bool same_type, sid_all;
	/* each event's record format, made once (file_events) rather than
	 * from its attr for every record decoded */
	struct rec_format fmt[EVENTS_MAX];
	struct rec_format fmt_first;  /* the first attr's: where the others' TIME lies */
	/* each event's attr, and each attr's event (-1: perf's dummy, hidden) */
	int attr_of[EVENTS_MAX];
	int ev_of[EVENTS_MAX];
	int nattrs;                   /* the attrs read (cyctop's reference left out) */
	bool one_attr;                /* the file has one (and no more can come):
				       * every sample is its */
	bool heads_only;              /* every format head_only: no record decoded
				       * writes a sample's fields from READ on */
	/* each event's weighing (file_weigh), found once from its attr: its
	 * samples carry their period (else the attr's), and weigh it */
	bool own_period[EVENTS_MAX], weighs_more[EVENTS_MAX];
	uint64_t attr_period[EVENTS_MAX];
	double periods[EVENTS_MAX];   /* sum of the samples' periods */
	uint64_t nsamples[EVENTS_MAX]; /* how many samples (frequency mode: not their weight) */
	uint64_t t_first, t_last;     /* sample times (ns) */
	pid_t pid;                    /* the first process seen */
	char command[64];
	struct session_meta meta;     /* cyctop's own metadata, if any */
	int stream_fd;                /* a pipe read as it comes (perf record -o - |): its
				       * fd, polled; -1 for a file read whole */
	bool rounds;                  /* a FINISHED_ROUND came: the writer's rounds order
				       * the records, not the pipe's pauses */
	bool ours;                    /* cyctop wrote it (its metadata is there) */
};

/* The file source's state: the session's src_state. */
static struct session_file *file_of(const struct session *s)
{
	return s->src_state;
}

/* --- events ------------------------------------------------------------- */

/* perf's names for its generic events (linux/perf_event.h ids), for files
 * that carry no event descriptions. */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static bool is_raw_syntax(const char *name)
{
	size_t n = strspn(name + 1, "0123456789abcdefABCDEF");

	return name[0] == 'r' && n > 0 && (name[1 + n] == '\0' || name[1 + n] == ':');
}

/* The name an attr's event gets: its description, with raw codes named back
 * through the model's tables. */
/* perf's modifiers of an event named from its attr (evsel__add_modifiers,
 * tools/perf/util/evsel.c): k u h for the contexts counted when some are
 * excluded, p per precise_ip level, then H G for host and guest when the
 * guest's exclusion is not the default (excluded with a modifier above,
 * counted without): cycles:ppH.  Appended to OUT. */
static void add_modifiers(const struct perf_event_attr *a, char *out, size_t outsz)
{
	char mod[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			mod[n++] = 'k';
		if (!a->exclude_user)
			mod[n++] = 'u';
		if (!a->exclude_hv)
			mod[n++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < a->precise_ip && i < 3; i++)
		mod[n++] = 'p';
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			mod[n++] = 'H';
		if (!a->exclude_guest)
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	size_t len = strlen(out);
	if (n && len < outsz)
		snprintf(out + len, outsz - len, ":%s", mod);
}

/* An event's name: its description, else from its attr; MODIFIERS: with
 * perf's modifiers (a pipe-mode stream, as perf report names its events;
 * a file cyctop wrote and did not finish keeps the names it was given). */
static void event_name(const struct perf_event_attr *a, const char *desc,
		       const struct arch_model *model, bool modifiers, char *out, size_t outsz)
{
	char raw[32];

	if (a->type == PERF_TYPE_RAW && (!desc || is_raw_syntax(desc))) {
		snprintf(raw, sizeof(raw), "r%" PRIx64, (uint64_t)a->config);
		const struct arch_event *row = model_lookup(model, raw);
		if (row)  /* a paper name, without its alternate spellings */
			snprintf(out, outsz, "%.*s", (int)strcspn(row->name, "|"), row->name);
		else
			snprintf(out, outsz, "%s", raw);
	} else if (desc && desc[0]) {
		snprintf(out, outsz, "%s", desc);
	} else if (a->type == PERF_TYPE_HARDWARE &&
		   a->config < sizeof(hw_names) / sizeof(hw_names[0])) {
		snprintf(out, outsz, "%s", hw_names[a->config]);
		if (modifiers)  /* named as perf names it: cycles:ppH */
			add_modifiers(a, out, outsz);
	} else if (a->type == PERF_TYPE_SOFTWARE &&
		   a->config < sizeof(sw_names) / sizeof(sw_names[0])) {
		snprintf(out, outsz, "%s", sw_names[a->config]);
		if (modifiers)
			add_modifiers(a, out, outsz);
	} else {
		snprintf(out, outsz, "event-%u:0x%" PRIx64, a->type, (uint64_t)a->config);
	}
}

static const struct arch_model *file_model(const struct session_file *f, struct pfm_host *host,
					   const char *want, char *err, size_t errsz)
{
	const struct arch_model *m = NULL;
	const char *cpuid = perfdata_cpuid(f->pd);

	if (want) {
		m = model_find(want);
		if (!m)
			snprintf(err, errsz, "--model %s: no such model (cyctop list models)", want);
		return m;
	}
	if (f->meta.model[0])
		m = model_find(f->meta.model);
	if (!m && perfdata_pmu(f->pd))
		m = model_find(perfdata_pmu(f->pd));
	if (!m && cpuid)
		m = model_from_cpuid(cpuid);
	return m ? m : events_host_model(host);
}

/* Whether event A of F's samples weigh their own periods, as perf report
 * weighs every sample: in frequency mode (-F) the period varies from sample
 * to sample, and samples that carry PERIOD under a fixed period in the attr
 * (perf inject --itrace, perf record -c N -P) may each stand for another
 * count.  A fixed period without PERIOD (perf record -c), or in cyctop's
 * own files (its samples carry the attr's period), weighs the attr's
 * period: one sample each, the event's SAV. */
static bool weighs_periods(const struct session_file *f, const struct perf_event_attr *a)
{
	return a->freq || (!f->ours && (a->sample_type & PERF_SAMPLE_PERIOD));
}

/* Whether a sample of the event weighs something else than one SAV: its
 * period (weighs_periods), or its counter's delta since the last read (a
 * group read: add_read_values passes it as the period). */
static bool weighs_more(const struct session_file *f, const struct perf_event_attr *a)
{
	return (a->sample_type & PERF_SAMPLE_READ) || weighs_periods(f, a);
}

/* perf's dummy event (PERF_COUNT_SW_DUMMY: dummy:HG, dummy:u), which
 * carries a recording's side-band records and never samples: perf report
 * shows no column for it, nor does cyctop. */
static bool is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/* The events: the attrs but perf's dummies (all of them when nothing else).
 * Returns how many. */
static int file_event_attrs(struct session_file *f, size_t n)
{
	size_t shown = 0;

	for (size_t i = 0; i < n; i++)
		shown += !is_dummy(perfdata_attr(f->pd, i));
	f->nattrs = (int)n;
	int e = 0;
	for (size_t i = 0; i < n; i++) {
		bool hide = shown > 0 && is_dummy(perfdata_attr(f->pd, i));
		f->ev_of[i] = hide ? -1 : e;
		if (!hide)
			f->attr_of[e++] = (int)i;
	}
	return e;
}

/* Records of A and B decode alike. */
static bool same_format(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	struct rec_format fa, fb;

	record_format_of(a, &fa);
	record_format_of(b, &fb);
	return fa.sample_type == fb.sample_type && fa.regs_user == fb.regs_user &&
	       fa.read_format == fb.read_format && fa.regs_intr == fb.regs_intr &&
	       (fa.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) ==
		       (fb.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX);
}

static int file_events(struct session *s, const char *want_model, char *err, size_t errsz)
{
	struct session_file *f = file_of(s);
	size_t n = perfdata_nr_attrs(f->pd);

	if (f->meta.internal_reference && n > 1)
		n--;  /* cyctop's multiplexing reference: no event of the user's */
	if (n == 0 || n > EVENTS_MAX) {
		snprintf(err, errsz, "%s: %zu events (cyctop reads 1 to %d)", f->path, n,
			 EVENTS_MAX);
		return -1;
	}
	s->events.model = file_model(f, s->pfm, want_model, err, errsz);
	if (!s->events.model)
		return -1;
	s->events.n = file_event_attrs(f, n);
	/* a stream may send more attrs later */
	f->one_attr = perfdata_nr_attrs(f->pd) == 1 && !perfdata_is_pipe(f->pd);
	f->same_type = true;
	for (size_t i = 0; i < n; i++)
		f->same_type &= same_format(perfdata_attr(f->pd, i), perfdata_attr(f->pd, 0));
	for (int e = 0; e < s->events.n; e++) {
		size_t i = (size_t)f->attr_of[e];
		const struct perf_event_attr *a = perfdata_attr(f->pd, i);
		struct ev_spec *ev = &s->events.ev[e];
		event_name(a, perfdata_attr_name(f->pd, i), s->events.model,
			   perfdata_is_pipe(f->pd), ev->name, sizeof(ev->name));
		snprintf(ev->pfm, sizeof(ev->pfm), "%s", ev->name);
		ev->attr = *a;
		ev->sav = weighs_periods(f, a) ? 1 : a->sample_period;
		ev->software = a->type == PERF_TYPE_SOFTWARE;
		/* cyctop record's off-cpu: weighed by its switch records */
		ev->offcpu = a->context_switch && strcmp(ev->name, "off-cpu") == 0;
		/* perf record --off-cpu's offcpu-time: the same off-cpu */
		if (session_offcpu_perf_event(a, ev->name))
			snprintf(ev->name, sizeof(ev->name), "off-cpu");
	}
	f->first_type = perfdata_attr(f->pd, 0)->sample_type;
	f->sid_all = perfdata_attr(f->pd, 0)->sample_id_all;
	record_format_of(perfdata_attr(f->pd, 0), &f->fmt_first);
	f->heads_only = true;
	for (int e = 0; e < s->events.n; e++) {
		const struct perf_event_attr *a = &s->events.ev[e].attr;
		record_format_of(a, &f->fmt[e]);
		f->fmt[e].sample_id_all = f->sid_all;
		f->heads_only &= f->fmt[e].head_only;
		/* a counter read by a sample weighs what it counted since its
		 * last read: the session passes that as the period
		 * (add_read_values); a fixed period (perf record -c) is in the
		 * attr, not in the samples */
		f->own_period[e] = a->sample_type & (PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD);
		f->attr_period[e] = a->sample_period;
		f->weighs_more[e] = weighs_more(f, a);
	}
	if (!f->same_type && !(f->first_type & PERF_SAMPLE_IDENTIFIER)) {
		snprintf(err, errsz, "%s: events of different sample types without identifiers",
			 f->path);
		return -1;
	}
	return 0;
}

/* The ids of every attr, sorted, for the per-sample event lookup. */
static int file_ids(struct session *s, char *err, size_t errsz)
{
	for (int e = 0; e < s->events.n; e++) {
		size_t nids;
		const uint64_t *ids = perfdata_attr_ids(file_of(s)->pd,
							(size_t)file_of(s)->attr_of[e], &nids);
		/* a lone event's samples may carry no id (perf record -e E) */
		if (s->events.n == 1 && session_add_id(s, 0, 0) < 0) {
			snprintf(err, errsz, "out of memory");
			return -1;
		}
		for (size_t k = 0; k < nids; k++)
			if (session_add_id(s, e, ids[k]) < 0) {
				snprintf(err, errsz, "out of memory");
				return -1;
			}
	}
	session_sort_ids(s);
	return 0;
}

/* --- binaries ----------------------------------------------------------- */

static const struct perfdata_build_id *recorded_build_id(const struct perfdata *pd,
							 const char *path)
{
	for (size_t i = 0; i < perfdata_nr_build_ids(pd); i++) {
		const struct perfdata_build_id *b = perfdata_build_id(pd, i);
		if (b->path && strcmp(b->path, path) == 0)
			return b;
	}
	return NULL;
}

static bool build_id_matches(int fd, const struct perfdata_build_id *want)
{
	uint8_t id[BUILD_ID_MAX];
	size_t n = symbols_file_build_id(fd, id, sizeof(id));

	return n == want->id_len && memcmp(id, want->id, n) == 0;
}

static int try_open(const char *path, const struct perfdata_build_id *want)
{
	int fd = symbols_open_regular(path);

	if (fd >= 0 && want && !build_id_matches(fd, want)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* PATH as recorded: under --symfs, then as is, then by its build id in
 * perf's cache (~/.debug) and the system's debug directory.  A file whose
 * build id differs from the recorded one is another build: not used. */
static int open_binary(void *arg, const char *path)
{
	const struct session_file *f = arg;
	const struct perfdata_build_id *want = recorded_build_id(f->pd, path);
	char cand[PATH_MAX + 64], hex[2 * BUILD_ID_MAX + 1] = "";
	const char *home = getenv("HOME");
	int fd = -1;

	if (f->symfs[0]) {
		snprintf(cand, sizeof(cand), "%s%s", f->symfs, path);
		fd = try_open(cand, want);
		if (fd < 0) {  /* a flat directory of binaries */
			const char *base = strrchr(path, '/');
			snprintf(cand, sizeof(cand), "%s/%s", f->symfs, base ? base + 1 : path);
			fd = try_open(cand, want);
		}
	}
	if (fd < 0)
		fd = try_open(path, want);
	if (fd >= 0 || !want)
		return fd;
	for (size_t i = 0; i < want->id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", want->id[i]);
	if (home) {
		snprintf(cand, sizeof(cand), "%s/.debug/.build-id/%.2s/%s/elf", home, hex, hex + 2);
		fd = try_open(cand, want);
	}
	if (fd < 0 && home) {  /* perf's cache by path: ~/.debug/PATH/ID/elf, [vdso]/ID/vdso */
		bool vdso = strcmp(path, "[vdso]") == 0;
		snprintf(cand, sizeof(cand), "%s/.debug%s%s/%s/%s", home, path[0] == '/' ? "" : "/",
			 path, hex, vdso ? "vdso" : "elf");
		fd = try_open(cand, want);
	}
	if (fd < 0) {
		snprintf(cand, sizeof(cand), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		fd = try_open(cand, want);
	}
	return fd;
}

static void file_space_init(struct session *s, struct space *sp)
{
	symtab_set_opener(sp->st, open_binary, file_of(s));
}

/* --- records ------------------------------------------------------------ */

/* The file's [kernel.kallsyms] build id, which says whose kallsyms name its
 * kernel samples. */
static size_t file_kernel_build_id(const struct session *s, uint8_t *id, size_t max)
{
	const struct perfdata_build_id *b = recorded_build_id(file_of(s)->pd, "[kernel.kallsyms]");

	if (!b || b->id_len > max)
		return 0;
	memcpy(id, b->id, b->id_len);
	return b->id_len;
}

/* A recording without its kernel's build id (perf record -o - writes
 * none) names its kernel samples from the running kernel's kallsyms only
 * when it was made here: its HEADER_HOSTNAME and HEADER_OSRELEASE are
 * this machine's. */
static bool file_recorded_here(const struct session *s, char *why, size_t whysz)
{
	const struct perfdata *pd = file_of(s)->pd;
	const char *host = perfdata_hostname(pd), *rel = perfdata_osrelease(pd);
	struct utsname u;

	if (uname(&u) < 0) {
		snprintf(why, whysz, "uname: %s", strerror(errno));
		return false;
	}
	if (!host || !rel) {
		snprintf(why, whysz, "the recording names neither its kernel's build id nor its "
			 "host and kernel release");
		return false;
	}
	if (strcmp(host, u.nodename) != 0 || strcmp(rel, u.release) != 0) {
		snprintf(why, whysz, "recorded on %s (kernel %s), not here (%s, kernel %s), and "
			 "without its kernel's build id", host, rel, u.nodename, u.release);
		return false;
	}
	return true;
}

/* The format of record H: a sample's own event's (EV, the stamp's), the
 * first event's for the others (perf makes their trailers alike). */
static int file_decode(const struct session *s, const struct perf_event_header *h, int ev,
		       struct record *r)
{
	const struct session_file *f = file_of(s);
	const struct rec_format *fmt = &f->fmt[0];

	if (!f->same_type && h->type == PERF_RECORD_SAMPLE) {
		if (ev < 0)
			return -1;
		fmt = &f->fmt[ev];
	}
	/* the session's record holds the last this decoded there: with only
	 * head_only formats, the fields past a sample's head are zero */
	if (f->heads_only && r == &s->decoded)
		return record_decode_head(h, fmt, r);
	return record_decode_fmt(h, fmt, r);
}

/* A sample's event is the attr its id names (the one attr of a file of
 * one, as perf's evlist__id2evsel); the file's internal reference, perf's
 * dummy, or an id of no attr, is none of the session's.  Its time is where
 * its format has it: a sample's own event's, the first attr's for the
 * others (perf makes their trailers alike), and none for a sample of no
 * event of the file whose format is not the first's.  The formats know
 * where (record_time_fmt: no bits counted). */
static inline void file_stamp(const struct session *s, const struct perf_event_header *h,
			      struct rec_stamp *st);   /* inline in file_collect: once a record */
static void file_stamp(const struct session *s, const struct perf_event_header *h,
		       struct rec_stamp *st)
{
	const struct session_file *f = file_of(s);
	const struct rec_format *fmt = &f->fmt_first;

	st->ev = -1;
	if (h->type == PERF_RECORD_SAMPLE) {
		int i = f->one_attr ? 0 : perfdata_record_attr(f->pd, h);
		st->ev = i >= 0 && i < f->nattrs ? f->ev_of[i] : -1;
		if (!f->same_type)
			fmt = st->ev >= 0 ? &f->fmt[st->ev] : NULL;
	}
	st->timed = fmt && record_time_fmt(h, fmt, &st->time);
}

static bool file_stack_attr(const struct session *s, int ev, uint64_t *sample_type,
			    uint32_t *stack_user)
{
	const struct perf_event_attr *a = perfdata_attr(file_of(s)->pd,
							(size_t)file_of(s)->attr_of[ev]);

	if (!(a->sample_type & PERF_SAMPLE_STACK_USER))
		return false;
	*sample_type = a->sample_type;
	*stack_user = a->sample_stack_user;
	return true;
}

static const struct perf_event_attr *file_attr(const struct session *s, int ev)
{
	return &s->events.ev[ev].attr;
}

/* perf's default frequency mode (-F) varies the period from sample to
 * sample (a page-fault sample may stand for 1 fault or for 100): such a
 * sample weighs its period (weighs_periods), so shares are perf report's
 * Overhead and the event's "samples" read as events (its sav is 1). */
static uint64_t file_weigh(struct session *s, int ev, const struct rec_sample *smp,
			   uint64_t sample_period)
{
	struct session_file *f = file_of(s);
	uint64_t period = f->own_period[ev] ? sample_period : f->attr_period[ev];

	f->periods[ev] += (double)period;
	f->nsamples[ev]++;
	if (smp->time && (!f->t_first || smp->time < f->t_first))
		f->t_first = smp->time;
	if (smp->time > f->t_last)
		f->t_last = smp->time;
	if (!f->pid)
		f->pid = (pid_t)smp->pid;
	return f->weighs_more[ev] ? period : 1;
}

/* perf's own record types (>= PERF_RECORD_USER_TYPE_START: build ids,
 * attrs in pipe mode...) carry nothing a profile needs, but
 * FINISHED_ROUND (engine/perfdata.h): what came before it may be put in
 * order. */

static bool kernel_record(const struct perf_event_header *h)
{
	return h->type < 64;
}

/* Records held in the file's mapping (file_collect) need no giving back:
 * the mapping lasts until file_close, after the last delivery. */
static void file_release(uint32_t src, uint64_t end, void *arg)
{
	(void)src, (void)end, (void)arg;
}

/* A sample with a copy of the user stack that session_queue would cut
 * (to the bytes the kernel wrote) is queued as it cuts it, the cut copy
 * counting fewer bytes toward the queue's bound; one with nothing to cut
 * (a deep stack, the copy full) is held in place as any record, counting
 * what its copy did: 8 KB copied a sample were a tenth of reading a deep
 * recursion's file. */
static bool copies_stack(const struct session *s, const struct perf_event_header *h, int ev)
{
	uint64_t type;
	uint32_t stack_user;
	size_t at;

	return h->type == PERF_RECORD_SAMPLE && ev >= 0 &&
	       (file_of(s)->fmt[ev].sample_type & PERF_SAMPLE_STACK_USER) &&
	       file_stack_attr(s, ev, &type, &stack_user) &&
	       record_stack_kept(h, type, stack_user, &at) != h->size;
}

/* A record is queued where it lies in the file's mapping when it lasts
 * there, not copied: the copies (memcpy, the chunks' room) were a tenth of
 * reading a file.  Else (dwarf samples, pipes, data.N parts, compressed
 * records) a copy, as session_collect makes. */
static void file_collect(struct session *s, const struct perf_event_header *h)
{
	struct rec_stamp st;

	if (s->sink)
		s->sink->write(s, h);
	file_stamp(s, h, &st);
	if (st.timed && !copies_stack(s, h, st.ev) && perfdata_record_lasts(file_of(s)->pd, h) &&
	    ordered_hold(s->queue, h, st.time, st.ev, 0, 0))
		return;
	session_queue(s, h, &st);
}

/* Reads records until the end (0), an error (-1) or, on a stream, until
 * none is there yet (2). */
static int file_read_some(struct session *s, char *err, size_t errsz)
{
	const struct perf_event_header *h;
	uint64_t off;
	int rc;

	while ((rc = perfdata_next(file_of(s)->pd, &h, &off, err, errsz)) == 1) {
		if (h->type == REC_FINISHED_ROUND) {
			file_of(s)->rounds = true;
			session_round_end(s);
		} else if (kernel_record(h))
			file_collect(s, h);
	}
	return rc;
}

static int file_read(struct session *s, char *err, size_t errsz)
{
	int rc = file_read_some(s, err, errsz);

	session_flush_records(s);
	return rc;
}

/* A recording that never finished (its writer killed) is read to its end,
 * and the user is told, after any notice of the events. */
static void file_unfinished_notice(struct session *s)
{
	struct session_file *f = file_of(s);
	char *n = s->events.notice;
	size_t len = strlen(n);

	if (!perfdata_interrupted(f->pd))
		return;
	if (perfdata_unfinished(f->pd))
		snprintf(n + len, sizeof(s->events.notice) - len,
			 "%s%s: an unfinished recording (data size 0: was it killed?): read to "
			 "its end, %" PRIu64 " bytes of a last record cut", len ? "; " : "",
			 f->path, perfdata_cut_bytes(f->pd));
	else
		snprintf(n + len, sizeof(s->events.notice) - len,
			 "%s%s: an unfinished recording (no features: was it killed?): read to "
			 "its last flush", len ? "; " : "", f->path);
}

/* Totals: cyctop's metadata has the counts (and coverages) of a watch;
 * otherwise a sampled event counted the sum of its periods, and a counting
 * event of a foreign file is not known. */
static void file_totals(struct session *s)
{
	struct session_file *f = file_of(s);

	for (int e = 0; e < s->events.n; e++) {
		const struct meta_event *me = e < f->meta.n_events ? &f->meta.ev[e] : NULL;
		if (me && me->present)
			profile_set_scaled(s->prof, e, me->count, me->coverage, me->counted);
		else
			profile_set_scaled(s->prof, e, f->periods[e], 1.0, f->periods[e] > 0);
	}
	if (f->meta.reference[0])
		profile_set_reference(s->prof, f->meta.reference, f->meta.reference_count);
	if (f->meta.n_groups > 1) {
		int group[EVENTS_MAX];
		for (int e = 0; e < s->events.n; e++)
			group[e] = e < f->meta.n_events ? f->meta.ev[e].group : 0;
		profile_set_plan(s->prof, f->meta.n_groups, group, f->meta.slice_ms);
	}
}

/* Files recorded with stacks (cyctop record -g, perf record -g or
 * --call-graph dwarf) keep them: they are unwound as they are read, dwarf
 * ones with libunwind (loaded here, or a line naming it). */
static int file_callgraph(struct session *s, char *err, size_t errsz)
{
	for (int e = 0; e < s->events.n; e++) {
		uint64_t st = s->events.ev[e].attr.sample_type;
		int mode = (st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER)
				   ? CALL_GRAPH_DWARF
			   : st & PERF_SAMPLE_CALLCHAIN ? CALL_GRAPH_FP
			   /* newer perf's off-cpu: its chain in the raw data */
			   : e == s->offcpu_ev ? CALL_GRAPH_FP
					       : CALL_GRAPH_NONE;
		if (mode == CALL_GRAPH_DWARF && unwind_load(err, errsz) < 0)
			return -1;
		if (session_enable_callgraph(s, mode) < 0) {
			snprintf(err, errsz, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* perf record -a or -C: perf asks for each sample's CPU with a CPU target
 * (evsel__config: target__has_cpu, or --sample-cpu) and enables the events
 * on exec only when it launches the command without a target
 * (target__none).  cyctop record -a says so in its metadata. */
static bool file_system_wide(const struct session *s)
{
	const struct session_file *f = file_of(s);
	const struct perf_event_attr *a = &s->events.ev[0].attr;

	if (f->ours)
		return f->meta.system_wide;
	return (a->sample_type & PERF_SAMPLE_CPU) && !a->enable_on_exec;
}

/* cyctop's metadata, NUL-terminated here whatever the file holds. */
static void file_meta(struct session_file *f)
{
	size_t len = 0;
	const char *blob = perfdata_blob(f->pd, &len);
	char *text = blob && len ? malloc(len < BLOB_MAX ? len + 1 : BLOB_MAX + 1) : NULL;

	f->ours = blob && len;
	if (!text)
		return;
	len = len < BLOB_MAX ? len : BLOB_MAX;
	memcpy(text, blob, len);
	text[len] = '\0';
	session_meta_parse(text, &f->meta);
	free(text);
}

static void file_command(struct session_file *f)
{
	if (f->meta.command[0])
		snprintf(f->command, sizeof(f->command), "%s", f->meta.command);
}

static void file_snapshot(struct session *s, struct snapshot *snap);
static void file_close(struct session *s);

/* A stream's end (or a record it cannot read): what came is added, the
 * user told why it stopped. */
static void stream_end(struct session *s, const char *why)
{
	size_t len = strlen(s->events.notice);

	session_flush_records(s);
	session_late_notice(s);
	if (why)
		snprintf(s->events.notice + len, sizeof(s->events.notice) - len, "%s%s",
			 len ? "; " : "", why);
	else
		file_unfinished_notice(s);
	s->target.ended = true;
	s->target.pid = file_of(s)->pid;
}

/* A pipe, FIFO or socket (not a pipe-mode file on disk) is read as it
 * comes, without waiting for a whole record; 0, or -1 with errno. */
static int open_stream(struct session_file *f)
{
	int fd = perfdata_stream_fd(f->pd);

	if (fd < 0 || !sys_is_stream(fd))
		return 0;
	if (sys_set_nonblock(fd) < 0)
		return -1;
	perfdata_stream_nowait(f->pd, true);
	f->stream_fd = fd;
	return 0;
}

/* A file was read whole when opened; a stream is read as it comes, so the
 * views update while `perf record -o - ... | cyctop -i -` runs. */
static bool file_poll(struct session *s, int timeout_ms)
{
	struct pollfd pfd[2] = { { file_of(s)->stream_fd, POLLIN, 0 }, { s->wake_fd, POLLIN, 0 } };
	char err[256];

	if (file_of(s)->stream_fd < 0 || s->target.ended)
		return true;
	if (sys_poll(pfd, 2, timeout_ms) < 0 && errno != EINTR) {
		stream_end(s, "the stream could not be polled");
		return true;
	}
	int rc = file_read_some(s, err, sizeof(err));
	if (rc == 2) {
		/* A pipe running dry says nothing of the writer's rings: the
		 * proof in ordered.h holds for the writer's FINISHED_ROUNDs
		 * (perf record, cyctop record write them).  A writer without
		 * any (older cyctop) gets a round per dry pipe, as before. */
		if (!file_of(s)->rounds)
			session_round_end(s);
		return false;
	}
	stream_end(s, rc < 0 ? err : NULL);
	return true;
}

static const struct session_source file_source = {
	.recorded = true,
	.stamp = file_stamp,
	.decode = file_decode,
	.stack_attr = file_stack_attr,
	.weigh = file_weigh,
	.attr = file_attr,
	.kernel_build_id = file_kernel_build_id,
	.recorded_here = file_recorded_here,
	.counts = file_totals,
	.space_init = file_space_init,
	.poll = file_poll,
	.snapshot = file_snapshot,
	.close = file_close,
};

struct session *session_open_file(const struct session_file_opts *o, char *err, size_t errsz)
{
	struct session *s = session_alloc(&file_source);

	if (!s || !(s->src_state = calloc(1, sizeof(struct session_file)))) {
		snprintf(err, errsz, "out of memory");
		session_close(s);
		return NULL;
	}
	snprintf(file_of(s)->path, sizeof(file_of(s)->path), "%s", o->path);
	snprintf(file_of(s)->symfs, sizeof(file_of(s)->symfs), "%s", o->symfs ? o->symfs : "");
	file_of(s)->stream_fd = -1;
	ordered_set_release(s->queue, file_release);
	session_spaces_naming(s, &o->naming, o->images);
	file_of(s)->pd = perfdata_open(o->path, err, errsz);
	if (!file_of(s)->pd)
		goto fail;
	if (open_stream(file_of(s)) < 0) {
		snprintf(err, errsz, "%s: %s", o->path, strerror(errno));
		goto fail;
	}
	file_meta(file_of(s));
	if (file_events(s, o->model, err, errsz) < 0 || file_ids(s, err, errsz) < 0)
		goto fail;
	s->prof = profile_new(&s->events);
	if (!s->prof || session_offcpu_setup(s) < 0) {
		snprintf(err, errsz, "out of memory");
		goto fail;
	}
	if (o->processes || file_system_wide(s)) {
		profile_track_processes(s->prof);
		s->system_wide = true;
	}
	if (file_callgraph(s, err, errsz) < 0)
		goto fail;
	if (o->keep_threads && session_keep_threads(s) < 0) {
		snprintf(err, errsz, "out of memory");
		goto fail;
	}
	file_command(file_of(s));
	if (file_of(s)->stream_fd >= 0)
		return s;  /* read as it comes: file_poll */
	if (file_read(s, err, errsz) < 0)
		goto fail;
	file_unfinished_notice(s);
	session_late_notice(s);
	file_totals(s);
	s->target.ended = true;
	s->target.pid = file_of(s)->pid;
	return s;
fail:
	session_close(s);
	return NULL;
}

static void file_snapshot(struct session *s, struct snapshot *snap)
{
	struct session_file *f = file_of(s);
	double span = f->t_last > f->t_first ? (double)(f->t_last - f->t_first) / 1e9 : 0;

	snap->time = f->meta.duration > 0 ? f->meta.duration : span;
	snap->window_seconds = snap->time;
	if (s->system_wide) {  /* the machine, as a live -a names it */
		snap->pid = -1;
		snprintf(snap->command, sizeof(snap->command), "all CPUs");
	} else {
		snap->pid = f->pid;
	}
	if (f->command[0] && !s->system_wide)
		snprintf(snap->command, sizeof(snap->command), "%s", f->command);
	snap->ended = s->target.ended;
	snap->recorded = true;
	if (!snap->command[0]) {  /* foreign files: the target's COMM record */
		const struct snap_thread *th = snapshot_thread(snap, (uint32_t)f->pid);
		if (th)
			snprintf(snap->command, sizeof(snap->command), "%s", th->comm);
	}
	if (!snap->command[0] && perfdata_cmdline(f->pd))   /* no COMM: perf's command line */
		snprintf(snap->command, sizeof(snap->command), "%s", perfdata_cmdline(f->pd));
	snap->exit_status = f->meta.has_exit ? f->meta.exit_status : -1;
	snprintf(snap->pmu, sizeof(snap->pmu), "%s (recorded)", s->events.model->name);
	for (int e = 0; e < snap->n_events && e < s->events.n; e++)
		if (weighs_more(f, &s->events.ev[e].attr))  /* samples weigh more than one */
			snap->ev[e].nsamples = f->nsamples[e];
}

bool session_is_recorded(const struct session *s)
{
	return s->src->recorded;
}

bool session_is_perfdata(const char *path)
{
	char magic[8], data[PATH_MAX];
	struct stat st;

	if (strcmp(path, "-") == 0)   /* a pipe-mode stream (perf record -o -) */
		return true;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {   /* perf record --threads */
		snprintf(data, sizeof(data), "%s/data", path);
		path = data;
	}
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		   (memcmp(magic, "PERFILE2", 8) == 0 || memcmp(magic, "2ELIFREP", 8) == 0);

	if (f)
		fclose(f);
	return yes;
}

static void file_close(struct session *s)
{
	struct session_file *f = file_of(s);

	if (!f)
		return;
	perfdata_close(f->pd);
	free(f);
	s->src_state = NULL;
}

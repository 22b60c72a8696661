/* A session read from a pprof profile (-i FILE.pb.gz): every sample type
 * becomes an event (the type pprof shows by default first, so that the
 * views' shares are `go tool pprof -top`'s), every sample is added to the
 * profile at its leaf and, when samples carry stacks, to the call graph.
 * The records machinery is not used: the profile is complete at open. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "engine/callgraph.h"

#include "lib/hashtab.h"
#include "engine/pprof.h"
#include "engine/session-priv.h"
#include "engine/symbols.h"

struct session_pprof_src {
	double duration;         /* seconds */
	char name[64];           /* the file's base name, as the command */
};

/* The whole file, at most PPROF_BYTES_MAX bytes. */
static uint8_t *read_all(const char *path, size_t *len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n = 0;
	uint8_t *buf = NULL;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {  /* 64 KB at first, then doubled */
			size_t need = n < (1u << 16) ? 1u << 16 : n + 1;
			if (need > PPROF_BYTES_MAX || GROW(buf, need, cap) < 0) {
				snprintf(err, errsz, "%s: %s", path, need > PPROF_BYTES_MAX
					 ? "larger than the pprof size limit" : "out of memory");
				break;
			}
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (!ferror(f)) {
				fclose(f);
				*len = n;
				return buf;
			}
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			break;
		}
	}
	fclose(f);
	free(buf);
	return NULL;
}

/* Events in the order the views use: the default type first. */
static void pprof_events(struct session *s, const struct pprof *p, size_t *type_of)
{
	size_t def = pprof_default_type(p), n = pprof_n_types(p);

	s->events.n = (int)n;
	s->events.model = model_find("perf");
	type_of[0] = def;
	for (size_t t = 0, i = 1; t < n; t++)
		if (t != def)
			type_of[i++] = t;
	for (size_t i = 0; i < n; i++) {
		struct ev_spec *ev = &s->events.ev[i];
		pprof_type_name(p, type_of[i], ev->name, sizeof(ev->name));
		snprintf(ev->asked, sizeof(ev->asked), "%s", ev->name);
		ev->sav = 1;   /* values are what the samples weigh */
		ev->software = true;
	}
}

static bool has_stacks(const struct pprof *p)
{
	struct cg_frame f[2];
	uint64_t addr;

	for (size_t i = 0; i < pprof_n_samples(p); i++)
		if (pprof_frames(p, i, f, 2, &addr) > 1)
			return true;
	return false;
}

/* Adds sample I to the profile (at its leaf) and to the call graph. */
static void add_sample(struct session *s, const struct pprof *p, size_t i,
		       const size_t *type_of, struct cg_frame *frames, double *total)
{
	uint64_t addr;
	size_t n = pprof_frames(p, i, frames, PPROF_FRAMES_MAX, &addr);
	int64_t tid = pprof_label_num(p, i, "tid");

	if (tid < 0)
		tid = pprof_label_num(p, i, "pid");
	if (n == 0) {
		frames[0] = (struct cg_frame){ NULL, NULL };
		n = 1;
	}
	for (int ev = 0; ev < s->events.n; ev++) {
		uint64_t v = (uint64_t)pprof_value(p, i, type_of[ev]);
		if (!v)
			continue;
		total[ev] += (double)v;
		profile_add(s->prof, ev, tid > 0 && tid < UINT32_MAX ? (uint32_t)tid : 0, addr,
			    frames[0].name ? frames[0].name : CG_UNKNOWN,
			    frames[0].module ? frames[0].module : CG_UNKNOWN, v);
		if (s->cg)
			callgraph_add(s->cg, ev, frames, n, false, v);
	}
}

/* Whether the file open on FD is the build BUILD_ID names (hex; "" or not
 * hex: unknown, taken as the same). */
static bool same_build(int fd, const char *build_id)
{
	uint8_t id[64];
	char hex[2 * sizeof(id) + 1];
	size_t n = symbols_file_build_id(fd, id, sizeof(id));

	if (!build_id[0] || strspn(build_id, "0123456789abcdefABCDEF") != strlen(build_id))
		return true;
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * n] = '\0';
	return strcasecmp(hex, build_id) == 0;
}

/* The profile's mappings whose binaries are here (the same build) make an
 * address space, so that the asm view disassembles their functions. */
static void pprof_space(struct session *s, const struct pprof *p)
{
	struct space *sp = NULL;

	for (size_t i = 0; i < pprof_n_mappings(p); i++) {
		struct pprof_mapping m;
		pprof_mapping(p, i, &m);
		if (!m.file[0] || m.limit <= m.start || !symbols_is_file_path(m.file))
			continue;
		int fd = symbols_open_regular(m.file);
		bool same = fd >= 0 && same_build(fd, m.build_id);
		if (fd >= 0)
			close(fd);
		if (same && (sp || (sp = space_get(s, s->target.pid))))
			symtab_add_map(sp->st, m.file, m.start, m.limit, m.offset);
	}
}

static int pprof_fill(struct session *s, const struct pprof *p, char *err, size_t errsz)
{
	size_t type_of[PPROF_TYPES_MAX];
	double total[PPROF_TYPES_MAX] = { 0 };
	struct cg_frame *frames = malloc(PPROF_FRAMES_MAX * sizeof(*frames));

	pprof_events(s, p, type_of);
	s->prof = profile_new(&s->events);
	if (!frames || !s->prof || (has_stacks(p) && !(s->cg = callgraph_new(s->events.n)))) {
		free(frames);
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < pprof_n_samples(p); i++)
		add_sample(s, p, i, type_of, frames, total);
	free(frames);
	/* the values are the events' counts */
	for (int ev = 0; ev < s->events.n; ev++)
		profile_set_scaled(s->prof, ev, total[ev], 1.0, true);
	int64_t pid = pprof_n_samples(p) ? pprof_label_num(p, 0, "pid") : -1;
	s->target.pid = pid > 0 && pid <= INT32_MAX ? (pid_t)pid : 0;
	pprof_space(s, p);
	return 0;
}

static bool pprof_poll(struct session *s, int timeout_ms)
{
	(void)s, (void)timeout_ms;
	return true;
}

static void pprof_snapshot(struct session *s, struct snapshot *snap)
{
	const struct session_pprof_src *src = s->src_state;

	snap->time = snap->window_seconds = src->duration;
	snprintf(snap->command, sizeof(snap->command), "%s", src->name);
	snprintf(snap->pmu, sizeof(snap->pmu), "pprof profile");
	snap->pid = s->target.pid;
	snap->ended = true;
	snap->recorded = true;
	snap->exit_status = -1;
}

static void pprof_close(struct session *s)
{
	free(s->src_state);
	s->src_state = NULL;
}

static const struct session_source pprof_source = {
	.recorded = true,
	.poll = pprof_poll,
	.snapshot = pprof_snapshot,
	.close = pprof_close,
};

bool session_is_pprof(const char *path)
{
	unsigned char magic[2];
	FILE *f = fopen(path, "rb");
	bool yes = f && fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;

	if (f)
		fclose(f);
	return yes;
}

struct session *session_open_pprof(const char *path, char *err, size_t errsz)
{
	char why[400];
	size_t len = 0;
	uint8_t *data = read_all(path, &len, err, errsz);
	struct pprof *p = data ? pprof_parse(data, len, why, sizeof(why)) : NULL;
	struct session *s = p ? session_alloc(&pprof_source) : NULL;
	struct session_pprof_src *src = s ? calloc(1, sizeof(*src)) : NULL;

	free(data);
	if (data && !p)
		snprintf(err, errsz, "%s: %s", path, why);
	else if (p && !src)
		snprintf(err, errsz, "out of memory");
	if (!src || pprof_fill(s, p, why, sizeof(why)) < 0) {
		if (src)
			snprintf(err, errsz, "%s: %s", path, why);
		free(src);
		session_close(s);
		pprof_free(p);
		return NULL;
	}
	s->src_state = src;
	src->duration = (double)pprof_duration_nanos(p) / 1e9;
	const char *base = strrchr(path, '/');
	snprintf(src->name, sizeof(src->name), "%s", base ? base + 1 : path);
	s->target.ended = true;
	pprof_free(p);
	return s;
}

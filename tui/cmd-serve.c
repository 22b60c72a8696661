/* cyctop serve: an agent for the engines a fleet runs.  The main thread
 * collects through a live session as the view does and hands immutable
 * results over under a short lock; libmicrohttpd's threads (engine/http.c)
 * serve /metrics (engine/metrics.c's exposition) and
 * /debug/pprof/profile?seconds=N (engine/pprof-write.c over a window of
 * the samples), and never make collection wait. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "arch/counts.h"
#include "arch/penalty.h"
#include "arch/tree.h"
#include "engine/cgroup.h"
#include "engine/http.h"
#include "engine/metrics.h"
#include "engine/pprof.h"
#include "engine/session.h"
#include "lib/hashtab.h"
#include "tui/baseline.h"
#include "tui/cmd.h"
#include "tui/opt.h"
#include "tui/ui.h"

#define SERVE_LISTEN_DEFAULT "127.0.0.1:9464"
#define SERVE_SECONDS_DEFAULT 30
#define SERVE_SECONDS_MAX 300
#define SERVE_WINDOWS_MAX 8     /* profile windows collected at once */
#define SERVE_POLL_MS 100       /* a window's edges are this exact */
#define SERVE_CGROUP_CACHE 65536

struct serve_opts {
	struct session_opts s;
	const char *listen;
	const char *cgroup;
	int top;
	double delay;
	const char *token_file, *tls_cert, *tls_key;
};

/* A profile of the next SECONDS: requests asking for the same length in the
 * same round share one. */
struct window {
	struct window *next;
	int seconds;
	int refs;                  /* requests waiting on it */
	bool started, done, failed;
	double start;              /* monotonic seconds */
	int64_t start_ns;          /* wall clock, the profile's time */
	struct pprof_acc *acc;     /* the collection thread's alone */
	char *body;
	size_t len;
};

/* A published metrics view, freed by whoever drops its last reference. */
struct shared_view {
	struct metrics_view *v;
	int refs;
};

struct cgroup_row {
	uint32_t pid;
	char name[CGROUP_NAME_MAX];
};

struct serve {
	struct session *s;
	struct metrics *m;
	pthread_mutex_t mu;        /* guards what follows up to the cache */
	pthread_cond_t cv;
	struct shared_view *view;
	struct window *windows;
	bool stopping;
	char index[1024];
	/* the collection thread's own */
	struct cgroup_row *cg;
	size_t ncg, cgcap;
	struct hashtab cg_index;
	const char *watched_cgroup;  /* --cgroup: every process's label */
};

/* --- cgroups, looked up at first sight ------------------------------------ */

static bool cg_eq(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct serve *)ctx)->cg[idx].pid == *(const uint32_t *)key;
}

static const char *cgroup_of(void *arg, uint32_t pid)
{
	struct serve *sv = arg;
	uint64_t h = hash_mix(pid);
	uint32_t i = hashtab_find(&sv->cg_index, h, &pid, cg_eq, sv);
	char path[CGROUP_PATH_MAX];

	if (i != HASHTAB_NONE)
		return sv->cg[i].name;
	if (sv->ncg >= SERVE_CGROUP_CACHE) {     /* bounded: start again */
		sv->ncg = 0;
		hashtab_clear(&sv->cg_index);
	}
	if (GROW(sv->cg, sv->ncg + 1, sv->cgcap) < 0 ||
	    hashtab_add(&sv->cg_index, h, (uint32_t)sv->ncg) < 0)
		return NULL;
	struct cgroup_row *r = &sv->cg[sv->ncg++];
	r->pid = pid;
	if (sv->watched_cgroup)
		cgroup_name(sv->watched_cgroup, r->name, sizeof(r->name));
	else if (pid && cgroup_of_pid((pid_t)pid, path, sizeof(path)) == 0)
		cgroup_name(path, r->name, sizeof(r->name));
	else
		snprintf(r->name, sizeof(r->name), "unknown");
	return r->name;
}

/* --- metrics: updated here, read by the HTTP threads ---------------------- */

/* DEF evaluated on C, its valued nodes appended to NODES (*N of them, at
 * most METRICS_NODES_MAX more) labelled CGROUP. */
static void eval_nodes(const struct tree_def *def, const struct counts *c,
		       const struct tree_ctx *ctx, struct tree_result *r, const char *cgroup,
		       struct metrics_node *nodes, size_t *n)
{
	size_t end = *n + METRICS_NODES_MAX;

	tree_eval(def, c, ctx, r);
	for (int i = 0; i < def->n_nodes && *n < end; i++) {
		if (r->v[i].state != NODE_VALUE || !isfinite(r->v[i].value))
			continue;
		struct metrics_node *d = &nodes[(*n)++];
		snprintf(d->cgroup, sizeof(d->cgroup), "%s", cgroup);
		snprintf(d->id, sizeof(d->id), "%s", def->nodes[i].id);
		snprintf(d->unit, sizeof(d->unit), "%s", unit_name(def->nodes[i].unit));
		d->value = r->v[i].value;
	}
}

/* Each of cgroups CG's tree, on the events their samples estimate (the
 * counters counted beside them and the wall tree's are the whole target's,
 * not theirs: the nodes that need them are left out) and the collection's
 * duration. */
static void cgroup_nodes(const struct snapshot *snap, const struct metrics_cgroup *cg,
			 size_t ncg, const struct tree_def *def, const struct tree_ctx *ctx,
			 struct tree_result *r, struct metrics_node *nodes, size_t *n)
{
	struct counts c;

	for (size_t i = 0; i < ncg; i++) {
		counts_init(&c);
		for (int e = 0; e < snap->n_events; e++)
			counts_add(&c, snap->ev[e].name, cg[i].count[e], 0);
		counts_add(&c, "duration_time", snap->time * 1e9, 0);
		eval_nodes(def, &c, ctx, r, cg[i].name, nodes, n);
		counts_free(&c);
	}
}

/* The host method's tree over the snapshot's counts, as gauges: the whole
 * target's (cgroup "all", or the watched cgroup's), then, unless one cgroup
 * is watched, the busiest cgroups'. */
static void tree_gauges(struct serve *sv, const struct snapshot *snap)
{
	const struct arch_model *model = session_events(sv->s)->model;
	struct counts c;
	struct penalties pen;
	struct metrics_cgroup *cg = malloc(METRICS_CGROUPS_MAX * sizeof(*cg));
	size_t ncg = cg && !sv->watched_cgroup ? metrics_top_cgroups(sv->m, cg) : 0;
	struct tree_result *r = malloc(sizeof(*r));
	struct metrics_node *nodes = malloc((1 + ncg) * METRICS_NODES_MAX * sizeof(*nodes));
	size_t n = 0;

	if (!cg || !r || !nodes || !model)
		goto out;
	baseline_snapshot_counts(snap, &c);
	penalties_default(&pen, 0);
	struct tree_ctx ctx = { .model = model, .pen = &pen };
	const struct tree_def *def = tree_def_pick(model->tree, model, &c);
	const char *whole = sv->watched_cgroup ? cgroup_of(sv, 0) : "all";
	eval_nodes(def, &c, &ctx, r, whole ? whole : "all", nodes, &n);
	counts_free(&c);
	cgroup_nodes(snap, cg, ncg, def, &ctx, r, nodes, &n);
	metrics_set_nodes(sv->m, def->name, nodes, n);
out:
	free(nodes);
	free(r);
	free(cg);
}

static void view_drop(struct serve *sv, struct shared_view *v)
{
	pthread_mutex_lock(&sv->mu);
	bool last = v && --v->refs == 0;
	pthread_mutex_unlock(&sv->mu);
	if (last) {
		metrics_view_free(v->v);
		free(v);
	}
}

static void publish(struct serve *sv, const struct snapshot *snap)
{
	if (metrics_update(sv->m, snap, cgroup_of, sv) < 0)
		return;
	tree_gauges(sv, snap);
	struct shared_view *v = malloc(sizeof(*v));
	if (!v || !(v->v = metrics_view(sv->m))) {
		free(v);
		return;
	}
	v->refs = 1;
	pthread_mutex_lock(&sv->mu);
	struct shared_view *old = sv->view;
	sv->view = v;
	pthread_mutex_unlock(&sv->mu);
	view_drop(sv, old);
}

/* --- profile windows -------------------------------------------------------- */

static double wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Writes window W's profile into its body (the collection thread). */
static void window_write(struct serve *sv, struct window *w, const struct snapshot *snap)
{
	char err[256];
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pprof_write_opts o = { .start_ns = w->start_ns, .acc = w->acc,
				      .duration_ns = (int64_t)w->seconds * 1000000000,
				      .cgroup = cgroup_of, .cgroup_arg = sv,
				      .no_lines = true };
	int rc = f && snap ? pprof_write(sv->s, snap, &o, f, err, sizeof(err)) : -1;

	if (f)
		fclose(f);
	if (rc < 0)
		cmd_error("serve: profile: %s", f ? err : strerror(errno));
	pprof_acc_free(w->acc);
	w->acc = NULL;
	pthread_mutex_lock(&sv->mu);
	w->failed = rc < 0;
	w->body = rc < 0 ? (free(buf), NULL) : buf;
	w->len = rc < 0 ? 0 : len;
	w->done = true;
	pthread_cond_broadcast(&sv->cv);
	pthread_mutex_unlock(&sv->mu);
}

static void window_free(struct window *w)
{
	pprof_acc_free(w->acc);
	free(w->body);
	free(w);
}

/* One round of the windows: the samples since the last round go to every
 * window begun before it; new windows begin; ended ones are written; the
 * ones nobody waits for any more go. */
static void windows_round(struct serve *sv, double now)
{
	struct pprof_acc *seg = session_pprof_take(sv->s);
	struct window *ended[SERVE_WINDOWS_MAX];
	int nended = 0;

	pthread_mutex_lock(&sv->mu);
	for (struct window **p = &sv->windows; *p;) {
		struct window *w = *p;
		if (w->done && w->refs == 0) {
			*p = w->next;
			window_free(w);
			continue;
		}
		if (w->started && !w->done && seg && w->acc)
			pprof_acc_merge(w->acc, seg);
		if (!w->started) {
			w->started = true;
			w->start = now;
			w->start_ns = (int64_t)wall_ns();
			w->acc = pprof_acc_new(session_events(sv->s)->n);
		} else if (!w->done && now >= w->start + w->seconds && nended < SERVE_WINDOWS_MAX) {
			ended[nended++] = w;
		}
		p = &w->next;
	}
	pthread_mutex_unlock(&sv->mu);
	pprof_acc_free(seg);
	if (nended) {
		struct snapshot *snap = session_snapshot(sv->s);
		for (int i = 0; i < nended; i++)
			window_write(sv, ended[i], snap);
		snapshot_free(snap);
	}
}

/* --- the HTTP side (libmicrohttpd's threads) ------------------------------- */

struct wait_arg {
	struct serve *sv;
	struct window *w;
};

/* A profile request waits here, in its connection's thread. */
static int window_wait(void *arg, char **body, size_t *len)
{
	struct wait_arg *a = arg;
	struct serve *sv = a->sv;
	int rc = -1;

	pthread_mutex_lock(&sv->mu);
	while (!a->w->done && !sv->stopping)
		pthread_cond_wait(&sv->cv, &sv->mu);
	if (a->w->done && !a->w->failed && (*body = malloc(a->w->len ? a->w->len : 1))) {
		memcpy(*body, a->w->body, a->w->len);
		*len = a->w->len;
		rc = 0;
	}
	pthread_mutex_unlock(&sv->mu);
	return rc;
}

static void window_release(void *arg)
{
	struct wait_arg *a = arg;

	pthread_mutex_lock(&a->sv->mu);
	a->w->refs--;
	pthread_mutex_unlock(&a->sv->mu);
	free(a);
}

static void reply_text(struct http_reply *r, int status, const char *type, const char *fmt,
		       ...) __attribute__((format(printf, 4, 5)));
static void reply_text(struct http_reply *r, int status, const char *type, const char *fmt,
		       ...)
{
	va_list ap;

	va_start(ap, fmt);
	r->status = vasprintf(&r->body, fmt, ap) < 0 ? 500 : status;
	va_end(ap);
	if (r->status == 500)
		r->body = NULL;
	r->len = r->body ? strlen(r->body) : 0;
	r->type = type;
}

/* The window a request for SECONDS joins (one not begun yet), or a new one;
 * NULL when SERVE_WINDOWS_MAX are under way. */
static struct window *window_join(struct serve *sv, int seconds)
{
	int n = 0;

	for (struct window *w = sv->windows; w; w = w->next, n++)
		if (!w->started && w->seconds == seconds) {
			w->refs++;
			return w;
		}
	struct window *w = n < SERVE_WINDOWS_MAX ? calloc(1, sizeof(*w)) : NULL;
	if (w) {
		w->seconds = seconds;
		w->refs = 1;
		w->next = sv->windows;
		sv->windows = w;
	}
	return w;
}

static void serve_profile(struct serve *sv, const struct http_request *req, struct http_reply *r)
{
	const char *q = http_query(req, "seconds");
	char *end;
	long sec = q ? strtol(q, &end, 10) : SERVE_SECONDS_DEFAULT;

	if (q && (!*q || *end || sec < 1 || sec > SERVE_SECONDS_MAX)) {
		reply_text(r, 400, "text/plain", "seconds: want a whole number from 1 to %d\n",
			   SERVE_SECONDS_MAX);
		return;
	}
	struct wait_arg *a = malloc(sizeof(*a));
	pthread_mutex_lock(&sv->mu);
	struct window *w = a && !sv->stopping ? window_join(sv, (int)sec) : NULL;
	pthread_mutex_unlock(&sv->mu);
	if (!w) {
		free(a);
		reply_text(r, 503, "text/plain", "too many profiles under way\n");
		return;
	}
	*a = (struct wait_arg){ sv, w };
	r->status = 200;
	r->type = "application/octet-stream";
	r->disposition = "attachment; filename=\"profile\"";
	r->wait = window_wait;
	r->done = window_release;
	r->arg = a;
}

static void serve_metrics(struct serve *sv, const struct http_request *req,
			  struct http_reply *r)
{
	bool om = strstr(req->accept, "application/openmetrics-text") != NULL;

	pthread_mutex_lock(&sv->mu);
	struct shared_view *v = sv->view;
	if (v)
		v->refs++;
	pthread_mutex_unlock(&sv->mu);
	if (!v) {
		reply_text(r, 503, "text/plain", "no metrics yet: collection is starting\n");
		return;
	}
	FILE *f = open_memstream(&r->body, &r->len);
	if (!f || metrics_write(v->v, om, f) < 0)
		r->status = 500;
	else
		r->status = 200;
	if (f)
		fclose(f);
	view_drop(sv, v);
	r->type = metrics_content_type(om);
}

/* make_index writes it once the session is open (under the lock). */
static void serve_index(struct serve *sv, struct http_reply *r)
{
	pthread_mutex_lock(&sv->mu);
	if (sv->index[0])
		reply_text(r, 200, "text/html; charset=utf-8", "%s", sv->index);
	else
		reply_text(r, 503, "text/plain", "starting: the session is not open yet\n");
	pthread_mutex_unlock(&sv->mu);
}

static void handle(void *arg, const struct http_request *req, struct http_reply *r)
{
	struct serve *sv = arg;

	if (strcmp(req->path, "/metrics") == 0)
		serve_metrics(sv, req, r);
	else if (strcmp(req->path, "/debug/pprof/profile") == 0)
		serve_profile(sv, req, r);
	else if (strcmp(req->path, "/healthz") == 0)
		reply_text(r, 200, "text/plain", "ok\n");
	else if (strcmp(req->path, "/") == 0)
		serve_index(sv, r);
	else
		reply_text(r, 404, "text/plain", "not found: try /\n");
}

/* --- the command ---------------------------------------------------------- */

static const char serve_usage[] =
	"usage: cyctop serve [--listen HOST:PORT] [-a [-C LIST] | -p PID | --cgroup PATH |\n"
	"                    -- COMMAND [ARGS...]] [-e LIST] [-g] [--top N]";

static const char serve_prose[] =
	"Serves GET /metrics (Prometheus; OpenMetrics when asked by Accept),\n"
	"/debug/pprof/profile?seconds=N (a gzipped pprof of the next N seconds),\n"
	"/healthz and / until SIGTERM or ^C.  Without a target: -a.\n";

static int parse_args(int argc, char **argv, struct serve_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->listen = SERVE_LISTEN_DEFAULT;
	o->top = METRICS_TOP_DEFAULT;
	o->delay = 1;
	const struct opt opts[] = {
		OPT_STRING(0, "listen", &o->listen, "HOST:PORT",
			   "where to serve (default " SERVE_LISTEN_DEFAULT ": this machine\n"
			   "only; port 0: any free port, said on stderr)"),
		OPT_FLAG('a', "all-cpus", &o->s.all_cpus,
			 "every process on every CPU (the default without a target)"),
		OPT_STRING('C', "cpu", &o->s.cpus, "LIST", "these CPUs only (0,2-3; implies -a)"),
		OPT_PID(&o->s.pid, "watch a running process instead"),
		OPT_STRING(0, "cgroup", &o->cgroup, "PATH",
			   "watch the processes of one cgroup v2 (a directory of its\n"
			   "hierarchy, or a path relative to its root)"),
		OPT_EVENTS(&o->s.events, "events as for cyctop (default: cycles, or cpu-clock)"),
		OPT_G(&o->s, "profiles with call stacks: --call-graph dwarf"),
		OPT_CALL_GRAPH(&o->s, "dwarf, dwarf,SIZE or fp, as cyctop's"),
		OPT_INT(0, "top", &o->top, 1, METRICS_TOP_MAX, "N",
			"metrics: series for the N busiest commands, the rest as\n"
			"comm=\"other\" (default 10)"),
		OPT_DELAY(&o->delay, "how often the metrics are brought up to date (default 1)"),
		OPT_MMAP_PAGES(&o->s.ring_pages, "data pages of each CPU's ring (default 64)"),
		OPT_STRING(0, "auth-token-file", &o->token_file, "FILE",
			   "ask every request for \"Authorization: Bearer TOKEN\",\n"
			   "TOKEN the file's first line"),
		OPT_STRING(0, "tls-cert", &o->tls_cert, "FILE", "serve HTTPS with this PEM certificate"),
		OPT_STRING(0, "tls-key", &o->tls_key, "FILE", "and this PEM private key"),
		OPT_END,
	};
	const struct opt_cmd cmd = { serve_usage, opts, serve_prose, true };

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return -1;
	if (first < argc)
		o->s.argv = argv + first;
	int targets = !!o->s.argv + !!o->s.pid + !!o->cgroup + (o->s.all_cpus || o->s.cpus);
	if (targets > 1) {
		cmd_error("serve: give one of -a, -p PID, --cgroup PATH or -- COMMAND");
		return -1;
	}
	if (!!o->tls_cert != !!o->tls_key) {
		cmd_error("serve: --tls-cert and --tls-key go together");
		return -1;
	}
	if (!targets)
		o->s.all_cpus = true;
	return 0;
}

/* FILE's text into *OUT (NUL-terminated; at most 1 MB).  -1 with one line. */
static int slurp(const char *opt, const char *path, char **out)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f) {
		cmd_error("serve: %s %s: %s", opt, path, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 20);
	len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	bool bad = !buf || ferror(f) || len == 0;
	fclose(f);
	if (bad) {
		cmd_error("serve: %s %s: %s", opt, path, buf ? "empty or unreadable" : "out of memory");
		free(buf);
		return -1;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

/* The bearer token: the file's first line, not empty. */
static int read_token(const char *path, char **token)
{
	if (slurp("--auth-token-file", path, token) < 0)
		return -1;
	(*token)[strcspn(*token, "\r\n")] = '\0';
	if (!**token) {
		cmd_error("serve: --auth-token-file %s: the first line is empty", path);
		free(*token);
		*token = NULL;
		return -1;
	}
	return 0;
}

static void make_index(struct serve *sv, const char *listen)
{
	const struct ev_list *ev = session_events(sv->s);
	struct snapshot *snap = session_snapshot(sv->s);
	const struct arch_model *m = ev->model;
	const struct tree_def *def = m ? tree_def_get(m->tree) : NULL;
	char index[sizeof(sv->index)];

	snprintf(index, sizeof(index),
		 "<!DOCTYPE html>\n<html><head><title>cyctop serve</title></head><body>\n"
		 "<h1>cyctop serve</h1>\n<p>host: %s; model %s; method %s (%s)</p>\n<ul>\n"
		 "<li><a href=\"/metrics\">/metrics</a>: Prometheus text format (OpenMetrics by "
		 "Accept)</li>\n<li><a href=\"/debug/pprof/profile?seconds=%d\">"
		 "/debug/pprof/profile?seconds=N</a>: a gzipped pprof of the next N seconds</li>\n"
		 "<li><a href=\"/healthz\">/healthz</a></li>\n</ul>\n</body></html>\n",
		 snap ? snap->pmu : "?", m ? m->name : "?", def ? def->name : "none",
		 def ? def->title : "", SERVE_SECONDS_DEFAULT);
	(void)listen;
	snapshot_free(snap);
	pthread_mutex_lock(&sv->mu);
	memcpy(sv->index, index, sizeof(index));
	pthread_mutex_unlock(&sv->mu);
}

/* Collects until a signal (or the launched command's end). */
static void collect(struct serve *sv, double delay)
{
	double next = cmd_now_s() + delay;
	bool ended = false;

	while (!ui_pending_signal() && !ended) {
		ended = session_poll(sv->s, SERVE_POLL_MS);
		double now = cmd_now_s();
		windows_round(sv, now);
		if (now >= next || ended) {
			struct snapshot *snap = session_snapshot(sv->s);
			if (snap)
				publish(sv, snap);
			snapshot_free(snap);
			next = now + delay;
		}
	}
}

static void serve_free(struct serve *sv)
{
	while (sv->windows) {
		struct window *w = sv->windows;
		sv->windows = w->next;
		window_free(w);
	}
	if (sv->view) {
		metrics_view_free(sv->view->v);
		free(sv->view);
	}
	metrics_free(sv->m);
	free(sv->cg);
	hashtab_free(&sv->cg_index);
	pthread_mutex_destroy(&sv->mu);
	pthread_cond_destroy(&sv->cv);
}

/* The waiting profile requests end, then the HTTP threads. */
static void stop_http(struct serve *sv, struct http *h)
{
	pthread_mutex_lock(&sv->mu);
	sv->stopping = true;
	pthread_cond_broadcast(&sv->cv);
	pthread_mutex_unlock(&sv->mu);
	http_stop(h);
}

/* The session, collected until a signal (or the launched command's end);
 * the exit status. */
static int serve_session(struct serve_opts *o, struct serve *sv)
{
	char err[512];

	if (!(sv->s = session_open(&o->s, err, sizeof(err)))) {
		cmd_error("serve: %s", err);
		return 1;
	}
	if (session_events(sv->s)->notice[0])
		cmd_error("%s", session_events(sv->s)->notice);
	if (session_keep_threads(sv->s) < 0 || !(sv->m = metrics_new(o->top))) {
		cmd_error("serve: out of memory");
		return 1;
	}
	make_index(sv, o->listen);
	collect(sv, o->delay);
	struct snapshot *snap = session_snapshot(sv->s);
	int rc = snap ? cmd_watch_status(o->s.argv != NULL, snap->ended, snap->exit_status) : 1;
	snapshot_free(snap);
	return rc;
}

/* Listening comes first: a bad --listen is one line before any session
 * opens (a command would start and be stopped); until the first round
 * /metrics answers 503 and / a placeholder. */
static int serve_run(struct serve_opts *o, struct serve *sv, struct http_opts *ho)
{
	char err[512];

	ho->handler = handle;
	ho->arg = sv;
	struct http *h = http_start(ho, err, sizeof(err));
	if (!h) {
		cmd_error("serve: %s", err);
		return 1;
	}
	/* the port the kernel gave (--listen HOST:0 asks for any): the URL
	 * printed is the one to copy */
	const char *colon = strrchr(o->listen, ':');
	int host_len = colon ? (int)(colon - o->listen) : (int)strlen(o->listen);
	fprintf(stderr, "cyctop serve: listening on %s://%.*s:%d\n",
		ho->tls_cert ? "https" : "http", host_len, o->listen, http_port(h));
	int rc = serve_session(o, sv);
	stop_http(sv, h);
	if (sv->s)
		session_close(sv->s);
	return rc;
}

static int serve_main(int argc, char **argv)
{
	struct serve_opts o;
	struct http_opts ho = { 0 };
	char *token = NULL, *cert = NULL, *key = NULL;
	char cgdir[PATH_MAX], cgrel[PATH_MAX], err[PATH_MAX + 64];
	struct serve sv = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

	if (parse_args(argc, argv, &o) < 0)
		return EXIT_USAGE;
	if (o.cgroup && cgroup_resolve(o.cgroup, cgdir, sizeof(cgdir), cgrel, sizeof(cgrel), err,
				       sizeof(err)) < 0) {
		cmd_error("serve: --%s", err);
		return 1;
	}
	if ((o.token_file && read_token(o.token_file, &token) < 0) ||
	    (o.tls_cert && (slurp("--tls-cert", o.tls_cert, &cert) < 0 ||
			    slurp("--tls-key", o.tls_key, &key) < 0))) {
		free(token);
		free(cert);
		free(key);
		return 1;
	}
	if (o.cgroup) {
		o.s.cgroup = cgdir;
		sv.watched_cgroup = cgrel;
	}
	ho = (struct http_opts){ .listen = o.listen, .token = token, .tls_cert = cert,
				 .tls_key = key };
	ui_install_signals();
	int rc = serve_run(&o, &sv, &ho);
	serve_free(&sv);
	free(token);
	free(cert);
	free(key);
	return rc;
}

const struct cmd_entry cmd_serve_entry = {
	"serve",
	"serve [--listen HOST:PORT] [-a | -p PID | --cgroup PATH | -- COMMAND] [-e LIST] [-g]\n"
	"        [--top N]   an agent: /metrics (Prometheus), /debug/pprof/profile",
	serve_main,
};

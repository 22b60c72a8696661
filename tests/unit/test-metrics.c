/* engine/metrics (cyctop serve's exposition) on hand-made snapshots: the
 * text format and OpenMetrics line by line, label values escaped, counters
 * that never go back when a process ends or a pid comes round again, the
 * top N by the first event with the rest as comm="other", and the bounds;
 * engine/cgroup's short names and --cgroup's paths (behind a fake mounts
 * file and a fake hierarchy). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/cgroup.h"
#include "engine/metrics.h"
#include "engine/sys.h"

/* The exposition of V as one string (free()). */
static char *expo(const struct metrics_view *v, bool om)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(metrics_write(v, om, f), 0);
	fclose(f);
	return buf;
}

static void has_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line)))
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return;
		else
			p++;
	fail_msg("no line '%s' in:\n%s", line, text);
}

static void test_write(void **state)
{
	(void)state;
	struct metrics_series s[2] = {
		{ .cgroup = "cron.service", .comm = "mix", .samples = { 4, 2 },
		  .count = { 1000000, 20 } },
		{ .cgroup = "a\"b\\c\nd", .comm = "other", .samples = { 1, 0 }, .count = { 250000, 0 } },
	};
	struct metrics_node nodes[2] = {
		{ .cgroup = "all", .id = "cpu_migrations", .unit = "count", .value = 3 },
		{ .cgroup = "cron.service", .id = "utilization", .unit = "ratio", .value = 0.5 },
	};
	struct metrics_view v = { .n_events = 2, .n_series = 2, .series = s, .lost = 7,
				  .tree = "sw", .n_nodes = 2, .nodes = nodes, .seconds = 1.5 };
	strcpy(v.ev[0].name, "cpu-clock");
	strcpy(v.ev[1].name, "page-faults");
	char *t = expo(&v, false);
	has_line(t, "# TYPE cyctop_events_total counter");
	has_line(t, "cyctop_events_total{event=\"cpu-clock\",cgroup=\"cron.service\",comm=\"mix\"} "
		    "1000000");
	has_line(t, "cyctop_samples_total{event=\"page-faults\",cgroup=\"cron.service\","
		    "comm=\"mix\"} 2");
	has_line(t, "cyctop_events_total{event=\"cpu-clock\",cgroup=\"a\\\"b\\\\c\\nd\","
		    "comm=\"other\"} 250000");
	has_line(t, "cyctop_lost_samples_total 7");
	has_line(t, "# TYPE cyctop_tree_node gauge");
	has_line(t, "cyctop_tree_node{tree=\"sw\",node=\"cpu_migrations\",unit=\"count\","
		    "cgroup=\"all\"} 3");
	has_line(t, "cyctop_tree_node{tree=\"sw\",node=\"utilization\",unit=\"ratio\","
		    "cgroup=\"cron.service\"} 0.5");
	assert_null(strstr(t, "# EOF"));
	assert_non_null(strstr(t, "nanoseconds"));   /* units in the HELP */
	free(t);
	t = expo(&v, true);
	has_line(t, "# TYPE cyctop_events counter");
	has_line(t, "# TYPE cyctop_lost_samples counter");
	has_line(t, "cyctop_lost_samples_total 7");
	assert_string_equal(t + strlen(t) - 6, "# EOF\n");
	free(t);
	assert_non_null(strstr(metrics_content_type(true), "openmetrics-text"));
	assert_non_null(strstr(metrics_content_type(false), "version=0.0.4"));
}

static const char *cg_of(void *arg, uint32_t pid)
{
	(void)arg;
	return pid % 2 ? "odd.service" : "even.service";
}

/* A system-wide snapshot of N processes (pid, comm, cumulative samples). */
struct fake {
	struct snapshot snap;
	struct snap_thread procs[4];
	uint64_t samples[4][1];
};

static void fake_init(struct fake *f, size_t n, const uint32_t *pids, const char *const *comms,
		      const uint64_t *samples)
{
	memset(f, 0, sizeof(*f));
	f->snap.n_events = 1;
	strcpy(f->snap.ev[0].name, "cpu-clock");
	f->snap.ev[0].sav = 1000;
	f->snap.ev[0].coverage = 1;
	f->snap.system_wide = true;
	f->snap.n_procs = n;
	f->snap.procs = f->procs;
	for (size_t i = 0; i < n; i++) {
		f->procs[i].pid = pids[i];
		snprintf(f->procs[i].comm, sizeof(f->procs[i].comm), "%s", comms[i]);
		f->samples[i][0] = samples[i];
		f->procs[i].samples = f->samples[i];
	}
}

static const struct metrics_series *find(const struct metrics_view *v, const char *cg,
					 const char *comm)
{
	for (size_t i = 0; i < v->n_series; i++)
		if (strcmp(v->series[i].cgroup, cg) == 0 && strcmp(v->series[i].comm, comm) == 0)
			return &v->series[i];
	return NULL;
}

static void test_accumulate(void **state)
{
	(void)state;
	struct metrics *m = metrics_new(1);
	struct fake f;
	const uint32_t pids[] = { 2, 3, 5 };
	const char *const comms[] = { "a", "b", "c" };

	/* top 1 by the first event: b (pid 3); a goes to even's other */
	fake_init(&f, 2, pids, comms, (const uint64_t[]){ 10, 30 });
	assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	struct metrics_view *v = metrics_view(m);
	assert_non_null(find(v, "odd.service", "b"));
	assert_true(find(v, "odd.service", "b")->samples[0] == 30);
	assert_true(find(v, "odd.service", "b")->count[0] == 30000);
	assert_true(find(v, "even.service", "other")->samples[0] == 10);
	assert_null(find(v, "even.service", "a"));
	metrics_view_free(v);
	/* a now the busiest: its 20 new samples under its name; b's 5 to other */
	fake_init(&f, 2, pids, comms, (const uint64_t[]){ 30, 35 });
	assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	v = metrics_view(m);
	assert_true(find(v, "even.service", "a")->samples[0] == 20);
	assert_true(find(v, "odd.service", "b")->samples[0] == 30);
	assert_true(find(v, "odd.service", "other")->samples[0] == 5);
	assert_true(find(v, "even.service", "other")->samples[0] == 10);
	metrics_view_free(v);
	/* b gone from the snapshot, a new process c: nothing goes back */
	fake_init(&f, 1, pids + 2, comms + 2, (const uint64_t[]){ 4 });
	assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	v = metrics_view(m);
	assert_true(find(v, "odd.service", "b")->samples[0] == 30);
	assert_true(find(v, "odd.service", "c")->samples[0] == 4);
	assert_true(find(v, "even.service", "a")->samples[0] == 20);
	metrics_view_free(v);
	metrics_free(m);
}

/* Past METRICS_SERIES_MAX pairs every new comm adds to its cgroup's other. */
static void test_bounds(void **state)
{
	(void)state;
	struct metrics *m = metrics_new(1);
	struct fake f;
	char name[16];

	for (uint32_t i = 0; i < METRICS_SERIES_MAX + 10; i++) {
		const uint32_t pid = 2 * i + 2;
		const char *comm = name;
		snprintf(name, sizeof(name), "p%u", i);
		fake_init(&f, 1, &pid, &comm, (const uint64_t[]){ 1 });
		assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	}
	struct metrics_view *v = metrics_view(m);
	assert_true(v->n_series <= METRICS_SERIES_MAX);
	double sum = 0;
	for (size_t i = 0; i < v->n_series; i++)
		sum += v->series[i].samples[0];
	assert_true(sum == METRICS_SERIES_MAX + 10);   /* nothing dropped */
	assert_non_null(find(v, "even.service", "other"));
	metrics_view_free(v);
	metrics_free(m);
}

/* The cgroups' sums for their trees: the busiest first, at most TOP_N,
 * cgroup "other" left out; the nodes the view copies. */
static void test_top_cgroups(void **state)
{
	(void)state;
	struct metrics *m = metrics_new(2);
	struct metrics_cgroup cg[METRICS_CGROUPS_MAX];
	struct fake f;
	const uint32_t pids[] = { 2, 3, 5, 4 };
	const char *const comms[] = { "a", "b", "c", "d" };

	/* odd: 3 and 5, 70 samples; even: 2 and 4, 30 */
	fake_init(&f, 4, pids, comms, (const uint64_t[]){ 10, 30, 40, 20 });
	assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	assert_int_equal(metrics_top_cgroups(m, cg), 2);
	assert_string_equal(cg[0].name, "odd.service");
	assert_true(cg[0].count[0] == 70000);
	assert_string_equal(cg[1].name, "even.service");
	assert_true(cg[1].count[0] == 30000);
	metrics_free(m);
	/* top 1: the busiest alone */
	m = metrics_new(1);
	assert_int_equal(metrics_update(m, &f.snap, cg_of, NULL), 0);
	assert_int_equal(metrics_top_cgroups(m, cg), 1);
	assert_string_equal(cg[0].name, "odd.service");
	assert_true(cg[0].count[0] == 70000);
	struct metrics_node nodes[3] = { { .cgroup = "all", .id = "x", .value = 1 },
					 { .cgroup = "odd.service", .id = "x", .value = 2 } };
	assert_int_equal(metrics_set_nodes(m, "sw", nodes, 2), 0);
	struct metrics_view *v = metrics_view(m);
	assert_int_equal(v->n_nodes, 2);
	assert_string_equal(v->nodes[1].cgroup, "odd.service");
	assert_string_equal(v->tree, "sw");
	metrics_view_free(v);
	metrics_free(m);
}

/* Past METRICS_CGROUPS_MAX cgroups the rest are cgroup "other", which has
 * no tree of its own. */
static const char *cg_many(void *arg, uint32_t pid)
{
	snprintf(arg, 32, "/g%u", pid);
	return arg;
}

static void test_top_cgroups_other(void **state)
{
	(void)state;
	struct metrics *m = metrics_new(METRICS_TOP_MAX);
	struct metrics_cgroup cg[METRICS_CGROUPS_MAX];
	struct fake f;
	char name[32];

	for (uint32_t i = 0; i < METRICS_CGROUPS_MAX + 5; i++) {
		const uint32_t pid = i + 1;
		const char *comm = "p";
		fake_init(&f, 1, &pid, &comm, (const uint64_t[]){ 1000 - i });
		assert_int_equal(metrics_update(m, &f.snap, cg_many, name), 0);
	}
	size_t n = metrics_top_cgroups(m, cg);
	assert_int_equal(n, METRICS_CGROUPS_MAX);
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(cg[i].name, METRICS_OTHER);
	assert_string_equal(cg[0].name, "/g1");
	metrics_free(m);
}

static void name_is(const char *path, const char *want)
{
	char out[CGROUP_NAME_MAX];

	cgroup_name(path, out, sizeof(out));
	assert_string_equal(out, want);
}

static void test_cgroup_names(void **state)
{
	(void)state;
	name_is("/", "/");
	name_is("/system.slice/cron.service", "cron.service");
	name_is("/user.slice/user-1000.slice/session-2.scope", "session-2.scope");
	name_is("/system.slice/docker-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		".scope", "0123456789ab");
	name_is("/kubepods.slice/kubepods-pod1.slice/cri-containerd-"
		"fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210.scope",
		"fedcba987654");
	name_is("/system.slice/cron.service/sub", "cron.service");
	name_is("/mygroup/leaf", "/mygroup/leaf");
}

/* A hybrid host: v1 controllers, the v2 hierarchy at /sys/fs/cgroup/unified
 * holding the cgroup web (and nothing else). */
static FILE *fake_fopen(const char *path, const char *mode)
{
	static const char mounts[] =
		"tmpfs /sys/fs/cgroup tmpfs rw 0 0\n"
		"cgroup /sys/fs/cgroup/cpu cgroup rw,cpu 0 0\n"
		"cgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n";

	if (strcmp(path, "/proc/self/mounts") == 0)
		return fmemopen((void *)mounts, strlen(mounts), "r");
	return sys_real_ops()->fopen(path, mode);
}

static DIR *fake_opendir(const char *path)
{
	if (strcmp(path, "/sys/fs/cgroup/unified") == 0 ||
	    strcmp(path, "/sys/fs/cgroup/unified/web") == 0)
		return opendir("/");
	errno = ENOENT;
	return NULL;
}

static void resolves(const char *arg, const char *dir, const char *rel)
{
	char d[256], r[256], err[256];

	assert_int_equal(cgroup_resolve(arg, d, sizeof(d), r, sizeof(r), err, sizeof(err)), 0);
	assert_string_equal(d, dir);
	assert_string_equal(r, rel);
}

static void refused(const char *arg, const char *want)
{
	char d[256], r[256], err[256];

	assert_int_equal(cgroup_resolve(arg, d, sizeof(d), r, sizeof(r), err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void test_cgroup_resolve(void **state)
{
	(void)state;
	struct sys_ops ops = *sys_real_ops();
	ops.fopen = fake_fopen;
	ops.opendir = fake_opendir;
	const struct sys_ops *old = sys_set_ops(&ops);

	resolves("web", "/sys/fs/cgroup/unified/web", "/web");
	resolves("/web/", "/sys/fs/cgroup/unified/web", "/web");
	resolves("/sys/fs/cgroup/unified/web", "/sys/fs/cgroup/unified/web", "/web");
	resolves("/sys/fs/cgroup/unified", "/sys/fs/cgroup/unified", "/");
	resolves("/", "/sys/fs/cgroup/unified", "/");
	/* ".." inside a name is no step up */
	refused("web..old", "cgroup /sys/fs/cgroup/unified/web..old: no such cgroup");
	refused("db", "cgroup /sys/fs/cgroup/unified/db: no such cgroup");
	refused("web/../../cpu", "cgroup web/../../cpu: \"..\" would leave the cgroup v2 "
		"hierarchy (/sys/fs/cgroup/unified)");
	refused("..", "cgroup ..: \"..\" would leave the cgroup v2 hierarchy "
		"(/sys/fs/cgroup/unified)");
	sys_set_ops(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_accumulate),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_top_cgroups),
		cmocka_unit_test(test_top_cgroups_other),
		cmocka_unit_test(test_cgroup_names),
		cmocka_unit_test(test_cgroup_resolve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

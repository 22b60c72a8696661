/* Test 6's second half, leader sampling: a group sampled on its leader
 * with PERF_SAMPLE_READ and PERF_FORMAT_GROUP, as perf record -e
 * '{a,b}:S' opens it, each sample carrying every member's value.  The
 * group is cycles:u and instructions:u where there is a PMU (the cycle
 * counter leads: an emulated PMU interrupts on its overflow only), else
 * cpu-clock leading task-clock and page-faults.  Every sample must carry
 * one value per member (matched by id), each member's values must never
 * go down, and the last sample's values must be the members' counts read
 * from the group at the end less what they added after it: no more than
 * twice the most they added between two samples (the kernel samples once
 * a period of the leader), plus a few page faults.
 *
 * This path is the check's own (target_launch, perf_event_open, the ring,
 * the record decoder): the live session counts each event on its own fd,
 * so what is checked is the kernel's group read as the decoder takes it
 * from perf.data files that carry it.  Fault "member" opens the last
 * member outside the group, as a dropped member would be. */
#include "engine/selftest.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "engine/record.h"
#include "engine/ring.h"
#include "engine/sys.h"
#include "engine/target.h"

#define MEMBERS_MAX 3
#define LEADER_SAMPLES 1000.0   /* about; the software leader's period is fixed */
#define MIN_SAMPLES 100
#define SW_PERIOD_NS 200000     /* 200 us: 5 kHz, under the kernel's rate limit */
#define RING_PAGES 64
#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING)

struct member {
	const char *name;
	uint32_t type;
	uint64_t config;
	bool user;       /* exclude_kernel */
};

static const struct member sw_group[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false },
};

static const struct member hw_group[] = {
	{ "cycles:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true },
};

struct leader_run {
	const struct member *m;
	int n;                       /* members, the leader first */
	int fd[MEMBERS_MAX];
	uint64_t id[MEMBERS_MAX];
	struct rec_format fmt;
	unsigned long samples;
	uint64_t last[MEMBERS_MAX];  /* the last sample's values */
	uint64_t step[MEMBERS_MAX];  /* the most a member added between two samples */
	char bad[256];               /* the first sample that broke a rule, "" none */
};

static int member_of(const struct leader_run *r, uint64_t id)
{
	for (int j = 0; j < r->n; j++)
		if (r->id[j] == id)
			return j;
	return -1;
}

/* One sample: a value per member, none going down. */
static void on_sample(struct leader_run *r, const struct rec_read *rd)
{
	uint64_t v, id;

	r->samples++;
	if (r->bad[0])
		return;
	if (rd->nr != (uint64_t)r->n) {
		snprintf(r->bad, sizeof(r->bad), "sample %lu carries %llu value%s, the group has "
			 "%d members", r->samples, (unsigned long long)rd->nr,
			 rd->nr == 1 ? "" : "s", r->n);
		return;
	}
	for (uint64_t i = 0; i < rd->nr; i++) {
		record_read_value(rd, i, &v, &id);
		int j = member_of(r, id);
		if (j < 0) {
			snprintf(r->bad, sizeof(r->bad), "sample %lu carries id %llu, no member's",
				 r->samples, (unsigned long long)id);
			return;
		}
		if (v < r->last[j]) {
			snprintf(r->bad, sizeof(r->bad), "%s went down from %llu to %llu at sample "
				 "%lu", r->m[j].name, (unsigned long long)r->last[j],
				 (unsigned long long)v, r->samples);
			return;
		}
		if (v - r->last[j] > r->step[j])
			r->step[j] = v - r->last[j];
		r->last[j] = v;
	}
}

static void on_record(const struct perf_event_header *hdr, void *arg)
{
	struct leader_run *r = arg;
	struct record rec;

	if (hdr->type != PERF_RECORD_SAMPLE)
		return;
	if (record_decode_fmt(hdr, &r->fmt, &rec) < 0) {
		if (!r->bad[0])
			snprintf(r->bad, sizeof(r->bad), "a sample does not decode");
		return;
	}
	on_sample(r, &rec.u.sample.read);
}

/* Opens the group on the held child PID, the leader sampling every
 * PERIOD.  -1 with one line in ERR. */
static int open_group(struct selftest_ctx *c, struct leader_run *r, pid_t pid, uint64_t period,
		      char *err, size_t errsz)
{
	for (int j = 0; j < r->n; j++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = r->m[j].type;
		a.config = r->m[j].config;
		a.exclude_kernel = r->m[j].user;
		a.exclude_hv = 1;
		a.read_format = READ_FORMAT;
		if (j == 0) {
			a.sample_period = period;
			a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_READ;
			a.disabled = a.enable_on_exec = 1;
			a.watermark = 1;
			a.wakeup_watermark = RING_PAGES * 1024;
			record_format_of(&a, &r->fmt);
		}
		/* the fault: the last member counts on its own */
		bool dropped = j == r->n - 1 && selftest_fault(c, "member");
		r->fd[j] = sys_perf_event_open(&a, pid, -1, j && !dropped ? r->fd[0] : -1,
					       PERF_FLAG_FD_CLOEXEC);
		if (r->fd[j] < 0 || sys_ioctl(r->fd[j], PERF_EVENT_IOC_ID,
					      (unsigned long)&r->id[j]) < 0) {
			snprintf(err, errsz, "%s in a group led by %s: %s", r->m[j].name,
				 r->m[0].name, sys_perf_strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The members' counts read from the group now: END by member.  -1 with
 * one line in ERR. */
static int read_group(struct leader_run *r, uint64_t *end, char *err, size_t errsz)
{
	uint64_t buf[3 + 2 * MEMBERS_MAX];
	ssize_t got = sys_read(r->fd[0], buf, sizeof(buf));

	if (got < 3 * (ssize_t)sizeof(uint64_t) || buf[0] != (uint64_t)r->n ||
	    got < (ssize_t)((3 + 2 * buf[0]) * sizeof(uint64_t))) {
		snprintf(err, errsz, "the group's read gives %llu values, it has %d members",
			 got >= (ssize_t)sizeof(uint64_t) ? (unsigned long long)buf[0] : 0ULL, r->n);
		return -1;
	}
	for (int i = 0; i < r->n; i++) {
		int j = member_of(r, buf[4 + 2 * i]);
		if (j < 0) {
			snprintf(err, errsz, "the group's read carries no member's id");
			return -1;
		}
		end[j] = buf[3 + 2 * i];
	}
	return 0;
}

/* Runs the program WORK under the group until it ends, its samples into R.
 * -1 with one line in ERR. */
static int sample_work(struct selftest_ctx *c, struct leader_run *r, const char *work,
		       uint64_t period, char *err, size_t errsz)
{
	char *argv[] = { (char *)c->self, "selftest", "--workload", (char *)work, NULL };
	struct target t;
	struct ring ring = { .fd = -1 };
	int rc = -1;

	if (target_launch(&t, argv, err, errsz) < 0)
		return -1;
	if (open_group(c, r, t.pid, period, err, errsz) < 0)
		goto out;
	if (ring_open(&ring, r->fd[0], RING_PAGES) < 0) {
		snprintf(err, errsz, "cannot map the leader's ring: %s", strerror(errno));
		goto out;
	}
	if (target_start(&t, err, errsz) < 0)
		goto out;
	while (!target_poll_end(&t, false)) {
		struct pollfd p = { .fd = r->fd[0], .events = POLLIN };
		sys_poll(&p, 1, 50);
		ring_drain(&ring, on_record, r);
	}
	ring_drain(&ring, on_record, r);
	if (t.status != 0)
		snprintf(err, errsz, "the calibrated program exited with status %d", t.status);
	else
		rc = 0;
out:
	ring_close(&ring);
	target_finish(&t);
	return rc;
}

/* The leader's period: some LEADER_SAMPLES samples of WORK. */
static int leader_period(struct selftest_ctx *c, const char *work, uint64_t *period, char *err,
			 size_t errsz)
{
	struct st_watch w = { .events = "cycles:u/1000000000000", .work = work };

	if (!c->hardware) {
		*period = SW_PERIOD_NS;
		return 0;
	}
	struct snapshot *snap = st_watch_run(c, &w, err, errsz);
	if (!snap)
		return -1;
	*period = (uint64_t)(snap->ev[0].count / LEADER_SAMPLES);
	if (*period < 10000)
		*period = 10000;
	snapshot_free(snap);
	return 0;
}

/* The last sample's values against the end's: false with why in O. */
static bool last_is_end(const struct leader_run *r, const uint64_t *end, struct st_outcome *o)
{
	for (int j = 0; j < r->n; j++) {
		/* page faults come in bursts (the loader's), a few at the exit */
		uint64_t slack = 2 * r->step[j] + (r->m[j].config == PERF_COUNT_SW_PAGE_FAULTS ? 8 : 0);
		if (end[j] < r->last[j] || end[j] - r->last[j] > slack) {
			st_set(o, ST_FAIL, "leader sampling: %s's last sampled value %llu, its count "
			       "at the end %llu (want at most %llu more)", r->m[j].name,
			       (unsigned long long)r->last[j], (unsigned long long)end[j],
			       (unsigned long long)slack);
			return false;
		}
	}
	return true;
}

static void close_group(struct leader_run *r)
{
	for (int j = 0; j < r->n; j++)
		if (r->fd[j] >= 0)
			sys_close(r->fd[j]);
}

void st_check_leader(struct selftest_ctx *c, struct st_outcome *o)
{
	struct leader_run r = { .m = c->hardware ? hw_group : sw_group,
				.n = c->hardware ? 2 : 3, .fd = { -1, -1, -1 } };
	uint64_t period, end[MEMBERS_MAX] = { 0 };
	char err[512], work[64];
	size_t len;

	if (st_loop_speed(c, err, sizeof(err)) < 0) {
		st_set(o, ST_FAIL, "leader sampling: %s", err);
		return;
	}
	snprintf(work, sizeof(work), "loop:%lu", st_iters_for(c, 0.2, 10000000));
	if (leader_period(c, work, &period, err, sizeof(err)) < 0 ||
	    sample_work(c, &r, work, period, err, sizeof(err)) < 0 ||
	    (!r.bad[0] && read_group(&r, end, err, sizeof(err)) < 0)) {
		st_set(o, ST_FAIL, "leader sampling: %s", err);
		goto out;
	}
	snprintf(o->measured, sizeof(o->measured), "%lu samples of {", r.samples);
	for (int j = 0; j < r.n; j++) {
		len = strlen(o->measured);
		snprintf(o->measured + len, sizeof(o->measured) - len, "%s%s %llu/%llu",
			 j ? ", " : "", r.m[j].name, (unsigned long long)r.last[j],
			 (unsigned long long)end[j]);
	}
	len = strlen(o->measured);
	snprintf(o->measured + len, sizeof(o->measured) - len, "}:S (last sample/end), period "
		 "%llu", (unsigned long long)period);
	snprintf(o->expected, sizeof(o->expected), "%d values a sample, monotonic, the last "
		 "within 2 periods' steps of the end", r.n);
	if (r.bad[0])
		st_set(o, ST_FAIL, "leader sampling: %s", r.bad);
	else if (r.samples < MIN_SAMPLES)
		st_set(o, ST_FAIL, "leader sampling: %lu samples, want %d or more", r.samples,
		       MIN_SAMPLES);
	else if (last_is_end(&r, end, o))
		st_set(o, ST_PASS, "%s", o->measured);
out:
	close_group(&r);
}

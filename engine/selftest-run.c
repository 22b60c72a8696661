/* How the self-test's checks watch the calibrated program: a live session
 * of the engine on "cyctop selftest --workload KIND:N", with the kernel
 * seam wrapped so that the kernel's own times are kept (before any fault)
 * and the fault switch can act on what the engine reads; and how another
 * program (perf) is run with its output captured. */
#include "engine/selftest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/session.h"
#include "engine/sys.h"

void st_set(struct st_outcome *o, enum st_result r, const char *fmt, ...)
{
	va_list ap;

	o->result = r;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

/* --- the seam: the kernel's times, the fault --------------------------- */

/* The watch in progress: what the wrapped seam keeps and does.  One watch
 * at a time (the self-test is one thread). */
static struct {
	const struct sys_ops *real;
	bool scale_fault;
	int fd_ev[1024];  /* fd -> index in times.ev, -1 */
	struct st_kernel_times times;
} seam;

static int seam_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	int fd = seam.real->perf_event_open(a, pid, cpu, group_fd, flags);
	int i;

	if (fd < 0 || fd >= (int)(sizeof(seam.fd_ev) / sizeof(seam.fd_ev[0])))
		return fd;
	for (i = 0; i < seam.times.n; i++)
		if (seam.times.ev[i].type == a->type && seam.times.ev[i].config == a->config)
			break;
	if (i == seam.times.n && i < 64) {
		seam.times.ev[i].type = a->type;
		seam.times.ev[i].config = a->config;
		seam.times.n++;
	}
	seam.fd_ev[fd] = i < 64 ? i : -1;
	return fd;
}

/* A counter's read (value, enabled, running, id: the engine's format):
 * the kernel's times summed per event, then the fault. */
static ssize_t seam_read(int fd, void *buf, size_t n)
{
	ssize_t r = seam.real->read(fd, buf, n);
	uint64_t *v = buf;

	if (r != 4 * (ssize_t)sizeof(uint64_t) || fd < 0 || fd >= 1024 || seam.fd_ev[fd] < 0)
		return r;
	seam.times.ev[seam.fd_ev[fd]].enabled += (double)v[1];
	seam.times.ev[seam.fd_ev[fd]].running += (double)v[2];
	seam.times.ev[seam.fd_ev[fd]].fds++;
	if (seam.scale_fault)
		v[2] = v[2] / 10 * 9;
	return r;
}

static int seam_close(int fd)
{
	if (fd >= 0 && fd < 1024)
		seam.fd_ev[fd] = -1;
	return seam.real->close(fd);
}

const struct st_kernel_times *st_kernel_times(void)
{
	return &seam.times;
}

/* The engine reads every counter at each snapshot: the times kept are
 * those of the last reads only. */
static void seam_reset_times(void)
{
	for (int i = 0; i < seam.times.n; i++)
		seam.times.ev[i].enabled = seam.times.ev[i].running = seam.times.ev[i].fds = 0;
}

/* --- watching ------------------------------------------------------------ */

int st_event(const struct snapshot *snap, const char *name)
{
	for (int e = 0; e < snap->n_events; e++)
		if (strcmp(snap->ev[e].name, name) == 0)
			return e;
	return -1;
}

static struct snapshot *watch(const struct session_opts *o, char *err, size_t errsz)
{
	struct session *s = session_open(o, err, errsz);
	struct snapshot *snap;

	if (!s)
		return NULL;
	while (!session_poll(s, 100))
		;
	session_poll(s, 0);
	seam_reset_times();
	snap = session_snapshot(s);
	session_close(s);
	if (!snap)
		snprintf(err, errsz, "out of memory");
	else if (snap->exit_status != 0) {
		snprintf(err, errsz, "the calibrated program exited with status %d",
			 snap->exit_status);
		snapshot_free(snap);
		return NULL;
	}
	return snap;
}

struct snapshot *st_watch_run(struct selftest_ctx *c, const struct st_watch *w, char *err,
			      size_t errsz)
{
	extern char **environ;
	char *argv[] = { (char *)c->self, "selftest", "--workload", (char *)w->work, NULL };
	struct session_opts o = {
		.argv = argv, .events = w->events, .max_counters = w->max_counters,
		.slice_ms = w->slice_ms, .one_group = w->one_group, .group = w->group,
	};
	struct sys_ops ops = *sys_real_ops();
	char **saved = environ;
	struct snapshot *snap;

	memset(&seam, 0, sizeof(seam));
	memset(seam.fd_ev, -1, sizeof(seam.fd_ev));
	seam.real = sys_real_ops();
	seam.scale_fault = selftest_fault(c, "scale");
	ops.perf_event_open = seam_open;
	ops.read = seam_read;
	ops.close = seam_close;
	const struct sys_ops *old = sys_set_ops(&ops);
	/* the program's environment is what its exec gets (target_launch) */
	if (w->envp)
		environ = (char **)w->envp;
	snap = watch(&o, err, errsz);
	environ = saved;
	sys_set_ops(old);
	return snap;
}

/* --- other programs ------------------------------------------------------ */

static void drain(int fd, char *buf, size_t sz)
{
	size_t n = 0;
	ssize_t r;
	char junk[4096];

	while ((r = n + 1 < sz ? sys_read(fd, buf + n, sz - 1 - n)
			       : sys_read(fd, junk, sizeof(junk))) > 0 || (r < 0 && errno == EINTR))
		if (r > 0 && n + 1 < sz)
			n += (size_t)r;
	if (sz)
		buf[n] = '\0';
}

int st_run_capture(char *const argv[], char *out, size_t outsz, char *errbuf, size_t errsz)
{
	int po[2], pe[2], st;
	char discard[1];

	if (sys_pipe2(po, O_CLOEXEC) < 0)
		return -1;
	if (sys_pipe2(pe, O_CLOEXEC) < 0) {
		sys_close(po[0]);
		sys_close(po[1]);
		return -1;
	}
	pid_t pid = sys_fork();
	if (pid == 0) {
		if (sys_dup2(po[1], STDOUT_FILENO) < 0 || sys_dup2(pe[1], STDERR_FILENO) < 0)
			_exit(127);
		sys_execvp(argv[0], argv);
		_exit(127);
	}
	sys_close(po[1]);
	sys_close(pe[1]);
	if (pid < 0) {
		sys_close(po[0]);
		sys_close(pe[0]);
		return -1;
	}
	/* small outputs (an environment, perf stat's lines): one after the other */
	drain(po[0], out ? out : discard, out ? outsz : sizeof(discard));
	drain(pe[0], errbuf, errsz);
	sys_close(po[0]);
	sys_close(pe[0]);
	while (sys_waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int st_loop_speed(struct selftest_ctx *c, char *err, size_t errsz)
{
	const unsigned long n = 20000000;
	char work[64];
	struct st_watch w = { .events = "task-clock/1000000000000", .work = work };

	if (c->ns_per_iter > 0)
		return 0;
	snprintf(work, sizeof(work), "loop:%lu", n);
	struct snapshot *snap = st_watch_run(c, &w, err, errsz);
	if (!snap)
		return -1;
	c->ns_per_iter = snap->ev[0].count / (double)n;
	snapshot_free(snap);
	if (c->ns_per_iter <= 0) {
		snprintf(err, errsz, "task-clock counted nothing for %lu iterations", n);
		return -1;
	}
	return 0;
}

unsigned long st_iters_for(const struct selftest_ctx *c, double seconds, unsigned long min)
{
	double n = c->ns_per_iter > 0 ? seconds * 1e9 / c->ns_per_iter : (double)min;

	return n > (double)min ? (unsigned long)n : min;
}

#include "engine/target.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/sys.h"

static void read_comm(pid_t pid, char *buf, size_t sz)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	buf[0] = '\0';
	f = sys_fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)sz, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* In the child: its streams as IO says (dup2 clears close-on-exec). */
static int child_redirect(const struct target_io *io)
{
	if (!io || !io->redirect)
		return 0;
	if (sys_dup2(io->out_fd, STDOUT_FILENO) < 0 || sys_dup2(io->out_fd, STDERR_FILENO) < 0)
		return -1;
	return io->in_fd >= 0 && sys_dup2(io->in_fd, STDIN_FILENO) < 0 ? -1 : 0;
}

/* In the child: every signal's disposition the default and none blocked,
 * as a shell starts a command and perf its workload.  A handler goes at
 * exec anyway, but an ignored signal stays ignored and the mask stays:
 * cyctop ignores SIGPIPE (a write to a closed pipe is an error it
 * reports), and a command that inherited that would not die of SIGPIPE
 * (`yes | head -1`: yes wrote "Broken pipe" and exited 1).  Only the
 * calling process changes; SIGKILL, SIGSTOP and glibc's own 32 and 33
 * refuse, harmlessly. */
static void child_default_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void child_wait_and_exec(int go, int errfd, char *const argv[],
				const struct target_io *io)
{
	char c;
	int e;

	/* EOF without a byte: the parent gave up, do not run the command */
	if (sys_read(go, &c, 1) != 1)
		_exit(127);
	child_default_signals();
	if (child_redirect(io) == 0)
		sys_execvp(argv[0], argv);
	e = errno;
	if (sys_write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int target_launch(struct target *t, char *const argv[], char *err, size_t errsz)
{
	return target_launch_io(t, argv, NULL, err, errsz);
}

int target_launch_io(struct target *t, char *const argv[], const struct target_io *io,
		     char *err, size_t errsz)
{
	int go[2], ef[2];

	memset(t, 0, sizeof(*t));
	t->go_fd = t->err_fd = -1;
	if (!argv || !argv[0] || !argv[0][0]) {
		snprintf(err, errsz, "no command given after --");
		return -1;
	}
	if (sys_pipe2(go, O_CLOEXEC) < 0) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		return -1;
	}
	if (sys_pipe2(ef, O_CLOEXEC) < 0) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		sys_close(go[0]);
		sys_close(go[1]);
		return -1;
	}
	pid_t pid = sys_fork();
	if (pid < 0) {
		snprintf(err, errsz, "fork: %s", strerror(errno));
		sys_close(go[0]);
		sys_close(go[1]);
		sys_close(ef[0]);
		sys_close(ef[1]);
		return -1;
	}
	if (pid == 0) {
		sys_close(go[1]);
		sys_close(ef[0]);
		child_wait_and_exec(go[0], ef[1], argv, io);
	}
	sys_close(go[0]);
	sys_close(ef[1]);
	t->pid = pid;
	t->launched = true;
	t->go_fd = go[1];
	t->err_fd = ef[0];
	snprintf(t->comm, sizeof(t->comm), "%s", strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
								    : argv[0]);
	snprintf(t->command, sizeof(t->command), "%s", argv[0]);
	return 0;
}

int target_start(struct target *t, char *err, size_t errsz)
{
	int e = 0;
	const char *cmd = t->command;  /* as given: '/nonexistent', not its name */

	if (sys_write(t->go_fd, "g", 1) != 1) {
		snprintf(err, errsz, "cannot start '%s': %s", cmd, strerror(errno));
		return -1;
	}
	sys_close(t->go_fd);
	t->go_fd = -1;
	ssize_t n = sys_read(t->err_fd, &e, sizeof(e));
	sys_close(t->err_fd);
	t->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		int st;
		sys_waitpid(t->pid, &st, 0);
		t->ended = true;
		snprintf(err, errsz, "cannot run '%s': %s", cmd, strerror(e));
		return -1;
	}
	return 0;
}

static bool proc_exists(pid_t pid)
{
	char path[64];
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = sys_opendir(path);
	if (d)
		closedir(d);
	return d != NULL;
}

/* The credentials that decide whether one process may watch another. */
struct creds {
	unsigned uid[3], gid[3];   /* real, effective, saved */
	unsigned long long cap_eff;
};

static int read_creds(const char *path, struct creds *c)
{
	char line[256];
	int got = 0;
	FILE *f = sys_fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %u %u %u", &c->uid[0], &c->uid[1], &c->uid[2]) == 3 ||
		    sscanf(line, "Gid: %u %u %u", &c->gid[0], &c->gid[1], &c->gid[2]) == 3 ||
		    sscanf(line, "CapEff: %llx", &c->cap_eff) == 1)
			got++;
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

/* perf_event_open on another process needs ptrace read access to it (the
 * kernel's ptrace_may_access): its real, effective and saved ids all ours,
 * or CAP_SYS_PTRACE.  perf_event_paranoid comes second; say the first
 * cause when it is the one.  0 when access looks possible or unknown. */
static int check_ptrace_access(pid_t pid, char *err, size_t errsz)
{
	char path[64];
	struct creds me, it;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_creds("/proc/self/status", &me) < 0 || read_creds(path, &it) < 0)
		return 0;
	if (me.cap_eff & (1ull << 19))  /* CAP_SYS_PTRACE */
		return 0;
	for (int i = 0; i < 3; i++)
		if (it.uid[i] != me.uid[0] || it.gid[i] != me.gid[0]) {
			snprintf(err, errsz, "cannot watch pid %d: permission denied: it runs as "
				 "uid %u, cyctop as uid %u; watching a process needs ptrace access "
				 "to it (the same user, or CAP_SYS_PTRACE: run as root)", (int)pid,
				 it.uid[1], me.uid[0]);
			return -1;
		}
	return 0;
}

int target_attach(struct target *t, pid_t pid, char *err, size_t errsz)
{
	memset(t, 0, sizeof(*t));
	t->go_fd = t->err_fd = -1;
	if (pid <= 0) {
		snprintf(err, errsz, "invalid pid %d", (int)pid);
		return -1;
	}
	if (sys_kill(pid, 0) < 0 && errno == ESRCH) {
		snprintf(err, errsz, "no process with pid %d", (int)pid);
		return -1;
	}
	if (!proc_exists(pid)) {
		snprintf(err, errsz, "no process with pid %d", (int)pid);
		return -1;
	}
	if (check_ptrace_access(pid, err, errsz) < 0)
		return -1;
	t->pid = pid;
	read_comm(pid, t->comm, sizeof(t->comm));
	return 0;
}

int target_tids(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *de;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = sys_opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL && n < max)
		if (isdigit((unsigned char)de->d_name[0]))
			tids[n++] = (pid_t)atoi(de->d_name);
	closedir(d);
	return n;
}

static void set_status(struct target *t, int st)
{
	t->ended = true;
	t->status_known = true;
	t->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	t->term_signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

/* An attached process is not our child: its exit code can be read from
 * /proc/PID/stat while it is a zombie (field 52), if we are quick enough. */
#define TARGET_KILL_NS 50000000u    /* 50 ms */
#define TARGET_STAT_NS 500000000u   /* 500 ms */

static void read_zombie_status(struct target *t)
{
	char path[64], buf[2048];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)t->pid);
	f = sys_fopen(path, "r");
	if (!f) {
		t->ended = true;
		return;
	}
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || (p[2] != 'Z' && p[2] != 'X'))
		return; /* still running */
	t->ended = true;
	int field = 3;
	for (char *tok = strtok(p + 2, " "); tok; tok = strtok(NULL, " "), field++)
		if (field == 52) {
			set_status(t, atoi(tok));
			return;
		}
}

bool target_poll_end(struct target *t, bool likely)
{
	int st;

	if (t->ended)
		return true;
	if (t->launched) {
		pid_t r = sys_waitpid(t->pid, &st, WNOHANG);
		if (r == t->pid)
			set_status(t, st);
		else if (r < 0 && errno == ECHILD)
			t->ended = true;
		return t->ended;
	}
	/* A watch polls up to some hundred times a second; each look is a
	 * syscall or two (reading /proc/PID/stat, where the kernel formats 52
	 * fields, was a fifth of the view's CPU: bench/README.md).  Its
	 * events' hang-up says at once that the target exited (LIKELY): then
	 * both looks are taken now, and a zombie's exit code is read before
	 * its parent reaps it.  Else a process gone for good is seen by
	 * kill(PID, 0) within TARGET_KILL_NS, a zombie within TARGET_STAT_NS. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (!likely && now < t->kill_next_ns)
		return false;
	t->kill_next_ns = now + TARGET_KILL_NS;
	if (sys_kill(t->pid, 0) < 0 && errno == ESRCH) {
		t->ended = true;
		return true;
	}
	if (!likely && now < t->stat_next_ns)
		return false;
	t->stat_next_ns = now + TARGET_STAT_NS;
	read_zombie_status(t);
	return t->ended;
}

static bool wait_until_reaped(struct target *t, int ms)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int waited = 0; waited < ms; waited += 10) {
		if (target_poll_end(t, true))
			return true;
		nanosleep(&ts, NULL);
	}
	return target_poll_end(t, true);
}

void target_finish(struct target *t)
{
	int st;

	if (t->go_fd >= 0) {
		sys_close(t->go_fd); /* a child still waiting exits on EOF */
		t->go_fd = -1;
	}
	if (t->err_fd >= 0) {
		sys_close(t->err_fd);
		t->err_fd = -1;
	}
	if (!t->launched || t->ended)
		return;
	sys_kill(t->pid, SIGTERM);
	if (wait_until_reaped(t, 2000))
		return;
	sys_kill(t->pid, SIGKILL);
	if (sys_waitpid(t->pid, &st, 0) == t->pid)
		set_status(t, st);
	t->ended = true;
}

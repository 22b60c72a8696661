/* Targets (engine/target.c) with the real kernel: launched commands held
 * before exec, their exit statuses, attaching, thread lists; and one fake
 * seam whose fork fails. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/sys.h"
#include "engine/target.h"

/* Polls target_poll_end for at most about 5 s. */
static bool wait_end(struct target *t)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };

	for (int i = 0; i < 1000; i++) {
		if (target_poll_end(t, false))
			return true;
		nanosleep(&ts, NULL);
	}
	return target_poll_end(t, false);
}

/* No child of ours is left, running or zombie. */
static void assert_no_children(void)
{
	int st;

	errno = 0;
	assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* The number of open file descriptors: equal before and after, no leak. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void launch_ok(struct target *t, char *const argv[])
{
	char err[256] = "";

	if (target_launch(t, argv, err, sizeof(err)) != 0) {
		fprintf(stderr, "target_launch(%s): %s\n", argv[0], err);
		fail();
	}
	assert_true(t->launched);
	assert_true(t->pid > 0);
	assert_false(t->ended);
}

static void start_ok(struct target *t)
{
	char err[256] = "";

	if (target_start(t, err, sizeof(err)) != 0) {
		fprintf(stderr, "target_start: %s\n", err);
		fail();
	}
}

/* Runs ARGV to its end; returns its shell-style status. */
static int run(char *const argv[])
{
	struct target t;

	launch_ok(&t, argv);
	start_ok(&t);
	assert_true(wait_end(&t));
	assert_true(t.ended);
	assert_true(t.status_known);
	target_finish(&t);  /* nothing left to do, harmless */
	return t.status;
}

static void test_true(void **state)
{
	char *argv[] = { "/bin/true", NULL };
	int fd0 = open_fds();

	(void)state;
	assert_int_equal(run(argv), 0);
	assert_no_children();
	assert_int_equal(open_fds(), fd0);
}

static void test_exit_status(void **state)
{
	char *argv[] = { "sh", "-c", "exit 3", NULL };
	char *argv_sig[] = { "sh", "-c", "kill -USR1 $$", NULL };

	(void)state;
	assert_int_equal(run(argv), 3);
	assert_int_equal(run(argv_sig), 128 + SIGUSR1);
	assert_no_children();
}

static void test_comm_from_argv(void **state)
{
	struct target t;
	char *argv[] = { "/bin/true", NULL };

	(void)state;
	launch_ok(&t, argv);
	assert_string_equal(t.comm, "true");
	start_ok(&t);
	assert_true(wait_end(&t));
	assert_no_children();
}

static void test_missing_command(void **state)
{
	struct target t;
	char *argv[] = { "cyctop-no-such-command-xyz", "arg", NULL };
	char err[256] = "";
	int fd0 = open_fds();

	(void)state;
	launch_ok(&t, argv);
	assert_int_equal(target_start(&t, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run 'cyctop-no-such-command-xyz': "
				 "No such file or directory");
	assert_true(t.ended);
	assert_true(target_poll_end(&t, false));
	target_finish(&t);
	assert_no_children();
	assert_int_equal(open_fds(), fd0);
}

static void test_not_executable(void **state)
{
	struct target t;
	char *argv[] = { "/etc/passwd", NULL };
	char err[256] = "";

	(void)state;
	launch_ok(&t, argv);
	assert_int_equal(target_start(&t, err, sizeof(err)), -1);
	assert_string_equal(err, "cannot run '/etc/passwd': Permission denied");
	target_finish(&t);
	assert_no_children();
}

static void test_no_command(void **state)
{
	struct target t;
	char *argv0[] = { NULL };
	char *argv_empty[] = { "", NULL };
	char err[256] = "";

	(void)state;
	assert_int_equal(target_launch(&t, argv0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no command"));
	err[0] = '\0';
	assert_int_equal(target_launch(&t, argv_empty, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no command"));
	assert_no_children();
}

static void test_finish_running(void **state)
{
	struct target t;
	char *argv[] = { "sleep", "30", NULL };
	int fd0 = open_fds();

	(void)state;
	launch_ok(&t, argv);
	start_ok(&t);
	assert_false(target_poll_end(&t, false));
	target_finish(&t);
	assert_true(t.ended);
	assert_true(t.status_known);
	/* TERM sufficed: the status says SIGTERM, not the SIGKILL that
	 * follows 2 s later (a time bound would fail on a loaded machine) */
	assert_int_equal(t.status, 128 + SIGTERM);
	assert_no_children();
	assert_int_equal(open_fds(), fd0);
}

/* A command that ignores TERM is killed. */
static void test_finish_ignores_term(void **state)
{
	struct target t;
	char *argv[] = { "sh", "-c", "trap '' TERM; echo ready; exec sleep 30", NULL };
	int out[2];
	char c;

	(void)state;
	/* the child's stdout is our pipe so we know when the trap is set */
	assert_int_equal(pipe(out), 0);
	int saved = dup(1);
	assert_true(saved >= 0);
	dup2(out[1], 1);
	launch_ok(&t, argv);
	dup2(saved, 1);
	close(saved);
	close(out[1]);
	start_ok(&t);
	assert_int_equal(read(out[0], &c, 1), 1);
	close(out[0]);
	target_finish(&t);
	assert_true(t.ended);
	assert_int_equal(t.status, 128 + SIGKILL);
	assert_no_children();
}

/* Polls until PID is asleep (blocked reading its go pipe), at most ~5 s. */
static void wait_blocked(pid_t pid)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	char path[64], buf[512];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 1000; i++) {
		FILE *f = fopen(path, "r");
		size_t n = 0;
		if (f) {
			n = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
		}
		buf[n] = '\0';
		char *p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		nanosleep(&ts, NULL);
	}
	fail_msg("child %d never blocked", (int)pid);
}

static void unused_name(char *file, size_t sz)
{
	snprintf(file, sz, "/tmp/cyctop-test-target-XXXXXX");
	int fd = mkstemp(file);
	assert_true(fd >= 0);
	close(fd);
	unlink(file);  /* a name nobody uses, now free */
}

/* Launched, never started, and the go pipe closes: the waiting child exits
 * by itself (127) without running the command. */
static void test_go_eof_exits(void **state)
{
	struct target t;
	char file[64], cmd[128];
	struct stat st;

	(void)state;
	unused_name(file, sizeof(file));
	snprintf(cmd, sizeof(cmd), "touch %s", file);
	char *argv[] = { "sh", "-c", cmd, NULL };
	launch_ok(&t, argv);
	wait_blocked(t.pid);
	close(t.go_fd);   /* what target_finish does first */
	t.go_fd = -1;
	assert_true(wait_end(&t));
	assert_true(t.status_known);
	assert_int_equal(t.status, 127);
	target_finish(&t);
	assert_no_children();
	assert_int_equal(stat(file, &st), -1);
	assert_int_equal(errno, ENOENT);
}

/* The same through target_finish. */
static void test_finish_without_start(void **state)
{
	struct target t;
	char file[64], cmd[128];
	struct stat st;
	int fd0 = open_fds();

	(void)state;
	unused_name(file, sizeof(file));
	snprintf(cmd, sizeof(cmd), "touch %s", file);
	char *argv[] = { "sh", "-c", cmd, NULL };
	launch_ok(&t, argv);
	wait_blocked(t.pid);
	target_finish(&t);
	assert_true(t.ended);
	assert_true(t.status == 127 || t.status == 128 + SIGTERM);
	assert_no_children();
	assert_int_equal(open_fds(), fd0);
	assert_int_equal(stat(file, &st), -1);
	assert_int_equal(errno, ENOENT);
}

/* Launched, child waiting, then it ends by itself (EOF on go): poll sees it. */
static void test_poll_before_start(void **state)
{
	struct target t;
	char *argv[] = { "/bin/true", NULL };

	(void)state;
	launch_ok(&t, argv);
	assert_false(target_poll_end(&t, false));
	target_finish(&t);
	assert_true(target_poll_end(&t, false));
	assert_no_children();
}

static void test_attach_self(void **state)
{
	struct target t;
	char err[256] = "", name[17] = "";

	(void)state;
	assert_int_equal(target_attach(&t, getpid(), err, sizeof(err)), 0);
	assert_int_equal(t.pid, getpid());
	assert_false(t.launched);
	assert_int_equal(prctl(PR_GET_NAME, name, 0, 0, 0), 0);
	assert_string_equal(t.comm, name);
	assert_true(t.comm[0] != '\0');
	assert_false(target_poll_end(&t, false));  /* we are running */
	target_finish(&t);                  /* an attached process is left alone */
	assert_false(target_poll_end(&t, false));
}

/* A pid that does not exist now. */
static pid_t free_pid(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	long max = 32768;

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 32768;
		fclose(f);
	}
	for (pid_t p = (pid_t)max - 1; p > 1; p--)
		if (kill(p, 0) < 0 && errno == ESRCH)
			return p;
	fail();
	return -1;
}

static void test_attach_fails(void **state)
{
	struct target t;
	char err[256], want[64];
	pid_t nopid = free_pid();

	(void)state;
	err[0] = '\0';
	assert_int_equal(target_attach(&t, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pid 0"));
	err[0] = '\0';
	assert_int_equal(target_attach(&t, -1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pid -1"));
	err[0] = '\0';
	assert_int_equal(target_attach(&t, nopid, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "no process with pid %d", (int)nopid);
	assert_string_equal(err, want);
}

/* An attached process that exits: seen as ended, with its status while it
 * is a zombie (here: ours, not yet reaped). */
static void test_attach_ends(void **state)
{
	struct target t;
	char err[256], c;
	int st, go[2];

	(void)state;
	assert_int_equal(pipe(go), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 5 : 6);
	}
	close(go[0]);
	assert_int_equal(target_attach(&t, pid, err, sizeof(err)), 0);
	assert_false(t.launched);
	assert_false(target_poll_end(&t, false));
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	assert_true(wait_end(&t));
	assert_true(t.status_known);
	assert_int_equal(t.status, 5);
	target_finish(&t);  /* not ours to reap: still a zombie */
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 5);
	assert_no_children();
}

struct thread_arg {
	int ready[2], release[2];
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	pid_t tid = gettid();
	char c;

	if (write(a->ready[1], &tid, sizeof(tid)) != (ssize_t)sizeof(tid))
		return NULL;
	if (read(a->release[0], &c, 1) < 0)
		return NULL;
	return NULL;
}

static bool contains(const pid_t *v, int n, pid_t x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static void test_tids(void **state)
{
	pid_t tids[64];
	struct thread_arg a;
	pthread_t th;
	pid_t tid = 0;
	int n;

	(void)state;
	n = target_tids(getpid(), tids, 64);
	assert_true(n >= 1);
	assert_true(contains(tids, n, getpid()));

	assert_int_equal(pipe(a.ready), 0);
	assert_int_equal(pipe(a.release), 0);
	assert_int_equal(pthread_create(&th, NULL, thread_main, &a), 0);
	assert_int_equal(read(a.ready[0], &tid, sizeof(tid)), sizeof(tid));
	assert_true(tid > 0);
	assert_true(tid != getpid());
	n = target_tids(getpid(), tids, 64);
	assert_true(n >= 2);
	assert_true(contains(tids, n, getpid()));
	assert_true(contains(tids, n, tid));
	/* at most MAX */
	assert_int_equal(target_tids(getpid(), tids, 1), 1);
	assert_int_equal(write(a.release[1], "x", 1), 1);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(a.ready[0]);
	close(a.ready[1]);
	close(a.release[0]);
	close(a.release[1]);

	assert_int_equal(target_tids(free_pid(), tids, 64), -1);
}

static pid_t failing_fork(void)
{
	errno = EAGAIN;
	return -1;
}

static void test_fork_fails(void **state)
{
	struct sys_ops ops = *sys_real_ops();
	struct target t;
	char *argv[] = { "/bin/true", NULL };
	char err[256] = "";
	int fd0 = open_fds();

	(void)state;
	ops.fork = failing_fork;
	sys_set_ops(&ops);
	int rc = target_launch(&t, argv, err, sizeof(err));
	sys_set_ops(NULL);
	assert_int_equal(rc, -1);
	assert_non_null(strstr(err, "fork"));
	assert_non_null(strstr(err, strerror(EAGAIN)));
	assert_false(t.launched);
	assert_int_equal(t.go_fd, -1);
	assert_int_equal(t.err_fd, -1);
	/* the pipes made for the child are closed again */
	assert_int_equal(open_fds(), fd0);
	assert_no_children();
}

static int pipe_calls;

/* The first pipe is made, the second fails. */
static int second_pipe_fails(int fds[2], int flags)
{
	if (pipe_calls++ == 0)
		return sys_real_ops()->pipe2(fds, flags);
	errno = EMFILE;
	return -1;
}

static void test_pipe_fails(void **state)
{
	struct sys_ops ops = *sys_real_ops();
	struct target t;
	char *argv[] = { "/bin/true", NULL };
	char err[256] = "";
	int fd0 = open_fds();

	(void)state;
	ops.pipe2 = second_pipe_fails;
	pipe_calls = 0;
	sys_set_ops(&ops);
	int rc = target_launch(&t, argv, err, sizeof(err));
	sys_set_ops(NULL);
	assert_int_equal(rc, -1);
	assert_int_equal(pipe_calls, 2);
	assert_non_null(strstr(err, "pipe"));
	assert_non_null(strstr(err, strerror(EMFILE)));
	assert_int_equal(open_fds(), fd0);
	assert_no_children();
}

/* target_launch_io: stdout and stderr into OUT_FD, stdin from IN_FD. */
static void test_launch_io(void **state)
{
	char *argv[] = { "/bin/sh", "-c", "echo out; echo err >&2; cat", NULL };
	char path[] = "/tmp/cyctop-test-io.XXXXXX", in_path[] = "/tmp/cyctop-test-in.XXXXXX";
	char buf[64] = "", err[256] = "";
	int out = mkstemp(path), in = mkstemp(in_path);
	struct target t;

	(void)state;
	assert_true(out >= 0 && in >= 0);
	assert_int_equal(write(in, "from-stdin\n", 11), 11);
	assert_int_equal(lseek(in, 0, SEEK_SET), 0);
	struct target_io io = { true, out, in };
	assert_int_equal(target_launch_io(&t, argv, &io, err, sizeof(err)), 0);
	start_ok(&t);
	assert_true(wait_end(&t));
	assert_int_equal(t.status, 0);
	assert_true(pread(out, buf, sizeof(buf) - 1, 0) > 0);
	assert_string_equal(buf, "out\nerr\nfrom-stdin\n");
	close(out);
	close(in);
	unlink(path);
	unlink(in_path);
	assert_no_children();
}

/* The command starts with every signal's default disposition and none
 * blocked, whatever cyctop ignores (SIGPIPE), handles or blocks: grep
 * prints its own masks from /proc/self/status. */
static void test_default_signals(void **state)
{
	char *argv[] = { "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status", NULL };
	char path[] = "/tmp/cyctop-test-sig.XXXXXX", buf[128] = "", err[256] = "";
	int out = mkstemp(path);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe, old_int;
	sigset_t usr1, old_mask;
	struct target t;

	(void)state;
	assert_true(out >= 0);
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigaction(SIGINT, &ign, &old_int);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old_mask);
	struct target_io io = { true, out, -1 };
	assert_int_equal(target_launch_io(&t, argv, &io, err, sizeof(err)), 0);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	start_ok(&t);
	assert_true(wait_end(&t));
	assert_int_equal(t.status, 0);
	assert_true(pread(out, buf, sizeof(buf) - 1, 0) > 0);
	unsigned long long blk = 1, ignored = 1;
	assert_int_equal(sscanf(buf, "SigBlk: %llx SigIgn: %llx", &blk, &ignored), 2);
	assert_int_equal(blk, 0);
	/* but signals 32 and 33, glibc's own, which its sigaction refuses
	 * (make check's environment ignores 32) */
	assert_int_equal(ignored & ~(3ULL << 31), 0);
	close(out);
	unlink(path);
	assert_no_children();
}

/* /proc status files as a fake kernel serves them: ours and the target's. */
static const char *self_status, *target_status;

static FILE *fake_status(const char *path, const char *mode)
{
	const char *text = strcmp(path, "/proc/self/status") == 0 ? self_status
			   : strstr(path, "/status") ? target_status : NULL;

	if (!text)
		return sys_real_ops()->fopen(path, mode);
	return fmemopen((void *)text, strlen(text), "r");
}

static int attach_as(const char *self, const char *target, char *err, size_t errsz)
{
	struct sys_ops ops = *sys_real_ops();
	struct target t;

	self_status = self;
	target_status = target;
	ops.fopen = fake_status;
	sys_set_ops(&ops);
	int rc = target_attach(&t, getpid(), err, errsz);
	sys_set_ops(NULL);
	return rc;
}

/* Another user's process without CAP_SYS_PTRACE: ptrace access is named,
 * with both uids; the same user, or the capability, passes. */
static void test_attach_other_user(void **state)
{
	static const char me[] = "Name:\tx\nUid:\t1000\t1000\t1000\t1000\n"
				 "Gid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n";
	static const char root[] = "Name:\tx\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"
				   "CapEff:\t000001ffffffffff\n";
	static const char setuid[] = "Name:\tx\nUid:\t1000\t0\t0\t0\n"
				     "Gid:\t1000\t1000\t1000\t1000\nCapEff:\t0\n";
	char err[512] = "";

	(void)state;
	assert_int_equal(attach_as(me, root, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "permission denied"));
	assert_non_null(strstr(err, "it runs as uid 0, cyctop as uid 1000"));
	assert_non_null(strstr(err, "CAP_SYS_PTRACE"));
	assert_null(strstr(err, "paranoid"));
	assert_int_equal(attach_as(me, setuid, err, sizeof(err)), -1);  /* a setuid program */
	assert_int_equal(attach_as(me, me, err, sizeof(err)), 0);
	assert_int_equal(attach_as(root, me, err, sizeof(err)), 0);     /* CAP_SYS_PTRACE */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_comm_from_argv),
		cmocka_unit_test(test_missing_command),
		cmocka_unit_test(test_not_executable),
		cmocka_unit_test(test_no_command),
		cmocka_unit_test(test_finish_running),
		cmocka_unit_test(test_finish_ignores_term),
		cmocka_unit_test(test_go_eof_exits),
		cmocka_unit_test(test_finish_without_start),
		cmocka_unit_test(test_poll_before_start),
		cmocka_unit_test(test_attach_self),
		cmocka_unit_test(test_attach_fails),
		cmocka_unit_test(test_attach_ends),
		cmocka_unit_test(test_tids),
		cmocka_unit_test(test_fork_fails),
		cmocka_unit_test(test_pipe_fails),
		cmocka_unit_test(test_launch_io),
		cmocka_unit_test(test_default_signals),
		cmocka_unit_test(test_attach_other_user),
	};

	/* a child's exit must not be reaped behind the tests' back */
	signal(SIGCHLD, SIG_DFL);
	alarm(120);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

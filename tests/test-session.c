/* The session against a kernel that refuses: perf_event_open failing with
 * EACCES (perf_event_paranoid, another user's process) or EMFILE gives one
 * line naming the pid or the event and the reason, and leaves no child. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/session.h"
#include "engine/sys.h"

static int refuse_errno;
static int opens;

static int refusing_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags)
{
	(void)attr, (void)pid, (void)cpu, (void)group_fd, (void)flags;
	opens++;
	errno = refuse_errno;
	return -1;
}

static struct sys_ops ops;

static void refuse(int e)
{
	ops = *sys_real_ops();
	ops.perf_event_open = refusing_open;
	refuse_errno = e;
	opens = 0;
	sys_set_ops(&ops);
}

static void no_child_left(void)
{
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static void test_attach_eacces(void **state)
{
	struct session_opts o = { .pid = getpid(), .events = "cpu-clock" };
	char err[512] = "";

	(void)state;
	refuse(EACCES);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_true(opens >= 1);
	char want[64];
	snprintf(want, sizeof(want), "cannot watch pid %d: ", (int)getpid());
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "perf_event_paranoid"));
	assert_null(strchr(err, '\n'));
}

static void test_launch_eacces(void **state)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	struct session_opts o = { .argv = argv, .events = "cpu-clock" };
	char err[512] = "";

	(void)state;
	refuse(EACCES);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_non_null(strstr(err, "cpu-clock"));
	no_child_left();  /* the launched command never ran, and was reaped */
}

static void test_launch_emfile(void **state)
{
	char *argv[] = { "/bin/sleep", "30", NULL };
	struct session_opts o = { .argv = argv, .events = "cpu-clock,page-faults" };
	char err[512] = "";

	(void)state;
	refuse(EMFILE);
	assert_null(session_open(&o, err, sizeof(err)));
	sys_set_ops(NULL);
	assert_non_null(strstr(err, "cpu-clock"));
	assert_non_null(strcasestr(err, "too many open files"));
	no_child_left();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach_eacces),
		cmocka_unit_test(test_launch_eacces),
		cmocka_unit_test(test_launch_emfile),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

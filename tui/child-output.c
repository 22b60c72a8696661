#include "tui/child-output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui/cmd.h"

/* A fresh file in $TMPDIR (mkstemp: no name another user could plant). */
static int open_log(struct child_output *c)
{
	const char *dir = getenv("TMPDIR");

	snprintf(c->path, sizeof(c->path), "%s/cyctop-output.XXXXXX", dir && *dir ? dir : "/tmp");
	c->out_fd = mkostemp(c->path, O_CLOEXEC);
	if (c->out_fd < 0) {
		cmd_error("cannot create a log for the command's output in %s: %s (--child-output "
			  "FILE, null or tty)", dir && *dir ? dir : "/tmp", strerror(errno));
		return -1;
	}
	c->is_log = true;
	return 0;
}

static int open_spec(struct child_output *c, const char *spec)
{
	const char *path = strcmp(spec, "null") == 0 ? "/dev/null" : spec;

	c->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (c->out_fd < 0) {
		cmd_error("--child-output %s: %s", spec, strerror(errno));
		return -1;
	}
	if (path == spec)
		snprintf(c->path, sizeof(c->path), "%s", spec);
	return 0;
}

/* The command's stdout and stderr on cyctop's stderr: cyctop's stdout is
 * a machine format, which nothing else may enter (perf stat's report and
 * the program's output are apart in the same way). */
static int open_stderr(struct child_output *c, struct target_io *io)
{
	c->out_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (c->out_fd < 0) {
		cmd_error("cannot send the command's output to stderr: %s (--child-output "
			  "FILE, null or tty)", strerror(errno));
		return -1;
	}
	io->redirect = true;
	io->out_fd = c->out_fd;
	io->in_fd = -1;
	return 0;
}

int child_output_open(struct child_output *c, const char *spec, bool interactive,
		      bool machine_stdout, struct target_io *io)
{
	memset(c, 0, sizeof(*c));
	c->out_fd = c->in_fd = -1;
	memset(io, 0, sizeof(*io));
	if (!spec && !interactive && machine_stdout)
		return open_stderr(c, io);
	if ((spec && strcmp(spec, "tty") == 0) || (!spec && !interactive))
		return 0;  /* cyctop's own streams, as a shell would give them */
	if (spec ? open_spec(c, spec) < 0 : open_log(c) < 0)
		return -1;
	/* the view reads the keys: a command reading stdin must not take them */
	if (interactive && (c->in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) {
		cmd_error("/dev/null: %s", strerror(errno));
		child_output_close(c);
		return -1;
	}
	io->redirect = true;
	io->out_fd = c->out_fd;
	io->in_fd = c->in_fd;
	return 0;
}

void child_output_close(struct child_output *c)
{
	struct stat st;

	if (c->is_log && c->out_fd >= 0) {
		if (fstat(c->out_fd, &st) == 0 && st.st_size == 0)
			unlink(c->path);
		else
			cmd_error("the command's output is in %s", c->path);
	}
	if (c->out_fd >= 0)
		close(c->out_fd);
	if (c->in_fd >= 0)
		close(c->in_fd);
	c->out_fd = c->in_fd = -1;
	c->is_log = false;
}

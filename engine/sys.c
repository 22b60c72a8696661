/* The only file that talks to the kernel directly. */
#include "engine/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int real_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int real_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg);
}

static void *real_mmap(size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(NULL, len, prot, flags, fd, off);
}

static uint64_t real_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static long real_ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_CONF);
}

static const struct sys_ops real_ops = {
	.perf_event_open = real_perf_event_open,
	.ioctl = real_ioctl,
	.read = read,
	.write = write,
	.mmap = real_mmap,
	.munmap = munmap,
	.close = close,
	.poll = poll,
	.pipe2 = pipe2,
	.fork = fork,
	.execvp = execvp,
	.waitpid = waitpid,
	.kill = kill,
	.fopen = fopen,
	.opendir = opendir,
	.ncpus = real_ncpus,
	.dup2 = dup2,
	.geteuid = geteuid,
	.readlink = readlink,
	.thread_cpu_ns = real_thread_cpu_ns,
};

static const struct sys_ops *ops = &real_ops;

const struct sys_ops *sys_set_ops(const struct sys_ops *new_ops)
{
	const struct sys_ops *old = ops;

	ops = new_ops ? new_ops : &real_ops;
	return old;
}

const struct sys_ops *sys_real_ops(void)
{
	return &real_ops;
}

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags)
{
	return ops->perf_event_open(attr, pid, cpu, group_fd, flags);
}

int sys_ioctl(int fd, unsigned long req, unsigned long arg) { return ops->ioctl(fd, req, arg); }
ssize_t sys_read(int fd, void *buf, size_t n) { return ops->read(fd, buf, n); }
ssize_t sys_write(int fd, const void *buf, size_t n) { return ops->write(fd, buf, n); }
void *sys_mmap(size_t len, int prot, int flags, int fd, off_t off)
{
	return ops->mmap(len, prot, flags, fd, off);
}
int sys_munmap(void *p, size_t len) { return ops->munmap(p, len); }
int sys_close(int fd) { return ops->close(fd); }
int sys_poll(struct pollfd *fds, nfds_t n, int timeout_ms) { return ops->poll(fds, n, timeout_ms); }
int sys_pipe2(int fds[2], int flags) { return ops->pipe2(fds, flags); }
pid_t sys_fork(void) { return ops->fork(); }
int sys_execvp(const char *file, char *const argv[]) { return ops->execvp(file, argv); }
pid_t sys_waitpid(pid_t pid, int *status, int options) { return ops->waitpid(pid, status, options); }
int sys_kill(pid_t pid, int sig) { return ops->kill(pid, sig); }
FILE *sys_fopen(const char *path, const char *mode) { return ops->fopen(path, mode); }
DIR *sys_opendir(const char *path) { return ops->opendir(path); }
long sys_ncpus(void) { return ops->ncpus(); }
uid_t sys_geteuid(void) { return ops->geteuid(); }
ssize_t sys_readlink(const char *path, char *buf, size_t n)
{
	return (ops->readlink ? ops->readlink : readlink)(path, buf, n);
}

uint64_t sys_thread_cpu_ns(void)
{
	return (ops->thread_cpu_ns ? ops->thread_cpu_ns : real_thread_cpu_ns)();
}

int sys_is_stream(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode);
}

int sys_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}
int sys_dup2(int oldfd, int newfd) { return ops->dup2(oldfd, newfd); }

const char *sys_perf_strerror(int err)
{
	switch (err) {
	case ENOENT:
		return "no such event on this host's PMU (a VM without a hardware PMU has none)";
	case EACCES:
	case EPERM:
		return "permission denied (see /proc/sys/kernel/perf_event_paranoid; "
		       "sysctl kernel.perf_event_paranoid=1 or run as root)";
	case EOPNOTSUPP:
		return "not supported for this event";
	case EINVAL:
		return "invalid combination of event settings";
	case EMFILE:
		return "too many open files (raise ulimit -n)";
	case ESRCH:
		return "no such process";
	case E2BIG:
		return "perf_event_attr size not accepted by this kernel";
	case ENODEV:
		return "no such PMU device";
	default:
		return strerror(err);
	}
}

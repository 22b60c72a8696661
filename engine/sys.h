/* The seam: every system call the engine makes goes through these
 * functions, so tests can substitute a fake kernel (sys_set_ops). */
#ifndef ENGINE_SYS_H
#define ENGINE_SYS_H

#include <dirent.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct sys_ops {
	int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			       unsigned long flags);
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	ssize_t (*read)(int fd, void *buf, size_t n);
	ssize_t (*write)(int fd, const void *buf, size_t n);
	void *(*mmap)(size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *p, size_t len);
	int (*close)(int fd);
	int (*poll)(struct pollfd *fds, nfds_t n, int timeout_ms);
	int (*pipe2)(int fds[2], int flags);
	pid_t (*fork)(void);
	int (*execvp)(const char *file, char *const argv[]);
	pid_t (*waitpid)(pid_t pid, int *status, int options);
	int (*kill)(pid_t pid, int sig);
	FILE *(*fopen)(const char *path, const char *mode);
	DIR *(*opendir)(const char *path);
	long (*ncpus)(void);
	int (*dup2)(int oldfd, int newfd);
	uid_t (*geteuid)(void);
	ssize_t (*readlink)(const char *path, char *buf, size_t n);  /* NULL: the real one */
	uint64_t (*thread_cpu_ns)(void);  /* NULL: the real one */
};

/* Replaces the ops (NULL restores the real kernel); returns the old ones. */
const struct sys_ops *sys_set_ops(const struct sys_ops *ops);
const struct sys_ops *sys_real_ops(void);

int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			unsigned long flags);
int sys_ioctl(int fd, unsigned long req, unsigned long arg);
ssize_t sys_read(int fd, void *buf, size_t n);
ssize_t sys_write(int fd, const void *buf, size_t n);
void *sys_mmap(size_t len, int prot, int flags, int fd, off_t off);
int sys_munmap(void *p, size_t len);
int sys_close(int fd);
int sys_poll(struct pollfd *fds, nfds_t n, int timeout_ms);
int sys_pipe2(int fds[2], int flags);
pid_t sys_fork(void);
int sys_execvp(const char *file, char *const argv[]);
pid_t sys_waitpid(pid_t pid, int *status, int options);
int sys_kill(pid_t pid, int sig);
FILE *sys_fopen(const char *path, const char *mode);
DIR *sys_opendir(const char *path);
long sys_ncpus(void);
/* Whether FD is a pipe, FIFO, socket or terminal: data that comes as it is
 * written, not a file read whole. */
int sys_is_stream(int fd);
/* Makes FD's reads return EAGAIN instead of waiting; 0 or -1. */
int sys_set_nonblock(int fd);
int sys_dup2(int oldfd, int newfd);
uid_t sys_geteuid(void);
ssize_t sys_readlink(const char *path, char *buf, size_t n);
/* The calling thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID): what work
 * costs this thread, without the time others ran while it waited. */
uint64_t sys_thread_cpu_ns(void);

/* What an errno from perf_event_open means here, in a few words. */
const char *sys_perf_strerror(int err);

#endif

/* The off-CPU reasons' table: kernel functions a blocked thread's stack
 * passes through, and the C library wrappers a user stack ends in.
 *
 * Checked against Linux 6.1 (Debian bookworm's) and 6.18 (our VMs', the
 * names in its /proc/kallsyms): kernel/time/hrtimer.c (do_nanosleep,
 * hrtimer_nanosleep, schedule_hrtimeout*), kernel/time/timer.c
 * (schedule_timeout, msleep), kernel/futex/waitwake.c (futex_wait,
 * futex_wait_multiple, __futex_wait; futex_wait_queue is inlined in 6.18),
 * kernel/futex/pi.c, kernel/locking/mutex.c (__mutex_lock_slowpath and
 * its killable/interruptible twins, __mutex_lock.constprop.0),
 * kernel/locking/rwsem.c (rwsem_down_*_slowpath),
 * kernel/locking/percpu-rwsem.c, kernel/sched/core.c (io_schedule*),
 * mm/filemap.c (folio_wait_bit_common, __folio_lock,
 * folio_wait_writeback), block/blk-mq-tag.c (blk_mq_get_tag), block/bio.c
 * (submit_bio_wait), block/blk-flush.c (blkdev_issue_flush), fs/sync.c
 * (do_fsync, vfs_fsync_range), mm/filemap.c (file_write_and_wait_range),
 * fs/jbd2/journal.c (jbd2_log_wait_commit, jbd2_complete_transaction),
 * fs/ext4/fsync.c (ext4_sync_file), fs/pipe.c (pipe_read/pipe_write in
 * 6.1; anon_pipe_read, fifo_pipe_read in 6.18; pipe_wait_readable),
 * net/core/sock.c (sk_wait_data, __lock_sock: a socket's lock is a wait
 * on its owner), net/unix/af_unix.c (unix_stream_read_generic),
 * net/ipv4/inet_connection_sock.c (inet_csk_accept), fs/select.c
 * (do_select, do_sys_poll; do_poll inlined in 6.18), fs/eventpoll.c
 * (do_epoll_wait; ep_poll inlined), kernel/exit.c (do_wait,
 * kernel_wait4), kernel/signal.c (sigsuspend, do_sigtimedwait),
 * drivers/tty/n_tty.c (n_tty_read).  The syscall entries
 * (__x64_sys_*) come last on a stack, innermost first: they decide only
 * when nothing inside them is in the table. */
#include "arch/offcpu.h"

#include <string.h>

struct offcpu_row {
	const char *func;
	enum offcpu_reason reason;
	bool prefix;   /* FUNC is a prefix: futex_wait_* */
	bool user;     /* a user function (the C library's), not the kernel's */
};

#define K(f, r) { f, OFFCPU_##r, false, false }
#define KP(f, r) { f, OFFCPU_##r, true, false }
#define U(f, r) { f, OFFCPU_##r, false, true }
#define UP(f, r) { f, OFFCPU_##r, true, true }

static const struct offcpu_row rows[] = {
	/* sleep: timers */
	K("do_nanosleep", SLEEP), K("hrtimer_nanosleep", SLEEP),
	KP("schedule_hrtimeout", SLEEP), K("msleep", SLEEP), K("msleep_interruptible", SLEEP),
	K("__x64_sys_nanosleep", SLEEP), K("__x64_sys_clock_nanosleep", SLEEP),
	K("__arm64_sys_nanosleep", SLEEP), K("__arm64_sys_clock_nanosleep", SLEEP),
	/* lock: futexes, kernel mutexes and rwsems */
	KP("futex_wait", LOCK), K("__futex_wait", LOCK), KP("futex_lock_pi", LOCK),
	KP("__mutex_lock", LOCK), KP("mutex_lock", LOCK), KP("rt_mutex", LOCK),
	KP("__rt_mutex", LOCK), KP("rwsem_down_", LOCK), K("percpu_rwsem_wait", LOCK),
	KP("__ww_mutex_lock", LOCK), K("__x64_sys_futex", LOCK), K("__arm64_sys_futex", LOCK),
	/* io: the block layer, page-cache waits, fsync paths */
	KP("io_schedule", IO), KP("folio_wait", IO), K("__folio_lock", IO),
	K("__folio_lock_killable", IO), KP("wait_on_page", IO), K("__lock_page", IO),
	KP("blk_", IO), K("submit_bio_wait", IO), K("bio_wait", IO),
	K("blkdev_issue_flush", IO), K("jbd2_log_wait_commit", IO),
	K("jbd2_complete_transaction", IO), K("ext4_sync_file", IO),
	K("xfs_file_fsync", IO), K("btrfs_sync_file", IO), K("file_write_and_wait_range", IO),
	K("vfs_fsync_range", IO), K("do_fsync", IO), K("__x64_sys_fsync", IO),
	K("__x64_sys_fdatasync", IO), K("__arm64_sys_fsync", IO), K("__arm64_sys_fdatasync", IO),
	/* wait: another process, the network, a terminal */
	K("pipe_read", WAIT), K("pipe_write", WAIT), K("anon_pipe_read", WAIT),
	K("anon_pipe_write", WAIT), K("fifo_pipe_read", WAIT), K("fifo_pipe_write", WAIT),
	KP("pipe_wait", WAIT), K("sk_wait_data", WAIT), K("__lock_sock", WAIT),
	K("sk_stream_wait_memory", WAIT), K("unix_stream_read_generic", WAIT),
	K("unix_stream_data_wait", WAIT), K("__skb_wait_for_more_packets", WAIT),
	K("inet_csk_accept", WAIT), K("do_poll", WAIT), K("do_sys_poll", WAIT),
	K("do_select", WAIT), K("core_sys_select", WAIT), K("ep_poll", WAIT),
	K("do_epoll_wait", WAIT), K("do_wait", WAIT), K("kernel_wait4", WAIT),
	K("sigsuspend", WAIT), K("do_sigtimedwait", WAIT), K("n_tty_read", WAIT),
	K("wait_woken", WAIT), K("__x64_sys_wait4", WAIT), K("__x64_sys_pause", WAIT),
	K("__arm64_sys_wait4", WAIT),
	/* the C library's blocking calls, when the kernel's frames are not
	 * there (perf_event_paranoid 2: no kernel call chains); glibc 2.36's
	 * names, as perf names them from its symbol table */
	U("clock_nanosleep", SLEEP), UP("__clock_nanosleep", SLEEP), U("nanosleep", SLEEP),
	U("__nanosleep", SLEEP), U("usleep", SLEEP), U("sleep", SLEEP),
	UP("__lll_lock_wait", LOCK), UP("__futex_abstimed_wait", LOCK),
	U("futex_wait", LOCK), UP("pthread_mutex_lock", LOCK), UP("___pthread_mutex_lock", LOCK),
	UP("pthread_cond_", LOCK), UP("___pthread_cond_", LOCK), UP("pthread_rwlock_", LOCK),
	UP("sem_wait", LOCK), UP("__new_sem_wait", LOCK), U("syscall", OTHER),
	U("fsync", IO), U("fdatasync", IO), U("__libc_fsync", IO), U("sync_file_range", IO),
	U("msync", IO), U("read", WAIT), U("__libc_read", WAIT), U("write", WAIT),
	U("__libc_write", WAIT), U("poll", WAIT), U("__poll", WAIT), U("ppoll", WAIT),
	U("select", WAIT), U("__select", WAIT), U("pselect", WAIT), U("epoll_wait", WAIT),
	U("epoll_pwait", WAIT), U("wait4", WAIT), U("__wait4", WAIT), U("waitpid", WAIT),
	U("__waitpid", WAIT), U("waitid", WAIT), U("recv", WAIT), U("recvfrom", WAIT),
	U("recvmsg", WAIT), U("__libc_recv", WAIT), U("accept", WAIT), U("accept4", WAIT),
	U("pause", WAIT), U("sigsuspend", WAIT), U("sigwaitinfo", WAIT),
};

static const char *const names[OFFCPU_REASONS] = {
	[OFFCPU_RUNNABLE] = "runnable", [OFFCPU_SLEEP] = "sleep", [OFFCPU_LOCK] = "lock",
	[OFFCPU_IO] = "io", [OFFCPU_WAIT] = "wait", [OFFCPU_OTHER] = "other",
};

const char *offcpu_reason_name(enum offcpu_reason r)
{
	return (unsigned)r < OFFCPU_REASONS ? names[r] : "other";
}

/* FUNC's length without a compiler's clone suffix (".isra.0",
 * ".constprop.0", ".part.0", ".cold"): kallsyms names clones so. */
static size_t base_len(const char *func)
{
	const char *dot = strchr(func, '.');

	return dot ? (size_t)(dot - func) : strlen(func);
}

static bool lookup(const char *func, bool user, enum offcpu_reason *r)
{
	size_t len;

	if (!func)
		return false;
	len = user ? strlen(func) : base_len(func);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct offcpu_row *w = &rows[i];
		size_t n = strlen(w->func);
		if (w->user != user || len < n || strncmp(func, w->func, n) != 0 ||
		    (!w->prefix && len != n))
			continue;
		*r = w->reason;
		return true;
	}
	return false;
}

bool offcpu_kernel_reason(const char *func, enum offcpu_reason *r)
{
	return lookup(func, false, r);
}

bool offcpu_user_reason(const char *func, enum offcpu_reason *r)
{
	return lookup(func, true, r);
}

/* The reason of the first of FUNCS[N] in the table's kernel or USER rows. */
static bool first_reason(const char *const *funcs, size_t n, bool user, enum offcpu_reason *r)
{
	for (size_t i = 0; i < n; i++)
		if (lookup(funcs[i], user, r))
			return true;
	return false;
}

enum offcpu_reason offcpu_classify(bool preempted, const char *const *kfuncs, size_t nk,
				   const char *const *ufuncs, size_t nu)
{
	enum offcpu_reason r;

	if (preempted)
		return OFFCPU_RUNNABLE;
	if (first_reason(kfuncs, nk, false, &r) || first_reason(ufuncs, nu, true, &r))
		return r;
	return OFFCPU_OTHER;
}

bool offcpu_table_row(size_t i, const char **func, enum offcpu_reason *r, bool *prefix,
		      bool *user)
{
	if (i >= sizeof(rows) / sizeof(rows[0]))
		return false;
	*func = rows[i].func;
	*r = rows[i].reason;
	*prefix = rows[i].prefix;
	*user = rows[i].user;
	return true;
}

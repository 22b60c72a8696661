/* Threads and processes in the profile: the names COMM records and /proc
 * give them, their forks and exits (records come in time order,
 * engine/ordered.h), the zooms snapshots show and the bounds of the
 * per-thread data.  Their rows are engine/profile.c's (profile-priv.h). */
#include "engine/profile-priv.h"

#include <stdio.h>
#include <string.h>

static void row_set_name(struct thread_row *t, const char *comm)
{
	snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "");
}

void profile_set_thread_name(struct profile *p, uint32_t tid, const char *comm)
{
	struct thread_row *t = profile_table_get(p, &p->threads, tid);

	if (t && t != p->threads.other)
		row_set_name(t, comm);
}

/* A new thread (process) takes its parent's name and owner.  Records come in
 * time order (engine/ordered.h), so nothing of the child's precedes its
 * FORK; a row that ended before is an id that came round again: a new life
 * (its samples add to the old ones). */
static void table_fork(struct profile *p, struct row_table *tab, uint32_t tid,
		       uint32_t parent_tid)
{
	struct thread_row *t = profile_table_get(p, tab, tid);
	const struct thread_row *parent = profile_table_find(tab, parent_tid);  /* after: may grow */

	if (!t || t == tab->other)
		return;
	bool new_life = t->ended;  /* the id came round again */
	t->ended = false;
	if (!parent || parent == t || parent == tab->other)
		return;
	if (!t->user[0] || new_life)
		memcpy(t->user, parent->user, sizeof(t->user));
	if ((!t->comm[0] || new_life) && parent->comm[0])
		memcpy(t->comm, parent->comm, sizeof(t->comm));
	if (!t->cgroup[0] || new_life)
		memcpy(t->cgroup, parent->cgroup, sizeof(t->cgroup));
}

void profile_thread_fork(struct profile *p, uint32_t tid, uint32_t parent_tid)
{
	table_fork(p, &p->threads, tid, parent_tid);
}

/* The row is made if need be (a thread known by its EXIT alone is listed
 * ended when it has samples). */
static void table_exit(struct profile *p, struct row_table *tab, uint32_t tid)
{
	struct thread_row *t = tid == PROFILE_TID_OTHER ? NULL : profile_table_get(p, tab, tid);

	if (t && t != tab->other)
		t->ended = true;
}

void profile_thread_exit(struct profile *p, uint32_t tid)
{
	table_exit(p, &p->threads, tid);
}

bool profile_process_named(const struct profile *p, uint32_t pid)
{
	const struct thread_row *t = profile_table_find(&p->procs, pid);

	return t && ((t->comm[0] && t->user[0]) || t == p->procs.other);
}

const char *profile_process_comm(const struct profile *p, uint32_t pid)
{
	const struct thread_row *t = p->by_process ? profile_table_find(&p->procs, pid) : NULL;

	return t && t->comm[0] ? t->comm : NULL;
}

void profile_process_fill(struct profile *p, uint32_t pid, const char *comm, const char *user)
{
	struct thread_row *t = p->by_process ? profile_table_get(p, &p->procs, pid) : NULL;

	if (!t || t == p->procs.other)
		return;
	if (!t->user[0])
		snprintf(t->user, sizeof(t->user), "%s", user);
	if (!t->comm[0])
		row_set_name(t, comm);
}

void profile_set_process(struct profile *p, uint32_t pid, const char *comm, const char *user)
{
	struct thread_row *t = p->by_process ? profile_table_get(p, &p->procs, pid) : NULL;

	if (!t || t == p->procs.other)
		return;
	if (user)
		snprintf(t->user, sizeof(t->user), "%s", user);
	if (comm)
		row_set_name(t, comm);
}

void profile_set_process_cgroup(struct profile *p, uint32_t pid, const char *name)
{
	struct thread_row *t = p->by_process ? profile_table_get(p, &p->procs, pid) : NULL;

	if (t && t != p->procs.other && strcmp(t->cgroup, name) != 0)
		snprintf(t->cgroup, sizeof(t->cgroup), "%s", name);
}

void profile_process_fork(struct profile *p, uint32_t pid, uint32_t ppid)
{
	if (p->by_process)
		table_fork(p, &p->procs, pid, ppid);
}

void profile_process_exit(struct profile *p, uint32_t pid)
{
	if (p->by_process)
		table_exit(p, &p->procs, pid);
}

void profile_set_process_filter(struct profile *p, int64_t pid)
{
	p->pfilter = pid;
}

void profile_set_thread_filter(struct profile *p, uint32_t tid)
{
	p->filter = tid;
}

void profile_set_limits(struct profile *p, size_t max_threads, size_t max_cells)
{
	if (max_threads)
		p->threads.max = p->procs.max = max_threads;
	if (max_cells)
		p->max_cells = max_cells;
}

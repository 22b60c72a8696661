/* A session's address spaces: one per process seen, its mappings and
 * symbols (engine/symbols.h) and its unwinder, found by pid through a hash
 * table (lib/hashtab.h); those of processes that exited are freed after a
 * grace period (live) or when the spaces run short.  The core (session.c)
 * makes them as records name processes; the writers and the asm view walk
 * them through the functions below. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "engine/symbols.h"
#include "engine/sys.h"
#include "engine/unwind.h"

/* --- address spaces ----------------------------------------------------- */

/* Address spaces with symbols of their own.  Past this many processes (a
 * fork storm, a hostile file) the spaces of processes that exited are
 * freed; with none to free, a new process gets none (its samples count, in
 * [unknown]): never another process's mappings. */
#define MAX_SPACES 4096

static bool space_is(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct session *)ctx)->spaces[idx].pid == *(const pid_t *)key;
}

/* The space of PID if its hint holds it, else NULL. */
static inline struct space *space_hinted(struct session *s, pid_t pid)
{
	const struct space_hint *h = &s->space_hints[(uint32_t)pid % SPACE_HINTS];

	if (h->pid == pid && h->k < s->nspaces && s->spaces[h->k].pid == pid)
		return &s->spaces[h->k];
	return NULL;
}

struct space *space_find(struct session *s, pid_t pid)
{
	struct space_hint *h = &s->space_hints[(uint32_t)pid % SPACE_HINTS];
	struct space *sp = space_hinted(s, pid);
	uint32_t k;

	if (sp)
		return sp;
	k = hashtab_find(&s->space_index, hash_mix((uint32_t)pid), &pid, space_is, s);
	if (k == HASHTAB_NONE)
		return NULL;
	h->pid = pid;
	h->k = (int)k;
	return &s->spaces[k];
}

static int index_space(struct session *s, int k)
{
	return hashtab_add(&s->space_index, hash_mix((uint32_t)s->spaces[k].pid), (uint32_t)k);
}

static void space_free(struct space *sp)
{
	symtab_free(sp->st);
	unwinder_free(sp->uw);
}

/* Frees the spaces of processes that exited at or before BEFORE (now_ns;
 * UINT64_MAX: all; the target's is kept: the asm view looks there first)
 * and re-indexes the rest.  Every space pointer taken before is invalid
 * after, and so is every string their symbol tables gave: the profile
 * hears of it (it remembers the addresses of the names it was given). */
static void spaces_evict_exited(struct session *s, uint64_t before)
{
	int kept = 0;

	for (int k = 0; k < s->nspaces; k++) {
		if (s->spaces[k].exited && s->spaces[k].exit_ns <= before &&
		    (s->system_wide || s->spaces[k].pid != s->target.pid))
			space_free(&s->spaces[k]);
		else
			s->spaces[kept++] = s->spaces[k];
	}
	if (kept < s->nspaces) {  /* the names they were given may be gone */
		profile_symbols_freed(s->prof);
		memset(s->canon_hints, 0, sizeof(s->canon_hints));
	}
	s->nspaces = kept;
	hashtab_clear(&s->space_index);
	for (int k = 0; k < kept; k++)
		index_space(s, k);  /* no memory needed: the table only shrank */
}

/* A process's records may still be on their way from other CPUs' rings a
 * moment after its EXIT: every ring is drained at each poll (at most 100 ms
 * apart, the UI's tick and batch mode's wait), and the time-ordered queue
 * lets a record through one round later (a process's samples were written
 * before its EXIT: they are delivered before it).  Half a second later,
 * five polls at least, its symbols are freed:
 * a busy machine makes hundreds of processes a second, each space holding
 * its mappings and libdwfl's view of its files (the function tables are
 * shared, engine/elf-funcs.c). */
#define SPACE_GRACE_NS 500000000ull

/* Live: frees the spaces of processes that exited over SPACE_GRACE_NS ago
 * (checked four times as often). */
void session_spaces_expire(struct session *s)
{
	uint64_t t = session_now_ns();

	if (t - s->last_expire < SPACE_GRACE_NS / 4)
		return;
	s->last_expire = t;
	for (int k = 0; k < s->nspaces; k++)
		if (s->spaces[k].exited && t - s->spaces[k].exit_ns > SPACE_GRACE_NS) {
			spaces_evict_exited(s, t - SPACE_GRACE_NS);
			/* what the freed spaces held goes back to the system, not
			 * only to malloc's free lists (peak RSS on a busy machine) */
			malloc_trim(0);
			return;
		}
}

/* Live, system-wide: a lost record may have been a process's EXIT, and
 * that process would be listed running until its pid came round again (at
 * load 23 a ring overflowed and a process that ended was still running in
 * 80 tables).  After records were lost, each space not known to have
 * exited is asked of the kernel (signal 0): one that is gone ends now. */
void session_spaces_reap(struct session *s)
{
	uint64_t lost = profile_lost_records(s->prof);

	if (lost == s->reaped_lost)
		return;
	s->reaped_lost = lost;
	for (int k = 0; k < s->nspaces; k++) {
		struct space *sp = &s->spaces[k];
		if (sp->exited || sp->pid <= 0 || sys_kill(sp->pid, 0) == 0 || errno != ESRCH)
			continue;
		sp->exited = true;
		sp->exit_ns = session_now_ns();
		profile_thread_exit(s->prof, (uint32_t)sp->pid);
		profile_process_exit(s->prof, (uint32_t)sp->pid);
	}
}

/* space_get when PID's hint misses: found, or made.  A function of its
 * own, so that the hint's path saves none of the registers it needs. */
static __attribute__((noinline)) struct space *space_find_or_add(struct session *s, pid_t pid)
{
	struct space *sp = space_find(s, pid);

	if (sp)
		return sp;
	if (s->nspaces == MAX_SPACES)
		spaces_evict_exited(s, UINT64_MAX);
	if (s->nspaces == MAX_SPACES)
		return NULL;
	if (GROW(s->spaces, (size_t)s->nspaces + 1, s->capspaces) < 0 ||
	    (!s->images && !(s->images = func_images_new(&s->naming))))
		return NULL;
	sp = &s->spaces[s->nspaces];
	sp->pid = pid;
	sp->st = symtab_new(s->images);
	sp->last_refresh = 0;
	sp->uw = NULL;
	sp->exited = false;
	sp->exit_ns = 0;
	if (!sp->st || index_space(s, s->nspaces) < 0) {
		symtab_free(sp->st);
		return NULL;
	}
	if (s->src->space_init)
		s->src->space_init(s, sp);
	s->nspaces++;
	return sp;
}

/* The space of process PID, made if new.  It may move the spaces: a pointer
 * to another space taken before is invalid after.  Once a sample: the hint
 * checked first, without the frame of the rest. */
struct space *space_get(struct session *s, pid_t pid)
{
	struct space *sp = space_hinted(s, pid);

	return sp ? sp : space_find_or_add(s, pid);
}

/* A sample outside every known mapping: the mapping record may be in another
 * CPU's ring or predate the watch; re-read /proc/PID/maps, rate-limited. */
void session_space_refresh(struct space *sp)
{
	uint64_t t = session_now_ns();

	if (t - sp->last_refresh < MAP_REFRESH_NS)
		return;
	sp->last_refresh = t;
	symtab_add_proc_maps(sp->st, sp->pid);
}

/* A new process starts with its parent's mappings (records come in time
 * order: nothing of the child's can precede its FORK, but a file may hold a
 * process made before the recording: a live space is kept).  A pid whose
 * process exited is another process now: the dead one's mappings and
 * unwinder go, and the space lives again (not freed as exited).  The
 * child's space is made first: making it may move the parent's. */
void session_fork_space(struct session *s, pid_t pid, pid_t ppid)
{
	struct space *child = space_find(s, pid);

	if (child && !child->exited)
		return;
	if (child) {
		symtab_clear(child->st);
		if (child->uw)
			unwinder_flush(child->uw);
		child->exited = false;
		child->exit_ns = 0;
	} else if (!(child = space_get(s, pid))) {
		return;
	}
	struct space *parent = space_find(s, ppid);
	if (parent)
		symtab_copy_maps(child->st, parent->st);
}

void session_spaces_naming(struct session *s, const struct sym_naming *how,
			   struct func_images *lent)
{
	s->naming = how ? *how : (struct sym_naming){ 0 };
	s->images = lent;
	s->images_lent = lent != NULL;
}

const struct sym_naming *session_naming(const struct session *s)
{
	return &s->naming;
}

/* Frees every space (session_close), then their function tables (names
 * the profile copied). */
void session_spaces_free(struct session *s)
{
	for (int i = 0; i < s->nspaces; i++)
		space_free(&s->spaces[i]);
	free(s->spaces);
	s->spaces = NULL;
	s->nspaces = 0;
	hashtab_free(&s->space_index);
	if (!s->images_lent)
		func_images_free(s->images);
	s->images = NULL;
}

/* --- walks for the writers (pprof-write.c, session-record.c) ------------- */

void session_foreach_build_id(struct session *s, symtab_build_id_fn fn, void *arg)
{
	for (int k = 0; k < s->nspaces; k++)
		if (s->spaces[k].st)
			symtab_foreach_build_id(s->spaces[k].st, fn, arg);
}

struct symtab *session_symtab_mapping(struct session *s, uint64_t addr, const char *module,
				      struct symtab_map *m)
{
	struct space *first = space_find(s, s->target.pid);

	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		if (sp && sp->st && symtab_mapping(sp->st, addr, m) && strcmp(m->path, module) == 0)
			return sp->st;
	}
	return NULL;
}

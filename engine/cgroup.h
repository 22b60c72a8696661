/* Control groups (cgroup v2) of processes, for cyctop serve's labels and
 * the processes view: the path a process's /proc/PID/cgroup gives, and the
 * short name a user knows it by (the systemd unit, a container's id); and
 * the directory --cgroup PATH names (cyctop and cyctop serve alike). */
#ifndef ENGINE_CGROUP_H
#define ENGINE_CGROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/hashtab.h"

#define CGROUP_PATH_MAX 256
#define CGROUP_NAME_MAX 80

/* The cgroup v2 path of process PID ("/system.slice/cron.service") into
 * PATH, read from /proc/PID/cgroup (its "0::" line).  Returns 0, or -1
 * when the process is gone or has no v2 cgroup. */
int cgroup_of_pid(pid_t pid, char *path, size_t sz);
/* The name PATH is shown by (pure): a container's id (12 hex digits) for
 * docker-ID.scope, libpod-ID.scope, cri-containerd-ID.scope and
 * crio-ID.scope, else the last component that is a systemd unit
 * (NAME.service, NAME.scope, NAME.slice), else PATH itself; "/" for the
 * root. */
void cgroup_name(const char *path, char *out, size_t sz);

/* Where the cgroup v2 hierarchy is mounted (/sys/fs/cgroup, or
 * /sys/fs/cgroup/unified on a hybrid system), from /proc/self/mounts.
 * Returns 0, or -1 when there is none. */
int cgroup_v2_root(char *out, size_t sz);
/* A cgroup as the user names it (--cgroup PATH: a directory of the v2
 * hierarchy, or a path relative to its root) into DIR, the directory to
 * open, and REL, the path relative to the root (/proc/PID/cgroup's form,
 * "/" the root).  Returns 0, or -1 with one line in ERR naming it: no v2
 * hierarchy, a ".." that leaves it, no such directory. */
int cgroup_resolve(const char *arg, char *dir, size_t dirsz, char *rel, size_t relsz,
		   char *err, size_t errsz);

/* Cgroup ids (PERF_SAMPLE_CGROUP's, PERF_RECORD_CGROUP's: the v2
 * directory's inode number) and the names they are shown by. */
struct cgroup_id_row {
	uint64_t id;
	char name[CGROUP_NAME_MAX];
};
struct cgroup_ids {
	struct cgroup_id_row *v;
	size_t n, alloc;
	struct hashtab index;    /* id -> v */
};
/* Records ID as the cgroup at v2 path PATH (the name cgroup_name gives it;
 * an id known already keeps its first name).  0, or -1 out of memory. */
int cgroup_ids_add(struct cgroup_ids *c, uint64_t id, const char *path);
/* The name of ID, or NULL when not known. */
const char *cgroup_ids_name(const struct cgroup_ids *c, uint64_t id);
void cgroup_ids_free(struct cgroup_ids *c);
/* The id of the cgroup at v2 path PATH (the inode number of its directory
 * under the v2 mount, as the kernel's cgroup_id() on 64-bit), 0 if none. */
uint64_t cgroup_id_of_path(const char *path);

/* Whether the running kernel samples cgroup ids (PERF_SAMPLE_CGROUP and
 * PERF_RECORD_CGROUP: Linux 5.7), from /proc/sys/kernel/osrelease. */
bool cgroup_sample_supported(void);

#endif

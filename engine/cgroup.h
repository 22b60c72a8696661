/* Control groups (cgroup v2) of processes, for cyctop serve's labels and
 * the processes view: the path a process's /proc/PID/cgroup gives, and the
 * short name a user knows it by (the systemd unit, a container's id). */
#ifndef ENGINE_CGROUP_H
#define ENGINE_CGROUP_H

#include <stddef.h>
#include <sys/types.h>

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

#endif

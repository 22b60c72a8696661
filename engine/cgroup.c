/* Control groups of processes: /proc/PID/cgroup's v2 line and the short
 * names of engine/cgroup.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/cgroup.h"
#include "engine/sys.h"

int cgroup_of_pid(pid_t pid, char *path, size_t sz)
{
	char file[64], line[CGROUP_PATH_MAX + 8];
	int rc = -1;

	snprintf(file, sizeof(file), "/proc/%d/cgroup", (int)pid);
	FILE *f = sys_fopen(file, "r");
	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, sz, "%s", line + 3);
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* Whether S (LEN bytes) is all hex digits and long enough for an id. */
static bool hex_id(const char *s, size_t len)
{
	if (len < 12)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* A container runtime's scope: PREFIX-ID.scope; the id's first 12 digits. */
static bool container_id(const char *last, size_t len, char *out, size_t sz)
{
	static const char *const prefixes[] = { "docker-", "libpod-", "cri-containerd-",
						"crio-" };
	const size_t suffix = strlen(".scope");

	if (len <= suffix || strncmp(last + len - suffix, ".scope", suffix) != 0)
		return false;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t p = strlen(prefixes[i]);
		if (len > p + suffix && strncmp(last, prefixes[i], p) == 0 &&
		    hex_id(last + p, len - p - suffix)) {
			snprintf(out, sz, "%.12s", last + p);
			return true;
		}
	}
	return false;
}

static bool is_unit(const char *s, size_t len)
{
	static const char *const kinds[] = { ".service", ".scope", ".slice" };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		size_t k = strlen(kinds[i]);
		if (len > k && strncmp(s + len - k, kinds[i], k) == 0)
			return true;
	}
	return false;
}

void cgroup_name(const char *path, char *out, size_t sz)
{
	size_t end = strlen(path);

	while (end > 1 && path[end - 1] == '/')
		end--;
	if (end <= 1) {
		snprintf(out, sz, "/");
		return;
	}
	/* from the leaf up: a container, else the innermost unit */
	while (end > 0) {
		size_t start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
		if (container_id(path + start, end - start, out, sz))
			return;
		if (is_unit(path + start, end - start)) {
			snprintf(out, sz, "%.*s", (int)(end - start), path + start);
			return;
		}
		end = start ? start - 1 : 0;
	}
	snprintf(out, sz, "%s", path);
}

int cgroup_v2_root(char *out, size_t sz)
{
	FILE *f = sys_fopen("/proc/self/mounts", "r");
	char line[1024], dev[256], dir[CGROUP_PATH_MAX], type[64];
	int rc = -1;

	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %255s %63s", dev, dir, type) == 3 &&
		    strcmp(type, "cgroup2") == 0) {
			snprintf(out, sz, "%s", dir);
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* Whether PATH has a ".." component (it could leave the hierarchy). */
static bool has_dotdot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return true;
	return false;
}

int cgroup_resolve(const char *arg, char *dir, size_t dirsz, char *rel, size_t relsz,
		   char *err, size_t errsz)
{
	char root[CGROUP_PATH_MAX];
	const char *p = arg;
	size_t n;

	if (cgroup_v2_root(root, sizeof(root)) < 0) {
		snprintf(err, errsz, "cgroup %s: no cgroup v2 hierarchy is mounted", arg);
		return -1;
	}
	n = strlen(root);
	if (strncmp(p, root, n) == 0 && (p[n] == '/' || !p[n]))
		p += n;
	while (*p == '/')
		p++;
	if (has_dotdot(p)) {
		snprintf(err, errsz, "cgroup %s: \"..\" would leave the cgroup v2 hierarchy (%s)",
			 arg, root);
		return -1;
	}
	snprintf(rel, relsz, "/%s", p);
	n = strlen(rel);
	while (n > 1 && rel[n - 1] == '/')
		rel[--n] = '\0';
	snprintf(dir, dirsz, "%s%s", root, n > 1 ? rel : "");
	DIR *d = sys_opendir(dir);
	if (!d) {
		snprintf(err, errsz, "cgroup %s: %s", dir,
			 errno == ENOENT ? "no such cgroup" : strerror(errno));
		return -1;
	}
	closedir(d);
	return 0;
}

static bool id_eq(const void *key, uint32_t idx, const void *ctx)
{
	const struct cgroup_ids *c = ctx;

	return c->v[idx].id == *(const uint64_t *)key;
}

const char *cgroup_ids_name(const struct cgroup_ids *c, uint64_t id)
{
	uint32_t i = hashtab_find(&c->index, hash_mix(id), &id, id_eq, c);

	return i == HASHTAB_NONE ? NULL : c->v[i].name;
}

int cgroup_ids_add(struct cgroup_ids *c, uint64_t id, const char *path)
{
	if (cgroup_ids_name(c, id))
		return 0;
	if (GROW(c->v, c->n + 1, c->alloc) < 0 ||
	    hashtab_add(&c->index, hash_mix(id), (uint32_t)c->n) < 0)
		return -1;
	c->v[c->n].id = id;
	cgroup_name(path, c->v[c->n].name, sizeof(c->v[c->n].name));
	c->n++;
	return 0;
}

void cgroup_ids_free(struct cgroup_ids *c)
{
	free(c->v);
	hashtab_free(&c->index);
	memset(c, 0, sizeof(*c));
}

uint64_t cgroup_id_of_path(const char *path)
{
	char root[CGROUP_PATH_MAX], dir[2 * CGROUP_PATH_MAX];
	struct stat st;

	if (cgroup_v2_root(root, sizeof(root)) < 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s%s", root, path);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? (uint64_t)st.st_ino : 0;
}

bool cgroup_sample_supported(void)
{
	FILE *f = sys_fopen("/proc/sys/kernel/osrelease", "r");
	int major = 0, minor = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d.%d", &major, &minor) != 2)
		major = 0;
	fclose(f);
	return major > 5 || (major == 5 && minor >= 7);
}

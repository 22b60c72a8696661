#include "engine/counts-file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/session.h"

char *file_slurp(const char *path, size_t *len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s: not a regular file", path);
		fclose(f);
		return NULL;
	}
	if ((unsigned long long)st.st_size > COUNTS_FILE_MAX) {
		snprintf(err, errsz, "%s: too large for a counts file (%lld bytes)", path,
			 (long long)st.st_size);
		fclose(f);
		return NULL;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		snprintf(err, errsz, "%s: out of memory", path);
		fclose(f);
		return NULL;
	}
	*len = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* A recorded session's totals: every event it counted (scaled by coverage
 * when it was multiplexed), as a counts file would list them. */
static int counts_from_session(struct counts *c, const char *path, char *err, size_t errsz)
{
	struct session_file_opts o = { .path = path };
	struct session *s = session_open_file(&o, err, errsz);
	struct snapshot *snap = s ? session_snapshot(s) : NULL;

	if (s && !snap)
		snprintf(err, errsz, "%s: out of memory", path);
	for (int e = 0; snap && e < snap->n_events; e++)
		if (snap->ev[e].counted)
			counts_add(c, snap->ev[e].name, snap->ev[e].count, 0);
	snapshot_free(snap);
	session_close(s);
	return snap ? 0 : -1;
}

static int counts_load_one(struct counts *c, const char *path, char *err, size_t errsz)
{
	size_t len;

	if (session_is_perfdata(path))
		return counts_from_session(c, path, err, errsz);
	char *buf = file_slurp(path, &len, err, errsz);
	if (!buf)
		return -1;
	int rc = counts_parse(c, buf, len, path, err, errsz);
	free(buf);
	return rc;
}

int counts_load_files(struct counts *c, char *const *paths, int n, char *err, size_t errsz)
{
	for (int i = 0; i < n; i++) {
		struct counts one;
		counts_init(&one);
		int rc = counts_load_one(&one, paths[i], err, errsz);
		if (rc == 0)
			counts_merge(c, &one);
		counts_free(&one);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int penalties_load(struct penalties *p, const char *spec, char *err, size_t errsz)
{
	size_t len;

	if (!spec || strcmp(spec, "desktop") == 0) {
		penalties_default(p, 0);
		return 0;
	}
	if (strcmp(spec, "server") == 0) {
		penalties_default(p, 1);
		return 0;
	}
	penalties_default(p, 0);
	char *buf = file_slurp(spec, &len, err, errsz);
	if (!buf)
		return -1;
	int rc = penalties_parse(p, buf, len, spec, err, errsz);
	free(buf);
	return rc;
}

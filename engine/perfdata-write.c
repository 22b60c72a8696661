/* perf.data writer: cyctop record -o FILE (engine/perfdata.h says the
 * layout it writes; engine/perfdata-priv.h the format). */
#include "engine/perfdata-priv.h"
#include "lib/hashtab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define WBUF_SIZE (64 * 1024)

struct wattr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nids, cap;
	char *name;
};

struct perfdata_writer {
	int fd;
	int error;               /* first errno; sticky */
	uint64_t off;            /* file offset of the next byte */
	uint64_t data_off;       /* where the records start */
	struct file_section early_attrs;  /* perfdata_begin's, or size 0 */
	uint64_t data_size;
	unsigned char *buf;
	size_t nbuf;
	struct wattr *attrs;
	size_t nattrs;
};

static void w_flush(struct perfdata_writer *w)
{
	size_t done = 0;

	while (!w->error && done < w->nbuf) {
		ssize_t n = write(w->fd, w->buf + done, w->nbuf - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->error = n < 0 ? errno : EIO;
		else
			done += (size_t)n;
	}
	w->nbuf = 0;
}

/* A header or table patched in place; a short write is EIO. */
static void w_pwrite(struct perfdata_writer *w, const void *p, size_t n, uint64_t off)
{
	ssize_t k;

	if (w->error)
		return;
	k = pwrite(w->fd, p, n, (off_t)off);
	if (k < 0)
		w->error = errno ? errno : EIO;
	else if ((size_t)k != n)
		w->error = EIO;
}

static void w_bytes(struct perfdata_writer *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	w->off += n;
	while (n) {
		size_t k = WBUF_SIZE - w->nbuf;
		if (k > n)
			k = n;
		if (s)
			memcpy(w->buf + w->nbuf, s, k);
		else
			memset(w->buf + w->nbuf, 0, k);   /* NULL: padding */
		w->nbuf += k;
		n -= k;
		if (s)
			s += k;
		if (w->nbuf == WBUF_SIZE)
			w_flush(w);
	}
}

static void w_u32(struct perfdata_writer *w, uint32_t v)
{
	w_bytes(w, &v, 4);
}

static void w_u64(struct perfdata_writer *w, uint64_t v)
{
	w_bytes(w, &v, 8);
}

/* perf's do_write_string: length including the NUL, padded to 64 */
static void w_string(struct perfdata_writer *w, const char *s)
{
	size_t olen = strlen(s ? s : "") + 1;
	uint64_t len = align_up(olen, NAME_ALIGN);

	if (len > UINT32_MAX) {
		w->error = w->error ? w->error : EOVERFLOW;
		return;
	}
	w_u32(w, (uint32_t)len);
	w_bytes(w, s ? s : "", olen);
	w_bytes(w, NULL, len - olen);
}

static void w_pad8(struct perfdata_writer *w)
{
	w_bytes(w, NULL, align_up(w->off, 8) - w->off);
}

static void w_header(struct perfdata_writer *w, const struct file_header *h)
{
	w_bytes(w, h, sizeof(*h));
}

struct perfdata_writer *perfdata_create(const char *path, char *err, size_t errsz)
{
	struct perfdata_writer *w = calloc(1, sizeof(*w));
	struct file_header h = { .magic = MAGIC2, .size = HEADER_SIZE,
				 .attr_size = FILE_ATTR_SIZE,
				 .data = { HEADER_SIZE, 0 } };

	if (w)
		w->buf = malloc(WBUF_SIZE);
	if (!w || !w->buf) {
		snprintf(err, errsz, "%s: out of memory", path);
		if (w)
			free(w->buf);
		free(w);
		return NULL;
	}
	/* 0600 like perf: samples tell what the user ran */
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(w->buf);
		free(w);
		return NULL;
	}
	/* A placeholder with data.size 0 until finish: an interrupted
	 * recording reads as "unfinished", as perf's do. */
	w_header(w, &h);
	w->data_off = HEADER_SIZE;
	return w;
}

int perfdata_add_ids(struct perfdata_writer *w, int idx, const uint64_t *ids, size_t nids)
{
	struct wattr *a;

	if (idx < 0 || (size_t)idx >= w->nattrs || (nids && !ids)) {
		errno = EINVAL;
		return -1;
	}
	a = &w->attrs[idx];
	if (nids > SIZE_MAX - a->nids || GROW(a->ids, a->nids + nids, a->cap) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (nids)
		memcpy(a->ids + a->nids, ids, nids * sizeof(*ids));
	a->nids += nids;
	return 0;
}

/* perf names events itself; without a name we use its raw spelling */
static char *default_name(const struct perf_event_attr *attr)
{
	char buf[64];

	if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, sizeof(buf), "r%llx", (unsigned long long)attr->config);
	else
		snprintf(buf, sizeof(buf), "%u:%#llx", attr->type,
			 (unsigned long long)attr->config);
	return strdup(buf);
}

int perfdata_add_attr(struct perfdata_writer *w, const struct perf_event_attr *attr,
		      const uint64_t *ids, size_t nids, const char *name)
{
	struct wattr *arr, *a;
	int idx;

	if (!attr || w->nattrs >= INT32_MAX) {
		errno = EINVAL;
		return -1;
	}
	arr = realloc(w->attrs, (w->nattrs + 1) * sizeof(*arr));
	if (!arr)
		return -1;
	w->attrs = arr;
	a = &arr[w->nattrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	/* on disk the attr is ours in full; libpfm may have left size 0 */
	a->attr.size = sizeof(a->attr);
	a->name = name ? strdup(name) : default_name(attr);
	if (!a->name)
		return -1;
	idx = (int)w->nattrs++;
	if (perfdata_add_ids(w, idx, ids, nids) < 0) {
		free(a->name);
		w->nattrs--;
		return -1;
	}
	return idx;
}

int perfdata_write(struct perfdata_writer *w, const struct perf_event_header *rec)
{
	if (!rec || rec->size < sizeof(*rec)) {
		errno = EINVAL;
		return -1;
	}
	if (w->error) {
		errno = w->error;
		return -1;
	}
	w_bytes(w, rec, rec->size);
	w->data_size += rec->size;
	if (w->error) {
		errno = w->error;
		return -1;
	}
	return 0;
}

static void writer_free(struct perfdata_writer *w)
{
	for (size_t i = 0; i < w->nattrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	free(w->buf);
	free(w);
}

void perfdata_abort(struct perfdata_writer *w)
{
	if (!w)
		return;
	w_flush(w);
	close(w->fd);
	writer_free(w);
}

/* --- feature bodies ----------------------------------------------------- */

/* perf's write_buildid: the record, then the name padded to 64 */
static void w_build_id(struct perfdata_writer *w, const struct perfdata_build_id *b)
{
	struct build_id_rec r;
	const char *path = b->path ? b->path : "";
	size_t olen = strlen(path) + 1;
	uint64_t len = align_up(olen, NAME_ALIGN);
	size_t idlen = b->id_len > sizeof(r.data) ? sizeof(r.data) : b->id_len;

	if (sizeof(r) + len > UINT16_MAX) {
		w->error = w->error ? w->error : ENAMETOOLONG;
		return;
	}
	memset(&r, 0, sizeof(r));
	r.header.misc = (uint16_t)((b->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
				   MISC_BUILD_ID_SIZE);
	r.header.size = (uint16_t)(sizeof(r) + len);
	r.pid = b->pid;
	memcpy(r.data, b->id, idlen);
	r.size = (uint8_t)idlen;
	w_bytes(w, &r, sizeof(r));
	w_bytes(w, path, olen);
	w_bytes(w, NULL, len - olen);
}

static void feat_build_id(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	for (size_t i = 0; i < m->nr_build_ids; i++)
		w_build_id(w, &m->build_ids[i]);
}

static void feat_event_desc(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	w_u32(w, (uint32_t)w->nattrs);
	w_u32(w, (uint32_t)sizeof(struct perf_event_attr));
	for (size_t i = 0; i < w->nattrs; i++) {
		const struct wattr *a = &w->attrs[i];
		w_bytes(w, &a->attr, sizeof(a->attr));
		w_u32(w, (uint32_t)a->nids);
		w_string(w, a->name);
		w_bytes(w, a->ids, a->nids * sizeof(uint64_t));
	}
}

static void feat_cmdline(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	uint32_t n = 0;

	while (m->cmdline && m->cmdline[n])
		n++;
	w_u32(w, n);
	for (uint32_t i = 0; i < n; i++)
		w_string(w, m->cmdline[i]);
}

static void feat_group_desc(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	w_u32(w, (uint32_t)m->nr_groups);
	for (size_t i = 0; i < m->nr_groups; i++) {
		const struct perfdata_group *g = &m->groups[i];
		w_string(w, g->name ? g->name : "{anon_group}");
		w_u32(w, g->leader_idx);
		w_u32(w, g->nr_members);
	}
}

static void feat_nrcpus(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	uint32_t n = m->nr_cpus;

	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		n = c > 0 ? (uint32_t)c : 1;
	}
	w_u32(w, n);   /* available */
	w_u32(w, n);   /* online */
}

/* magic, PMU name (a perf string), u64 length, the blob */
static void feat_cyctop(struct perfdata_writer *w, const struct perfdata_meta *m)
{
	w_bytes(w, CYCTOP_MAGIC, 8);
	w_string(w, m->pmu ? m->pmu : "");
	w_u64(w, m->blob ? m->blob_len : 0);
	if (m->blob)
		w_bytes(w, m->blob, m->blob_len);
}

struct feat_out {
	unsigned int bit;
	struct file_section sec;
};

/* Writes the feature table (at the end of the data) and the bodies. */
static void write_features(struct perfdata_writer *w, const struct perfdata_meta *m,
			       uint64_t features[FEAT_BITS / 64])
{
	struct utsname u;
	const char *host, *rel, *arch;
	struct feat_out f[12];
	size_t nf = 0;
	uint64_t table_off = w->off;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	host = m->hostname ? m->hostname : u.nodename;
	rel = m->osrelease ? m->osrelease : u.release;
	arch = m->arch ? m->arch : u.machine;

	f[nf++].bit = FEAT_BUILD_ID;
	f[nf++].bit = FEAT_HOSTNAME;
	f[nf++].bit = FEAT_OSRELEASE;
	f[nf++].bit = FEAT_ARCH;
	f[nf++].bit = FEAT_NRCPUS;
	if (m->cpudesc)
		f[nf++].bit = FEAT_CPUDESC;
	if (m->cpuid)
		f[nf++].bit = FEAT_CPUID;
	f[nf++].bit = FEAT_CMDLINE;
	f[nf++].bit = FEAT_EVENT_DESC;
	if (m->nr_groups)
		f[nf++].bit = FEAT_GROUP_DESC;
	f[nf++].bit = PERFDATA_FEAT_CYCTOP;   /* the highest bit: last */

	w_bytes(w, NULL, nf * sizeof(struct file_section));
	for (size_t i = 0; i < nf; i++) {
		f[i].sec.offset = w->off;
		switch (f[i].bit) {
		case FEAT_BUILD_ID: feat_build_id(w, m); break;
		case FEAT_HOSTNAME: w_string(w, host); break;
		case FEAT_OSRELEASE: w_string(w, rel); break;
		case FEAT_ARCH: w_string(w, arch); break;
		case FEAT_NRCPUS: feat_nrcpus(w, m); break;
		case FEAT_CPUDESC: w_string(w, m->cpudesc); break;
		case FEAT_CPUID: w_string(w, m->cpuid); break;
		case FEAT_CMDLINE: feat_cmdline(w, m); break;
		case FEAT_EVENT_DESC: feat_event_desc(w, m); break;
		case FEAT_GROUP_DESC: feat_group_desc(w, m); break;
		case PERFDATA_FEAT_CYCTOP: feat_cyctop(w, m); break;
		}
		f[i].sec.size = w->off - f[i].sec.offset;
		features[f[i].bit / 64] |= 1ULL << (f[i].bit % 64);
	}
	w_flush(w);
	for (size_t i = 0; i < nf; i++)
		w_pwrite(w, &f[i].sec, sizeof(f[i].sec), table_off + i * sizeof(f[i].sec));
}

/* ids sections, then the attrs section pointing at them */
static struct file_section write_attrs(struct perfdata_writer *w)
{
	struct file_section s;
	uint64_t *ids_off = calloc(w->nattrs ? w->nattrs : 1, sizeof(*ids_off));

	if (!ids_off) {
		w->error = w->error ? w->error : ENOMEM;
		return (struct file_section){ 0, 0 };
	}
	w_pad8(w);   /* the reader wants u64 ids aligned */
	for (size_t i = 0; i < w->nattrs; i++) {
		ids_off[i] = w->off;
		w_bytes(w, w->attrs[i].ids, w->attrs[i].nids * sizeof(uint64_t));
	}
	s.offset = w->off;
	for (size_t i = 0; i < w->nattrs; i++) {
		struct file_section ids = { ids_off[i], w->attrs[i].nids * sizeof(uint64_t) };
		w_bytes(w, &w->attrs[i].attr, sizeof(w->attrs[i].attr));
		w_bytes(w, &ids, sizeof(ids));
	}
	s.size = w->off - s.offset;
	free(ids_off);
	return s;
}

/* The header of a recording in progress: the early attrs, the records
 * written so far, no features. */
static struct file_header interim_header(const struct perfdata_writer *w)
{
	return (struct file_header){ .magic = MAGIC2, .size = HEADER_SIZE,
				     .attr_size = FILE_ATTR_SIZE, .attrs = w->early_attrs,
				     .data = { w->data_off, w->data_size } };
}

static int w_interim_header(struct perfdata_writer *w)
{
	struct file_header h = interim_header(w);

	w_pwrite(w, &h, sizeof(h), 0);
	if (w->error) {
		errno = w->error;
		return -1;
	}
	return 0;
}

int perfdata_begin(struct perfdata_writer *w)
{
	if (w->data_size || w->off != HEADER_SIZE) {
		errno = EINVAL;
		return -1;
	}
	w->early_attrs = write_attrs(w);
	w_pad8(w);
	w->data_off = w->off;
	/* the placeholder, still buffered, must not reach the disk alone: a
	 * kill before the pwrite would leave the attrs reading as records */
	if (w->off - w->nbuf == 0) {
		struct file_header h = interim_header(w);
		memcpy(w->buf, &h, sizeof(h));
	}
	w_flush(w);
	return w_interim_header(w);
}

int perfdata_flush(struct perfdata_writer *w)
{
	w_flush(w);
	if (w->early_attrs.size)
		return w_interim_header(w);
	if (w->error) {
		errno = w->error;
		return -1;
	}
	return 0;
}

int perfdata_finish(struct perfdata_writer *w, const struct perfdata_meta *meta, char *err,
		    size_t errsz)
{
	static const struct perfdata_meta none;
	struct file_header h = { .magic = MAGIC2, .size = HEADER_SIZE,
				 .attr_size = FILE_ATTR_SIZE };
	int rc = 0;

	if (!meta)
		meta = &none;
	if (w->data_size == 0) {
		struct perf_event_header fr = { REC_FINISHED_ROUND, 0, sizeof(fr) };
		perfdata_write(w, &fr);
	}
	h.data.offset = w->data_off;
	h.data.size = w->data_size;
	write_features(w, meta, h.features);
	h.attrs = write_attrs(w);
	w_flush(w);
	w_pwrite(w, &h, sizeof(h), 0);
	if (close(w->fd) < 0 && !w->error)
		w->error = errno;
	if (w->error) {
		snprintf(err, errsz, "writing perf.data: %s", strerror(w->error));
		rc = -1;
	}
	writer_free(w);
	return rc;
}

/* perf.data (PERFILE2) writer and reader.
 *
 * The format, as perf defines it: tools/perf/Documentation/
 * perf.data-file-format.txt and tools/perf/util/header.{c,h} in the Linux
 * tree (perf_file_header, perf_file_attr, perf_header__process_sections,
 * read_attr, do_write_string, write_build_id, write_event_desc ...).  This
 * is our own code, written from those descriptions:
 *
 *  - header: magic "PERFILE2" as a native-endian u64 (byte-swapped means
 *    another endianness), its size (104; 72 in files older than the feature
 *    bitmap), attr_size (sizeof perf_file_attr), the attrs, data and (unused)
 *    event_types sections, and a 256-bit feature bitmap;
 *  - the feature section table sits right after the data section and holds
 *    one {offset, size} per set bit, in bit order;
 *  - a string is a u32 length, then that many bytes: the text, NUL and zero
 *    padding up to a multiple of 64 (NAME_ALIGN);
 *  - an attr on disk is attr_size - 16 bytes of perf_event_attr, then the
 *    {offset, size} of its u64 ids.
 */
#include "engine/perfdata.h"
#include "arch/hashtab.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zstd.h>

#define MAGIC2 0x32454c4946524550ULL          /* "PERFILE2" read as a LE u64 */
#define MAGIC2_SWAPPED 0x50455246494c4532ULL
#define NAME_ALIGN 64
#define HEADER_SIZE 104
#define HEADER_SIZE_NOFEAT 72                /* before the feature bitmap */
#define PIPE_HEADER_SIZE 16
#define FEAT_BITS 256

enum {
	FEAT_BUILD_ID = 2,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8,
	FEAT_CPUID = 9,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_GROUP_DESC = 17,
};

/* perf's own record types (tools/perf/util/event.h, perf_user_event_type) */
#define REC_HEADER_ATTR 64
#define REC_HEADER_TRACING_DATA 66
#define REC_HEADER_BUILD_ID 67
#define REC_FINISHED_ROUND 68
#define REC_AUXTRACE 71
#define REC_HEADER_FEATURE 80
#define REC_COMPRESSED 81       /* zstd frames of records (perf record -z) */
#define REC_COMPRESSED2 83      /* the same after a u64 data size (perf 6.14) */
#define DECOMP_MAX (64u << 20)  /* what one compressed record may unpack to */
#define DIR_MAX_PARTS 4096      /* perf record --threads: data.N files read */
#define PIPE_MAX_ATTRS 4096     /* HEADER_ATTR records a stream may bring */
#define RECORD_MAX 65536        /* header.size is a u16 */
#define MISC_BUILD_ID_SIZE (1u << 15)   /* build_id record carries its id size */
#define CYCTOP_MAGIC "CYCTOP01"

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic, size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t features[FEAT_BITS / 64];
};
_Static_assert(sizeof(struct file_header) == HEADER_SIZE, "perf_file_header is 104 bytes");

/* perf's struct perf_record_header_build_id, without its filename */
struct build_id_rec {
	struct perf_event_header header;
	int32_t pid;
	uint8_t data[20];
	uint8_t size;
	uint8_t reserved1;
	uint16_t reserved2;
};
_Static_assert(sizeof(struct build_id_rec) == 36, "build_id_event is 36 bytes");

#define FILE_ATTR_SIZE (sizeof(struct perf_event_attr) + sizeof(struct file_section))

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* ======================================================================
 * Writer
 * ====================================================================== */

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

/* ======================================================================
 * Reader
 * ====================================================================== */

struct rattr {
	struct perf_event_attr attr;
	const uint64_t *ids;    /* into the file image, 8-aligned, or own_ids */
	size_t nids;
	char *name;
	uint64_t *own_ids;      /* pipe mode: the HEADER_ATTR's ids, copied */
};

struct idmap {
	uint64_t id;
	uint32_t idx;
};

struct perfdata {
	const unsigned char *buf;
	size_t len;
	void *map;              /* mmap of the file, or */
	unsigned char *copy;    /* our copy of an _open_mem buffer */
	char *name;             /* for messages */
	char *err;
	size_t errsz;

	struct file_header h;
	uint64_t data_off, data_end;
	bool unfinished;
	uint64_t cut;           /* unfinished: bytes of a last record cut short */

	struct rattr *attrs;
	size_t nattrs;
	struct idmap *ids;
	size_t nids;

	uint64_t pos;
	bool failed;
	char *fail_msg;
	unsigned char *scratch;  /* a misaligned record is copied here */

	char *hostname, *osrelease, *arch, *cpudesc, *cpuid, *cmdline;
	char **argv;
	size_t argc;
	uint32_t nr_cpus;
	struct perfdata_build_id *bids;
	size_t nbids;
	struct perfdata_group *groups;
	size_t ngroups;
	char *pmu;
	void *blob;
	uint64_t blob_len;

	/* pipe mode (perf record -o -): records read one at a time from fd,
	 * or from buf at pos (a pipe-mode file given to _open_mem) */
	bool pipe;
	int fd;
	bool own_fd;
	unsigned char *rbuf;    /* the record being read: RECORD_MAX, aligned */
	size_t have;            /* its bytes read so far */
	uint64_t skip;          /* payload bytes after it still to step over */
	uint64_t soff;          /* stream offset of rbuf[0] */
	bool pending;           /* rbuf holds a record read ahead by open */
	bool yielded;           /* rbuf holds the record perfdata_next gave */
	bool nowait;            /* perfdata_next returns 2 rather than wait */
	size_t attr_cap;

	/* perf record -z: each COMPRESSED record's zstd stream unpacks into
	 * dbuf; a record may go on in the next COMPRESSED record */
	ZSTD_DStream *zstd;
	unsigned char *dbuf;
	size_t dlen, dpos, dcap;
	uint64_t doff;          /* offset of the COMPRESSED record unpacked last */

	/* perf record --threads writes a directory: "data" (header, attrs,
	 * features, synthesized records) and data.N, records only, read after
	 * it; buf, len, data_end and name then describe the part being read */
	char **parts;
	size_t nparts, ipart;
	void *part_map;
	size_t map_len, part_len;
	const unsigned char *main_buf;
	uint64_t main_end;
	char *main_name;
};

static int pd_fail(struct perfdata *pd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int pd_fail(struct perfdata *pd, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!pd->err || !pd->errsz)
		return -1;
	n = snprintf(pd->err, pd->errsz, "%s: ", pd->name);
	if (n < 0 || (size_t)n >= pd->errsz)
		return -1;
	va_start(ap, fmt);
	vsnprintf(pd->err + n, pd->errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static bool in_file(const struct perfdata *pd, uint64_t off, uint64_t size)
{
	return off <= pd->len && size <= pd->len - off;
}

static int check_section(struct perfdata *pd, const char *what, struct file_section s)
{
	if (in_file(pd, s.offset, s.size))
		return 0;
	return pd_fail(pd, "%s at offset %" PRIu64 " (%" PRIu64 " bytes) runs past the end "
		       "of the file (size %zu)", what, s.offset, s.size, pd->len);
}

static uint64_t get64(const struct perfdata *pd, uint64_t off)
{
	uint64_t v;

	memcpy(&v, pd->buf + off, 8);
	return v;
}

/* --- feature cursor ------------------------------------------------------ */

struct fcur {
	struct perfdata *pd;
	const unsigned char *base;   /* offsets count from here: the file, or a record */
	const char *feat;
	uint64_t start, off, end;
	bool bad;
};

static int fc_fail(struct fcur *c, const char *what, uint64_t need)
{
	if (!c->bad)
		pd_fail(c->pd, "%s section at offset %" PRIu64 ": %s at offset %" PRIu64
			" (%" PRIu64 " bytes) runs past its end at offset %" PRIu64,
			c->feat, c->start, what, c->off, need, c->end);
	c->bad = true;
	return -1;
}

static uint64_t fc_left(const struct fcur *c)
{
	return c->bad ? 0 : c->end - c->off;
}

static const unsigned char *fc_take(struct fcur *c, const char *what, uint64_t n)
{
	const unsigned char *p;

	if (c->bad || n > c->end - c->off) {
		fc_fail(c, what, n);
		return NULL;
	}
	p = c->base + c->off;
	c->off += n;
	return p;
}

static uint64_t fc_peek64(const struct fcur *c)
{
	uint64_t v;

	memcpy(&v, c->base + c->off, 8);
	return v;
}

static uint32_t fc_u32(struct fcur *c, const char *what)
{
	const unsigned char *p = fc_take(c, what, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

static uint64_t fc_u64(struct fcur *c, const char *what)
{
	const unsigned char *p = fc_take(c, what, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

/* a perf string: u32 length, then the bytes; the text ends at the first
 * NUL or at the length (perf does not insist on the NUL) */
static char *fc_string(struct fcur *c, const char *what)
{
	uint32_t len = fc_u32(c, what);
	const unsigned char *p = fc_take(c, what, len);
	char *s;

	if (!p)
		return NULL;
	s = strndup((const char *)p, len);
	if (!s) {
		pd_fail(c->pd, "out of memory");
		c->bad = true;
	}
	return s;
}

/* --- features ------------------------------------------------------------ */

static int feat_string(struct fcur *c, char **out)
{
	*out = fc_string(c, "string");
	return *out ? 0 : -1;
}

static int read_nrcpus(struct fcur *c)
{
	(void)fc_u32(c, "nr_cpus_available");
	c->pd->nr_cpus = fc_u32(c, "nr_cpus_online");
	return c->bad ? -1 : 0;
}

static int read_cmdline(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t n = fc_u32(c, "argument count");
	size_t total = 1;

	if (c->bad)
		return -1;
	if (n > fc_left(c) / 4)
		return fc_fail(c, "argument list", (uint64_t)n * 4);
	pd->argv = calloc((size_t)n + 1, sizeof(*pd->argv));
	if (!pd->argv)
		return pd_fail(pd, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		pd->argv[i] = fc_string(c, "argument");
		if (!pd->argv[i])
			return -1;
		pd->argc++;
		total += strlen(pd->argv[i]) + 1;
	}
	pd->cmdline = malloc(total);
	if (!pd->cmdline)
		return pd_fail(pd, "out of memory");
	pd->cmdline[0] = '\0';
	for (size_t i = 0, k = 0; i < pd->argc; i++) {
		size_t l = strlen(pd->argv[i]);
		if (i)
			pd->cmdline[k++] = ' ';
		memcpy(pd->cmdline + k, pd->argv[i], l + 1);
		k += l;
	}
	return 0;
}

static int read_build_ids(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	size_t cap = 0;

	while (fc_left(c) > 0) {
		struct build_id_rec r;
		struct perfdata_build_id *b;
		uint64_t at = c->off;
		const unsigned char *p = fc_take(c, "build id record", sizeof(r));
		if (!p)
			return -1;
		memcpy(&r, p, sizeof(r));
		if (r.header.size < sizeof(r)) {
			c->off = at;
			return fc_fail(c, "build id record (size too small)", r.header.size);
		}
		p = fc_take(c, "build id file name", r.header.size - sizeof(r));
		if (!p)
			return -1;
		if (GROW(pd->bids, pd->nbids + 1, cap) < 0)
			return pd_fail(pd, "out of memory");
		b = &pd->bids[pd->nbids];
		memset(b, 0, sizeof(*b));
		b->path = strndup((const char *)p, r.header.size - sizeof(r));
		if (!b->path)
			return pd_fail(pd, "out of memory");
		pd->nbids++;
		b->pid = r.pid;
		b->kernel = (r.header.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			    PERF_RECORD_MISC_KERNEL;
		b->id_len = (r.header.misc & MISC_BUILD_ID_SIZE) && r.size <= sizeof(r.data) ?
			    r.size : sizeof(r.data);
		memcpy(b->id, r.data, sizeof(b->id));
	}
	return 0;
}

static int id_lookup(const struct perfdata *pd, uint64_t id);

/* Names from HEADER_EVENT_DESC; an event is matched to an attr by its first
 * id, as perf does, or by position when it has none. */
static int read_event_desc(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t nre = fc_u32(c, "event count");
	uint32_t sz = fc_u32(c, "attr size");

	if (c->bad)
		return -1;
	if (sz < PERF_ATTR_SIZE_VER0)
		return pd_fail(pd, "%s section at offset %" PRIu64 ": attr size %" PRIu32
			       " is smaller than %d", c->feat, c->start, sz, PERF_ATTR_SIZE_VER0);
	if (nre > fc_left(c) / ((uint64_t)sz + 8))
		return fc_fail(c, "event list", (uint64_t)nre * (sz + 8));
	for (uint32_t i = 0; i < nre; i++) {
		uint32_t nids;
		char *name;
		int idx = -1;
		if (!fc_take(c, "attr", sz))
			return -1;
		nids = fc_u32(c, "id count");
		name = fc_string(c, "event name");
		if (!name)
			return -1;
		if (nids > fc_left(c) / 8) {
			free(name);
			return fc_fail(c, "ids", (uint64_t)nids * 8);
		}
		if (nids)
			idx = id_lookup(pd, fc_peek64(c));
		else if (i < pd->nattrs)
			idx = (int)i;
		c->off += (uint64_t)nids * 8;
		if (idx >= 0 && !pd->attrs[idx].name)
			pd->attrs[idx].name = name;
		else
			free(name);
	}
	return 0;
}

static int read_group_desc(struct fcur *c)
{
	struct perfdata *pd = c->pd;
	uint32_t n = fc_u32(c, "group count");

	if (c->bad)
		return -1;
	if (n > fc_left(c) / 12)
		return fc_fail(c, "group list", (uint64_t)n * 12);
	pd->groups = calloc(n ? n : 1, sizeof(*pd->groups));
	if (!pd->groups)
		return pd_fail(pd, "out of memory");
	for (uint32_t i = 0; i < n; i++) {
		struct perfdata_group *g = &pd->groups[i];
		char *name = fc_string(c, "group name");
		if (!name)
			return -1;
		pd->ngroups++;
		if (strcmp(name, "{anon_group}") == 0) {
			free(name);
			name = NULL;
		}
		g->name = name;
		g->leader_idx = fc_u32(c, "leader index");
		g->nr_members = fc_u32(c, "member count");
	}
	return c->bad ? -1 : 0;
}

/* ours only if it starts with our magic: another tool may use the bit */
static int read_cyctop(struct fcur *c)
{
	struct perfdata *pd = c->pd;

	const unsigned char *blob;

	if (pd->pmu || fc_left(c) < 8 || memcmp(c->base + c->off, CYCTOP_MAGIC, 8) != 0)
		return 0;
	c->off += 8;
	pd->pmu = fc_string(c, "PMU name");
	pd->blob_len = fc_u64(c, "blob length");
	if (c->bad)
		return -1;
	blob = fc_take(c, "blob", pd->blob_len);
	if (!blob)
		return -1;
	/* a copy: a pipe's feature record does not stay */
	pd->blob = malloc(pd->blob_len ? pd->blob_len : 1);
	if (!pd->blob)
		return pd_fail(pd, "out of memory");
	memcpy(pd->blob, blob, pd->blob_len);
	return 0;
}

static const char *feat_name(unsigned int bit)
{
	switch (bit) {
	case FEAT_BUILD_ID: return "HEADER_BUILD_ID";
	case FEAT_HOSTNAME: return "HEADER_HOSTNAME";
	case FEAT_OSRELEASE: return "HEADER_OSRELEASE";
	case FEAT_ARCH: return "HEADER_ARCH";
	case FEAT_NRCPUS: return "HEADER_NRCPUS";
	case FEAT_CPUDESC: return "HEADER_CPUDESC";
	case FEAT_CPUID: return "HEADER_CPUID";
	case FEAT_CMDLINE: return "HEADER_CMDLINE";
	case FEAT_EVENT_DESC: return "HEADER_EVENT_DESC";
	case FEAT_GROUP_DESC: return "HEADER_GROUP_DESC";
	case PERFDATA_FEAT_CYCTOP: return "cyctop feature";
	default: return "feature";
	}
}

/* Features perf has and we do not need are only bounds-checked. */
/* Feature BIT's body: S in the file, or in BASE (a pipe's HEADER_FEATURE). */
static int read_feature_at(struct perfdata *pd, const unsigned char *base, unsigned int bit,
			   struct file_section s)
{
	struct fcur c = { pd, base, feat_name(bit), s.offset, s.offset, s.offset + s.size, false };

	switch (bit) {
	case FEAT_BUILD_ID: return read_build_ids(&c);
	case FEAT_HOSTNAME: return pd->hostname ? 0 : feat_string(&c, &pd->hostname);
	case FEAT_OSRELEASE: return pd->osrelease ? 0 : feat_string(&c, &pd->osrelease);
	case FEAT_ARCH: return pd->arch ? 0 : feat_string(&c, &pd->arch);
	case FEAT_CPUDESC: return pd->cpudesc ? 0 : feat_string(&c, &pd->cpudesc);
	case FEAT_CPUID: return pd->cpuid ? 0 : feat_string(&c, &pd->cpuid);
	case FEAT_NRCPUS: return read_nrcpus(&c);
	case FEAT_CMDLINE: return pd->argv ? 0 : read_cmdline(&c);
	case FEAT_EVENT_DESC: return read_event_desc(&c);
	case FEAT_GROUP_DESC: return pd->groups ? 0 : read_group_desc(&c);
	case PERFDATA_FEAT_CYCTOP: return read_cyctop(&c);
	default: return 0;
	}
}

static bool feat_set(const struct file_header *h, unsigned int bit)
{
	return bit < FEAT_BITS && (h->features[bit / 64] >> (bit % 64) & 1);
}

static int read_features(struct perfdata *pd)
{
	uint64_t n = 0, table = pd->data_end;

	for (unsigned int b = 0; b < FEAT_BITS; b++)
		n += feat_set(&pd->h, b);
	if (!n)
		return 0;
	if (check_section(pd, "feature section table", (struct file_section){ table, n * 16 }))
		return -1;
	for (unsigned int b = 0; b < FEAT_BITS; b++) {
		struct file_section s;
		char what[64];
		if (!feat_set(&pd->h, b))
			continue;
		s.offset = get64(pd, table);
		s.size = get64(pd, table + 8);
		snprintf(what, sizeof(what), "%s section (bit %u)", feat_name(b), b);
		table += 16;
		/* perf 3.14 wrote an empty section for what it did not know
		 * (HEADER_CPUDESC on ARM); perf reads it as absent */
		if (s.size == 0 && check_section(pd, what, s) == 0)
			continue;
		if (check_section(pd, what, s) < 0 || read_feature_at(pd, pd->buf, b, s) < 0)
			return -1;
	}
	return 0;
}

/* --- attrs and ids -------------------------------------------------------- */

static int idmap_cmp(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int id_lookup(const struct perfdata *pd, uint64_t id)
{
	size_t lo = 0, hi = pd->nids;

	while (lo < hi) {   /* the first entry >= id: the lowest attr wins */
		size_t mid = lo + (hi - lo) / 2;
		if (pd->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < pd->nids && pd->ids[lo].id == id ? (int)pd->ids[lo].idx : -1;
}

static int read_attr_ids(struct perfdata *pd, size_t i, uint64_t entry, uint64_t *total)
{
	struct rattr *a = &pd->attrs[i];
	struct file_section s;
	char what[64];

	s.offset = get64(pd, entry);
	s.size = get64(pd, entry + 8);
	snprintf(what, sizeof(what), "ids section of attr %zu", i);
	if (check_section(pd, what, s) < 0)
		return -1;
	if (s.offset % 8)
		return pd_fail(pd, "%s at offset %" PRIu64 " is not 8-byte aligned", what,
			       s.offset);
	a->nids = (size_t)(s.size / 8);
	a->ids = (const uint64_t *)(const void *)(pd->buf + s.offset);
	/* disjoint sections fit in the file; overlapping ones could make the
	 * id table quadratic in the file size */
	*total += a->nids;
	if (*total > pd->len / 8)
		return pd_fail(pd, "%s at offset %" PRIu64 ": the ids sections add up to more "
			       "than the file", what, s.offset);
	return 0;
}

static int read_attrs(struct perfdata *pd)
{
	uint64_t asz = pd->h.attr_size, n, total = 0;

	if (asz < PERF_ATTR_SIZE_VER0 + sizeof(struct file_section))
		return pd_fail(pd, "attr size %" PRIu64 " at offset 16 is smaller than %zu", asz,
			       PERF_ATTR_SIZE_VER0 + sizeof(struct file_section));
	if (check_section(pd, "attr section", pd->h.attrs) < 0)
		return -1;
	if (pd->h.attrs.size % asz)
		return pd_fail(pd, "attr section at offset %" PRIu64 " (%" PRIu64 " bytes) is not "
			       "a whole number of %" PRIu64 "-byte attrs", pd->h.attrs.offset,
			       pd->h.attrs.size, asz);
	n = pd->h.attrs.size / asz;
	if (n > INT32_MAX)   /* attr indexes are ints */
		return pd_fail(pd, "attr section at offset %" PRIu64 ": %" PRIu64 " attrs",
			       pd->h.attrs.offset, n);
	pd->attrs = calloc(n ? n : 1, sizeof(*pd->attrs));
	if (!pd->attrs)
		return pd_fail(pd, "out of memory");
	pd->nattrs = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t entry = pd->h.attrs.offset + i * asz;
		uint64_t on_disk = asz - sizeof(struct file_section);
		size_t k = on_disk < sizeof(pd->attrs[i].attr) ? on_disk : sizeof(pd->attrs[i].attr);
		memcpy(&pd->attrs[i].attr, pd->buf + entry, k);   /* the rest stays 0 */
		if (read_attr_ids(pd, i, entry + on_disk, &total) < 0)
			return -1;
	}
	pd->ids = calloc(total ? total : 1, sizeof(*pd->ids));
	if (!pd->ids)
		return pd_fail(pd, "out of memory");
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < pd->attrs[i].nids; j++) {
			uint64_t id;
			memcpy(&id, &pd->attrs[i].ids[j], 8);
			pd->ids[pd->nids++] = (struct idmap){ id, (uint32_t)i };
		}
	qsort(pd->ids, pd->nids, sizeof(*pd->ids), idmap_cmp);
	return 0;
}

/* --- header ----------------------------------------------------------------- */

static int read_header(struct perfdata *pd)
{
	uint64_t magic, hsize;

	if (pd->len < 16)
		return pd_fail(pd, "%zu bytes: too short for a perf.data header", pd->len);
	magic = get64(pd, 0);
	hsize = get64(pd, 8);
	if (magic == MAGIC2_SWAPPED)
		return pd_fail(pd, "big-endian/other-endian perf.data not supported");
	if (memcmp(pd->buf, "PERFFILE", 8) == 0)
		return pd_fail(pd, "the old PERFFILE format (perf before 2.6.38) is not supported");
	if (magic != MAGIC2)
		return pd_fail(pd, "not a perf.data file (no PERFILE2 magic at offset 0)");
	if (hsize == PIPE_HEADER_SIZE) {   /* records from offset 16 on, read as a stream */
		pd->pipe = true;
		pd->pos = pd->data_off = PIPE_HEADER_SIZE;
		return 0;
	}
	if (hsize != HEADER_SIZE && hsize != HEADER_SIZE_NOFEAT)
		return pd_fail(pd, "header size %" PRIu64 " at offset 8 is neither %d nor %d",
			       hsize, HEADER_SIZE, HEADER_SIZE_NOFEAT);
	if (hsize > pd->len)
		return pd_fail(pd, "header at offset 0 (%" PRIu64 " bytes) runs past the end of "
			       "the file (size %zu)", hsize, pd->len);
	memcpy(&pd->h, pd->buf, hsize);   /* an old header has no feature bits */
	if (check_section(pd, "data section", pd->h.data) < 0)
		return -1;
	pd->data_off = pd->h.data.offset;
	pd->unfinished = pd->h.data.size == 0;
	pd->data_end = pd->unfinished ? pd->len : pd->data_off + pd->h.data.size;
	pd->pos = pd->data_off;
	return 0;
}

static struct perfdata *pd_new(const char *name, char *err, size_t errsz)
{
	struct perfdata *pd = calloc(1, sizeof(*pd));

	if (pd)
		pd->name = strdup(name);
	if (!pd || !pd->name) {
		snprintf(err, errsz, "%s: out of memory", name);
		free(pd);
		return NULL;
	}
	pd->err = err;
	pd->errsz = errsz;
	pd->fd = -1;
	return pd;
}

static int stream_prime(struct perfdata *pd);
static int stream_fill(struct perfdata *pd, size_t want);

static struct perfdata *pd_load(struct perfdata *pd)
{
	if (read_header(pd) < 0 ||
	    (pd->pipe ? stream_prime(pd) < 0
		      : read_attrs(pd) < 0 || (!pd->unfinished && read_features(pd) < 0))) {
		perfdata_close(pd);
		return NULL;
	}
	pd->err = NULL;   /* the caller's buffer is not ours after open */
	return pd;
}

struct perfdata *perfdata_open_mem(const void *buf, size_t len, char *err, size_t errsz)
{
	struct perfdata *pd = pd_new("perf.data", err, errsz);

	if (!pd)
		return NULL;
	/* our own copy: aligned, and exactly LEN bytes for the sanitizers */
	pd->copy = malloc(len ? len : 1);
	if (!pd->copy) {
		pd_fail(pd, "out of memory");
		perfdata_close(pd);
		return NULL;
	}
	if (len)
		memcpy(pd->copy, buf, len);
	pd->buf = pd->copy;
	pd->len = len;
	return pd_load(pd);
}

/* A stream on FD (its 16-byte header not yet read). */
static struct perfdata *stream_open(struct perfdata *pd, int fd, bool own)
{
	pd->fd = fd;
	pd->own_fd = own;
	pd->rbuf = malloc(RECORD_MAX);
	if (!pd->rbuf) {
		pd_fail(pd, "out of memory");
		goto fail;
	}
	for (;;) {
		int rc = stream_fill(pd, PIPE_HEADER_SIZE);
		struct pollfd p = { fd, POLLIN, 0 };
		if (rc == 1)
			break;
		if (rc == 2 && (poll(&p, 1, -1) >= 0 || errno == EINTR))
			continue;
		if (rc == 0)
			pd_fail(pd, "%zu bytes: too short for a perf.data header", pd->have);
		else
			pd_fail(pd, "read: %s", strerror(errno));
		goto fail;
	}
	pd->buf = pd->rbuf;   /* for read_header's checks, then a stream */
	pd->len = PIPE_HEADER_SIZE;
	if (get64(pd, 0) == MAGIC2 && get64(pd, 8) != PIPE_HEADER_SIZE) {
		pd_fail(pd, "a perf.data file on a pipe: only pipe mode (perf record -o -) "
			"streams; give the file's path instead");
		goto fail;
	}
	if (read_header(pd) < 0)
		goto fail;
	pd->buf = NULL;
	pd->len = 0;
	pd->have = 0;
	free(pd->rbuf);
	pd->rbuf = NULL;
	if (stream_prime(pd) < 0)
		goto fail;
	pd->err = NULL;
	return pd;
fail:
	perfdata_close(pd);
	return NULL;
}

struct perfdata *perfdata_open_fd(int fd, const char *name, char *err, size_t errsz)
{
	struct perfdata *pd = pd_new(name, err, errsz);

	return pd ? stream_open(pd, fd, false) : NULL;
}

static int next_fail(struct perfdata *pd, char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int part_number_cmp(const void *a, const void *b)
{
	unsigned long x = strtoul(strrchr(*(char *const *)a, '.') + 1, NULL, 10);
	unsigned long y = strtoul(strrchr(*(char *const *)b, '.') + 1, NULL, 10);

	return x < y ? -1 : x > y;
}

/* DIR's data.N files, by N. */
static int dir_parts(struct perfdata *pd, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	if (!d)
		return pd_fail(pd, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		if (strncmp(n, "data.", 5) != 0 || !n[5] || n[5 + strspn(n + 5, "0123456789")])
			continue;
		if (pd->nparts == DIR_MAX_PARTS) {
			closedir(d);
			return pd_fail(pd, "%s: more than %d data.N files", dir, DIR_MAX_PARTS);
		}
		if (GROW(pd->parts, pd->nparts + 1, cap) < 0)
			break;
		if (asprintf(&pd->parts[pd->nparts], "%s/%s", dir, n) < 0)
			break;
		pd->nparts++;
	}
	closedir(d);
	if (e)
		return pd_fail(pd, "out of memory");
	qsort(pd->parts, pd->nparts, sizeof(*pd->parts), part_number_cmp);
	return 0;
}

/* perf record --threads: DIR/data, then DIR/data.N. */
static struct perfdata *dir_open(const char *dir, char *err, size_t errsz)
{
	char *main_path;
	struct perfdata *pd;

	if (asprintf(&main_path, "%s/data", dir) < 0) {
		snprintf(err, errsz, "%s: out of memory", dir);
		return NULL;
	}
	pd = perfdata_open(main_path, err, errsz);
	free(main_path);
	if (!pd)
		return NULL;
	pd->err = err;
	pd->errsz = errsz;
	if (dir_parts(pd, dir) < 0) {
		perfdata_close(pd);
		return NULL;
	}
	pd->err = NULL;
	return pd;
}

/* The next data.N to read records from: 1, or 0 when none is left. */
static int next_part(struct perfdata *pd, char *err, size_t errsz)
{
	struct stat st;
	int fd;

	if (pd->part_map)
		munmap(pd->part_map, pd->part_len);
	pd->part_map = NULL;
	if (!pd->main_name) {
		pd->main_name = pd->name;
		pd->main_buf = pd->buf;
		pd->main_end = pd->data_end;
	}
	while (pd->ipart < pd->nparts) {
		const char *path = pd->parts[pd->ipart++];
		if (pd->name != pd->main_name)
			free(pd->name);
		pd->name = strdup(path);
		if (!pd->name)
			return pd->name = pd->main_name, next_fail(pd, err, errsz, "out of memory");
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			int e = errno;
			if (fd >= 0)
				close(fd);
			return next_fail(pd, err, errsz, "%s", strerror(e));
		}
		void *map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
				       : NULL;
		close(fd);
		if (map == MAP_FAILED)
			return next_fail(pd, err, errsz, "mmap: %s", strerror(errno));
		if (!map)
			continue;
		pd->part_map = map;
		pd->buf = map;
		pd->part_len = pd->len = (size_t)st.st_size;
		pd->pos = 0;
		pd->data_end = pd->len;
		return 1;
	}
	return 0;
}

/* The first 16 bytes of FD say pipe mode. */
static bool fd_is_pipe_mode(int fd)
{
	uint64_t h[2];

	return pread(fd, h, sizeof(h), 0) == (ssize_t)sizeof(h) && h[0] == MAGIC2 &&
	       h[1] == PIPE_HEADER_SIZE;
}

struct perfdata *perfdata_open(const char *path, char *err, size_t errsz)
{
	struct perfdata *pd = pd_new(strcmp(path, "-") ? path : "stdin", err, errsz);
	struct stat st;
	int fd;

	if (!pd)
		return NULL;
	if (strcmp(path, "-") == 0)
		return stream_open(pd, STDIN_FILENO, false);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		pd_fail(pd, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && fd_is_pipe_mode(fd)))
		return stream_open(pd, fd, true);
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		perfdata_close(pd);
		return dir_open(path, err, errsz);
	}
	if (!S_ISREG(st.st_mode)) {
		pd_fail(pd, "not a regular file");
		goto fail;
	}
	if (st.st_size < 16) {
		pd_fail(pd, "%lld bytes: too short for a perf.data header",
			(long long)st.st_size);
		goto fail;
	}
	pd->len = pd->map_len = (size_t)st.st_size;
	pd->map = mmap(NULL, pd->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (pd->map == MAP_FAILED) {
		pd->map = NULL;
		pd_fail(pd, "mmap: %s", strerror(errno));
		goto fail;
	}
	close(fd);
	pd->buf = pd->map;
	return pd_load(pd);
fail:
	if (fd >= 0)
		close(fd);
	perfdata_close(pd);
	return NULL;
}

void perfdata_close(struct perfdata *pd)
{
	if (!pd)
		return;
	for (size_t i = 0; i < pd->nattrs; i++) {
		free(pd->attrs[i].name);
		free(pd->attrs[i].own_ids);
	}
	free(pd->attrs);
	free(pd->ids);
	for (size_t i = 0; i < pd->nbids; i++)
		free((char *)pd->bids[i].path);
	free(pd->bids);
	for (size_t i = 0; i < pd->ngroups; i++)
		free((char *)pd->groups[i].name);
	free(pd->groups);
	for (size_t i = 0; i < pd->argc; i++)
		free(pd->argv[i]);
	free(pd->argv);
	free(pd->cmdline);
	free(pd->hostname);
	free(pd->osrelease);
	free(pd->arch);
	free(pd->cpudesc);
	free(pd->cpuid);
	free(pd->pmu);
	free(pd->blob);
	free(pd->scratch);
	free(pd->fail_msg);
	if (pd->map)
		munmap(pd->map, pd->map_len);
	if (pd->part_map)
		munmap(pd->part_map, pd->part_len);
	for (size_t i = 0; i < pd->nparts; i++)
		free(pd->parts[i]);
	free(pd->parts);
	if (pd->main_name && pd->main_name != pd->name)
		free(pd->main_name);
	if (pd->own_fd)
		close(pd->fd);
	free(pd->rbuf);
	ZSTD_freeDStream(pd->zstd);
	free(pd->dbuf);
	free(pd->copy);
	free(pd->name);
	free(pd);
}

/* --- records ------------------------------------------------------------------ */

static int next_fail(struct perfdata *pd, char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int stream_next(struct perfdata *pd, const struct perf_event_header **rec,
		       uint64_t *offset, char *err, size_t errsz);
static int64_t record_payload(const struct perf_event_header *rec);

static int next_fail(struct perfdata *pd, char *err, size_t errsz, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pd->failed = true;
	free(pd->fail_msg);
	pd->fail_msg = strdup(msg);
	snprintf(err, errsz, "%s: %s", pd->name, msg);
	return -1;
}

/* A record in place, or copied to scratch when P is misaligned. */
static const struct perf_event_header *aligned(struct perfdata *pd, const unsigned char *p,
					       size_t size)
{
	if ((uintptr_t)p % 8 == 0)
		return (const struct perf_event_header *)(const void *)p;
	/* consumers read the fields in place: give them alignment */
	if (!pd->scratch && !(pd->scratch = malloc(UINT16_MAX + 1)))
		return NULL;
	memcpy(pd->scratch, p, size);
	return (const struct perf_event_header *)(const void *)pd->scratch;
}

/* The next whole record unpacked from COMPRESSED records: 1, or 0 when
 * dbuf holds none (the rest of one may be there). */
static int decomp_next(struct perfdata *pd, const struct perf_event_header **rec,
		       uint64_t *offset, char *err, size_t errsz)
{
	struct perf_event_header h;
	size_t left = pd->dlen - pd->dpos;

	if (left < sizeof(h))
		return 0;
	memcpy(&h, pd->dbuf + pd->dpos, sizeof(h));
	if (h.size < sizeof(h))
		return next_fail(pd, err, errsz, "a record unpacked from the compressed record "
				 "at offset %" PRIu64 " (type %" PRIu32 ") has size %u", pd->doff,
				 h.type, h.size);
	if (h.size > left)
		return 0;
	*rec = aligned(pd, pd->dbuf + pd->dpos, h.size);
	if (!*rec)
		return next_fail(pd, err, errsz, "out of memory");
	*offset = pd->doff;
	pd->dpos += h.size;
	return 1;
}

/* Unpacks the zstd data of REC (at OFF) after what is left in dbuf. */
static int decompress(struct perfdata *pd, const struct perf_event_header *rec, uint64_t off,
		      char *err, size_t errsz)
{
	const unsigned char *data = (const unsigned char *)(rec + 1);
	size_t len = rec->size - sizeof(*rec);
	uint64_t dsz;

	if (rec->type == REC_COMPRESSED2) {   /* u64 data_size, then the data */
		if (len < 8 || (memcpy(&dsz, data, 8), dsz > len - 8))
			return next_fail(pd, err, errsz, "compressed record at offset %" PRIu64
					 ": its data size runs past the record", off);
		data += 8;
		len = (size_t)dsz;
	}
	if (pd->dpos)   /* the start of a record cut by the last one first */
		memmove(pd->dbuf, pd->dbuf + pd->dpos, pd->dlen - pd->dpos);
	pd->dlen -= pd->dpos;
	pd->dpos = 0;
	pd->doff = off;
	if (!pd->zstd && (!(pd->zstd = ZSTD_createDStream()) || ZSTD_isError(ZSTD_initDStream(pd->zstd))))
		return next_fail(pd, err, errsz, "zstd: cannot make a decompression stream");
	ZSTD_inBuffer in = { data, len, 0 };
	while (in.pos < in.size) {
		size_t need = pd->dlen + ZSTD_DStreamOutSize();
		if (need > DECOMP_MAX || GROW(pd->dbuf, need, pd->dcap) < 0)
			return next_fail(pd, err, errsz, "compressed record at offset %" PRIu64
					 ": unpacks to more than %u bytes", off, DECOMP_MAX);
		ZSTD_outBuffer out = { pd->dbuf, pd->dcap, pd->dlen };
		size_t rc = ZSTD_decompressStream(pd->zstd, &out, &in);
		if (ZSTD_isError(rc))
			return next_fail(pd, err, errsz, "compressed record at offset %" PRIu64
					 ": zstd: %s", off, ZSTD_getErrorName(rc));
		pd->dlen = out.pos;
	}
	return 0;
}

static int raw_next(struct perfdata *pd, const struct perf_event_header **rec,
		    uint64_t *offset, char *err, size_t errsz);

int perfdata_next(struct perfdata *pd, const struct perf_event_header **rec,
		  uint64_t *offset, char *err, size_t errsz)
{
	int rc;

	if (pd->failed) {
		snprintf(err, errsz, "%s: %s", pd->name, pd->fail_msg ? pd->fail_msg : "error");
		return -1;
	}
	for (;;) {
		if ((rc = decomp_next(pd, rec, offset, err, errsz)) != 0)
			return rc;
		rc = raw_next(pd, rec, offset, err, errsz);
		if (rc != 1 || ((*rec)->type != REC_COMPRESSED && (*rec)->type != REC_COMPRESSED2))
			break;
		if (decompress(pd, *rec, *offset, err, errsz) < 0)
			return -1;
	}
	if (rc == 0 && pd->dlen > pd->dpos)   /* the last compressed record ends in a record */
		pd->cut += pd->dlen - pd->dpos, pd->dpos = pd->dlen;
	return rc;
}

/* The next record of the file or stream, COMPRESSED ones included. */
static int raw_next(struct perfdata *pd, const struct perf_event_header **rec,
		    uint64_t *offset, char *err, size_t errsz)
{
	struct perf_event_header h = { 0, 0, 0 };
	uint64_t left;
	const unsigned char *p;

	if (pd->pipe)
		return stream_next(pd, rec, offset, err, errsz);
again:
	while (pd->pos >= pd->data_end) {
		int rc = pd->ipart < pd->nparts ? next_part(pd, err, errsz) : 0;
		if (rc <= 0)
			return rc;
	}
	left = pd->data_end - pd->pos;
	memcpy(&h, pd->buf + pd->pos, left < sizeof(h) ? left : sizeof(h));
	if ((pd->unfinished || pd->part_map) && (left < sizeof(h) || h.size > left)) {
		/* the writer was stopped in the middle of a record */
		pd->cut += left;
		pd->pos = pd->data_end;
		goto again;
	}
	if (left < sizeof(h))
		return next_fail(pd, err, errsz, "record header at offset %" PRIu64 " is cut: "
				 "%" PRIu64 " bytes left in the data section", pd->pos, left);
	p = pd->buf + pd->pos;
	if (h.size < sizeof(h))
		return next_fail(pd, err, errsz, "record at offset %" PRIu64 " (type %" PRIu32
				 ") has size %u, less than its header", pd->pos, h.type, h.size);
	if (h.size > left)
		return next_fail(pd, err, errsz, "record at offset %" PRIu64 " (type %" PRIu32
				 ", size %u) runs past the end of the data section at offset %"
				 PRIu64, pd->pos, h.type, h.size, pd->data_end);
	*rec = aligned(pd, p, h.size);
	if (!*rec)
		return next_fail(pd, err, errsz, "out of memory");
	int64_t payload = record_payload(*rec);
	if (payload < 0 || (uint64_t)payload > left - h.size)
		return next_fail(pd, err, errsz, "record at offset %" PRIu64 " (type %" PRIu32
				 ", size %u): its payload runs past the end of the data section "
				 "at offset %" PRIu64, pd->pos, h.type, h.size, pd->data_end);
	*offset = pd->pos;
	pd->pos += h.size + (uint64_t)payload;
	return 1;
}


/* --- pipe mode --------------------------------------------------------------
 *
 * perf record -o - writes a 16-byte header, then only records: its own
 * (tools/perf/util/event.h) carry what a file keeps in sections.
 * HEADER_ATTR is an attr (attr.size bytes) and its ids; HEADER_FEATURE a
 * u64 feature bit and the body the file's section would hold;
 * HEADER_BUILD_ID one build-id record of the HEADER_BUILD_ID section;
 * HEADER_TRACING_DATA and AUXTRACE are followed by a payload their
 * header.size does not count. */

/* The payload after REC that its size does not count: TRACING_DATA's u32
 * size (padded to 8), AUXTRACE's u64 size.  -1 if the record is too short
 * to say. */
static int64_t record_payload(const struct perf_event_header *rec)
{
	uint64_t body = rec->size - sizeof(*rec), v = 0;

	if (rec->type == REC_HEADER_TRACING_DATA) {
		uint32_t n;
		if (body < 4)
			return -1;
		memcpy(&n, rec + 1, 4);
		return (int64_t)align_up(n, 8);
	}
	if (rec->type == REC_AUXTRACE) {
		if (body < 8)
			return -1;
		memcpy(&v, rec + 1, 8);
		return v > INT64_MAX ? -1 : (int64_t)v;
	}
	return 0;
}

/* Up to N bytes of the stream into DST: read(2), or the buffer of _open_mem. */
static ssize_t src_read(struct perfdata *pd, void *dst, size_t n)
{
	ssize_t got;

	if (pd->fd < 0) {
		size_t left = pd->len - (size_t)pd->pos;
		n = n < left ? n : left;
		memcpy(dst, pd->buf + pd->pos, n);
		pd->pos += n;
		return (ssize_t)n;
	}
	do
		got = read(pd->fd, dst, n);
	while (got < 0 && errno == EINTR);
	return got;
}

/* rbuf up to WANT bytes: 1 when there, 0 at the end of the stream, 2 when
 * a non-blocking fd has no more yet, -1 on a read error (errno). */
static int stream_fill(struct perfdata *pd, size_t want)
{
	while (pd->have < want) {
		ssize_t n = src_read(pd, pd->rbuf + pd->have, want - pd->have);
		if (n == 0)
			return 0;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 2 : -1;
		pd->have += (size_t)n;
	}
	return 1;
}

/* Steps over the payload of the last record: 1, 0 (the stream ended in
 * it), 2, -1 as stream_fill. */
static int stream_skip(struct perfdata *pd)
{
	unsigned char sink[4096];

	while (pd->skip > 0) {
		ssize_t n = src_read(pd, sink, pd->skip < sizeof(sink) ? pd->skip : sizeof(sink));
		if (n == 0)
			return 0;
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 2 : -1;
		pd->skip -= (uint64_t)n;
		pd->soff += (uint64_t)n;
	}
	return 1;
}

/* HEADER_ATTR: the attr (its size field says how long; 0 is the first
 * version's 64 bytes), then its ids to the end of the record. */
static int pipe_attr(struct perfdata *pd, const struct perf_event_header *rec)
{
	uint64_t body = rec->size - sizeof(*rec);
	uint32_t asz = 0;
	struct rattr *a;

	if (body >= 8)
		memcpy(&asz, (const unsigned char *)(rec + 1) + 4, 4);
	asz = asz ? asz : PERF_ATTR_SIZE_VER0;
	if (body < 8 || asz < PERF_ATTR_SIZE_VER0 || asz > body || (body - asz) % 8)
		return pd_fail(pd, "HEADER_ATTR record at offset %" PRIu64 ": attr size %" PRIu32
			       " does not fit its %" PRIu64 " bytes", pd->soff, asz, body);
	if (pd->nattrs == PIPE_MAX_ATTRS)
		return pd_fail(pd, "HEADER_ATTR record at offset %" PRIu64 ": more than %d attrs",
			       pd->soff, PIPE_MAX_ATTRS);
	if (GROW(pd->attrs, pd->nattrs + 1, pd->attr_cap) < 0)
		return pd_fail(pd, "out of memory");
	a = &pd->attrs[pd->nattrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, rec + 1, asz < sizeof(a->attr) ? asz : sizeof(a->attr));
	a->nids = (body - asz) / 8;
	a->own_ids = malloc(a->nids ? a->nids * 8 : 1);
	struct idmap *ids = realloc(pd->ids, (pd->nids + a->nids + 1) * sizeof(*ids));
	if (ids)
		pd->ids = ids;
	if (!a->own_ids || !ids) {
		free(a->own_ids);
		return pd_fail(pd, "out of memory");
	}
	memcpy(a->own_ids, (const unsigned char *)(rec + 1) + asz, a->nids * 8);
	a->ids = a->own_ids;
	for (size_t j = 0; j < a->nids; j++)
		pd->ids[pd->nids++] = (struct idmap){ a->own_ids[j], (uint32_t)pd->nattrs };
	pd->nattrs++;
	qsort(pd->ids, pd->nids, sizeof(*pd->ids), idmap_cmp);
	return 0;
}

/* perf's own records that carry the header's contents. */
static int pipe_header_record(struct perfdata *pd, const struct perf_event_header *rec)
{
	const unsigned char *base = (const unsigned char *)rec;
	uint64_t bit;

	switch (rec->type) {
	case REC_HEADER_ATTR:
		return pipe_attr(pd, rec);
	case REC_HEADER_BUILD_ID:
		return read_feature_at(pd, base, FEAT_BUILD_ID,
				       (struct file_section){ 0, rec->size });
	case REC_HEADER_FEATURE:
		if (rec->size < sizeof(*rec) + 8)
			return pd_fail(pd, "HEADER_FEATURE record at offset %" PRIu64 " has no "
				       "feature id", pd->soff);
		memcpy(&bit, rec + 1, 8);
		if (bit >= FEAT_BITS)
			return 0;   /* perf skips what it does not know */
		return read_feature_at(pd, base, (unsigned int)bit,
				       (struct file_section){ 16, rec->size - 16u });
	default:
		return 0;
	}
}

/* The next whole record into rbuf: 1, 0 at the end (a record cut by the
 * end is counted in cut), 2 (non-blocking fd: not all there yet), -1 with
 * a message in pd's err. */
static int stream_record(struct perfdata *pd)
{
	struct perf_event_header h;
	int64_t payload;
	int rc;

	if (pd->have == 0 && (rc = stream_skip(pd)) != 1)
		return rc == 0 ? pd_fail(pd, "the stream ends in a record's payload at offset "
					 "%" PRIu64, pd->soff) : rc == 2 ? 2 : pd_fail(pd, "read: %s",
					 strerror(errno));
	rc = stream_fill(pd, sizeof(h));
	if (rc == 1) {
		memcpy(&h, pd->rbuf, sizeof(h));
		if (h.size < sizeof(h))
			return pd_fail(pd, "record at offset %" PRIu64 " (type %" PRIu32 ") has "
				       "size %u, less than its header", pd->soff, h.type, h.size);
		rc = stream_fill(pd, h.size);
	}
	if (rc == 0) {   /* the writer stopped, maybe in the middle of a record */
		pd->cut = pd->have;
		return 0;
	}
	if (rc != 1)
		return rc == 2 ? 2 : pd_fail(pd, "read: %s", strerror(errno));
	payload = record_payload((const struct perf_event_header *)(const void *)pd->rbuf);
	if (payload < 0)
		return pd_fail(pd, "record at offset %" PRIu64 " (type %" PRIu32 ") is too short "
			       "for its payload size", pd->soff, h.type);
	pd->skip = (uint64_t)payload;
	return pipe_header_record(pd, (const struct perf_event_header *)(const void *)pd->rbuf)
		       < 0 ? -1 : 1;
}

/* Waits until FD has bytes (or its end) to read. */
static int stream_wait(struct perfdata *pd)
{
	struct pollfd p = { pd->fd, POLLIN, 0 };

	if (poll(&p, 1, -1) < 0 && errno != EINTR)
		return pd_fail(pd, "poll: %s", strerror(errno));
	return 0;
}

/* Opening: perf's header records up to the first of the kernel's (or a
 * COMPRESSED one), which stays pending for perfdata_next; a non-blocking
 * fd is waited for. */
static int stream_prime(struct perfdata *pd)
{
	int rc;

	pd->rbuf = malloc(RECORD_MAX);
	if (!pd->rbuf)
		return pd_fail(pd, "out of memory");
	pd->soff = pd->data_off;
	for (;;) {
		rc = stream_record(pd);
		if (rc == 2) {
			if (stream_wait(pd) < 0)
				return -1;
			continue;
		}
		if (rc <= 0)
			return rc;
		uint32_t type = ((const struct perf_event_header *)(const void *)pd->rbuf)->type;
		if (type < 64 || type == REC_COMPRESSED || type == REC_COMPRESSED2) {
			pd->pending = true;   /* the kernel's records, or records packed */
			return 0;
		}
		pd->soff += pd->have;
		pd->have = 0;
	}
}

/* perfdata_next in pipe mode. */
static int stream_next(struct perfdata *pd, const struct perf_event_header **rec,
		       uint64_t *offset, char *err, size_t errsz)
{
	int rc = 1;

	if (pd->yielded) {   /* the record given last time */
		pd->soff += pd->have;
		pd->have = 0;
		pd->yielded = false;
	}
	if (!pd->pending) {
		pd->err = err;   /* the feature readers report through pd_fail */
		pd->errsz = errsz;
		while ((rc = stream_record(pd)) == 2 && !pd->nowait)
			if (stream_wait(pd) < 0) {
				rc = -1;
				break;
			}
		pd->err = NULL;
	}
	pd->pending = false;
	if (rc < 0) {
		size_t skip = strlen(pd->name) + 2;
		pd->failed = true;
		free(pd->fail_msg);
		pd->fail_msg = strdup(strlen(err) > skip ? err + skip : "error");
		return -1;
	}
	if (rc == 1) {
		*rec = (const struct perf_event_header *)(const void *)pd->rbuf;
		*offset = pd->soff;
		pd->yielded = true;
	}
	return rc;
}

void perfdata_rewind(struct perfdata *pd)
{
	if (pd->pipe)
		return;   /* a stream is read once */
	if (pd->main_name) {   /* back to DIR/data */
		if (pd->part_map)
			munmap(pd->part_map, pd->part_len);
		pd->part_map = NULL;
		if (pd->name != pd->main_name)
			free(pd->name);
		pd->name = pd->main_name;
		pd->main_name = NULL;
		pd->buf = pd->main_buf;
		pd->len = pd->map_len;
		pd->data_end = pd->main_end;
		pd->ipart = 0;
	}
	pd->dlen = pd->dpos = 0;
	if (pd->zstd)
		ZSTD_initDStream(pd->zstd);
	pd->pos = pd->data_off;
	pd->failed = false;
	pd->cut = 0;
}

/* --- accessors ------------------------------------------------------------- */

size_t perfdata_nr_attrs(const struct perfdata *pd)
{
	return pd->nattrs;
}

const struct perf_event_attr *perfdata_attr(const struct perfdata *pd, size_t i)
{
	return i < pd->nattrs ? &pd->attrs[i].attr : NULL;
}

const uint64_t *perfdata_attr_ids(const struct perfdata *pd, size_t i, size_t *nids)
{
	*nids = i < pd->nattrs ? pd->attrs[i].nids : 0;
	return i < pd->nattrs ? pd->attrs[i].ids : NULL;
}

const char *perfdata_attr_name(const struct perfdata *pd, size_t i)
{
	return i < pd->nattrs ? pd->attrs[i].name : NULL;
}

int perfdata_attr_of_id(const struct perfdata *pd, uint64_t id)
{
	return id_lookup(pd, id);
}

bool perfdata_sample_id_all(const struct perfdata *pd)
{
	return pd->nattrs && pd->attrs[0].attr.sample_id_all;
}

/* perf's evsel id_pos: the u64 index of the id in a SAMPLE's body */
static int sample_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_IP);
	idx += !!(st & PERF_SAMPLE_TID);
	idx += !!(st & PERF_SAMPLE_TIME);
	idx += !!(st & PERF_SAMPLE_ADDR);
	return idx;
}

/* perf's evsel is_pos: the id's u64 position counted from a record's end */
static int trailer_id_pos(uint64_t st)
{
	int idx = 1;

	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	idx += !!(st & PERF_SAMPLE_CPU);
	idx += !!(st & PERF_SAMPLE_STREAM_ID);
	return idx;
}

int perfdata_record_attr(const struct perfdata *pd, const struct perf_event_header *rec)
{
	uint64_t st, id, body = rec->size >= sizeof(*rec) ? rec->size - sizeof(*rec) : 0;
	const unsigned char *p = (const unsigned char *)(rec + 1);
	int pos;

	if (rec->type >= 64)   /* PERF_RECORD_USER_TYPE_START: perf's own, no id */
		return -1;
	if (pd->nattrs <= 1)
		return pd->nattrs ? 0 : -1;
	st = pd->attrs[0].attr.sample_type;
	if (rec->type == PERF_RECORD_SAMPLE) {
		pos = sample_id_pos(st);
		if (pos < 0 || body < (uint64_t)(pos + 1) * 8)
			return -1;
		memcpy(&id, p + pos * 8, 8);
	} else if (pd->attrs[0].attr.sample_id_all) {
		pos = trailer_id_pos(st);
		if (pos < 0 || body < (uint64_t)pos * 8)
			return -1;
		memcpy(&id, p + body - (uint64_t)pos * 8, 8);
	} else {
		return -1;
	}
	return id_lookup(pd, id);
}

bool perfdata_is_pipe(const struct perfdata *pd)
{
	return pd->pipe;
}

int perfdata_stream_fd(const struct perfdata *pd)
{
	return pd->pipe ? pd->fd : -1;
}

void perfdata_stream_nowait(struct perfdata *pd, bool on)
{
	pd->nowait = on;
}

bool perfdata_unfinished(const struct perfdata *pd)
{
	return pd->unfinished;
}

uint64_t perfdata_cut_bytes(const struct perfdata *pd)
{
	return pd->cut;
}

bool perfdata_interrupted(const struct perfdata *pd)
{
	bool features = false;

	for (size_t i = 0; i < FEAT_BITS / 64; i++)
		features |= pd->h.features[i] != 0;
	return pd->unfinished || (pd->h.size == HEADER_SIZE && !features);
}

uint64_t perfdata_data_offset(const struct perfdata *pd)
{
	return pd->data_off;
}

uint64_t perfdata_data_size(const struct perfdata *pd)
{
	if (pd->pipe)
		return pd->soff - pd->data_off;
	return pd->data_end - pd->data_off;
}

bool perfdata_has_feature(const struct perfdata *pd, unsigned int bit)
{
	return feat_set(&pd->h, bit);
}

const char *perfdata_hostname(const struct perfdata *pd)
{
	return pd->hostname;
}

const char *perfdata_osrelease(const struct perfdata *pd)
{
	return pd->osrelease;
}

const char *perfdata_arch(const struct perfdata *pd)
{
	return pd->arch;
}

const char *perfdata_cpudesc(const struct perfdata *pd)
{
	return pd->cpudesc;
}

const char *perfdata_cpuid(const struct perfdata *pd)
{
	return pd->cpuid;
}

uint32_t perfdata_nr_cpus(const struct perfdata *pd)
{
	return pd->nr_cpus;
}

const char *perfdata_cmdline(const struct perfdata *pd)
{
	return pd->cmdline;
}

const char *const *perfdata_cmdline_argv(const struct perfdata *pd, size_t *argc)
{
	*argc = pd->argc;
	return (const char *const *)pd->argv;
}

size_t perfdata_nr_build_ids(const struct perfdata *pd)
{
	return pd->nbids;
}

const struct perfdata_build_id *perfdata_build_id(const struct perfdata *pd, size_t i)
{
	return i < pd->nbids ? &pd->bids[i] : NULL;
}

size_t perfdata_nr_groups(const struct perfdata *pd)
{
	return pd->ngroups;
}

const struct perfdata_group *perfdata_group(const struct perfdata *pd, size_t i)
{
	return i < pd->ngroups ? &pd->groups[i] : NULL;
}

const char *perfdata_pmu(const struct perfdata *pd)
{
	return pd->pmu && pd->pmu[0] ? pd->pmu : NULL;
}

const void *perfdata_blob(const struct perfdata *pd, size_t *len)
{
	*len = pd->blob ? (size_t)pd->blob_len : 0;
	return pd->blob;
}

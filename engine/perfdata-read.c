/* perf.data reader: opening a file, a buffer or a perf record --threads
 * directory, the attrs and their ids, the records (zstd COMPRESSED ones
 * unpacked), and the accessors of the attrs.  The feature sections are
 * perfdata-feat.c's, pipe mode perfdata-pipe.c's; the format is in
 * engine/perfdata-priv.h. */
#include "config.h"

#include "engine/perfdata-priv.h"
#include "lib/hashtab.h"
#include "engine/lib-load.h"
#include "engine/record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* libzstd, loaded at the first COMPRESSED record (engine/lib-load.c): few
 * files are perf record -z's, and linked it went to every start. */
static struct {
	struct lib_image image;
	LIB_FN(ZSTD_createDStream);
	LIB_FN(ZSTD_initDStream);
	LIB_FN(ZSTD_freeDStream);
	LIB_FN(ZSTD_DStreamOutSize);
	LIB_FN(ZSTD_decompressStream);
	LIB_FN(ZSTD_isError);
	LIB_FN(ZSTD_getErrorName);
} zstd_lib = { .image = { .soname = ZSTD_SONAME } };

static int zstd_load(char *err, size_t errsz)
{
	const struct lib_sym sym[] = {
		LIB_SYM(zstd_lib, ZSTD_createDStream),
		LIB_SYM(zstd_lib, ZSTD_initDStream),
		LIB_SYM(zstd_lib, ZSTD_freeDStream),
		LIB_SYM(zstd_lib, ZSTD_DStreamOutSize),
		LIB_SYM(zstd_lib, ZSTD_decompressStream),
		LIB_SYM(zstd_lib, ZSTD_isError),
		LIB_SYM(zstd_lib, ZSTD_getErrorName),
	};

	return lib_load(&zstd_lib.image, sym, sizeof(sym) / sizeof(sym[0]), err, errsz);
}

int pd_fail(struct perfdata *pd, const char *fmt, ...)
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

int pd_check_section(struct perfdata *pd, const char *what, struct file_section s)
{
	if (in_file(pd, s.offset, s.size))
		return 0;
	return pd_fail(pd, "%s at offset %" PRIu64 " (%" PRIu64 " bytes) runs past the end "
		       "of the file (size %zu)", what, s.offset, s.size, pd->len);
}

/* --- attrs and ids -------------------------------------------------------- */

int pd_idmap_cmp(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int pd_id_lookup(const struct perfdata *pd, uint64_t id)
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
	if (pd_check_section(pd, what, s) < 0)
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
	if (pd_check_section(pd, "attr section", pd->h.attrs) < 0)
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
	qsort(pd->ids, pd->nids, sizeof(*pd->ids), pd_idmap_cmp);
	return 0;
}

/* --- header ----------------------------------------------------------------- */

int pd_read_header(struct perfdata *pd)
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
	if (pd_check_section(pd, "data section", pd->h.data) < 0)
		return -1;
	pd->data_off = pd->h.data.offset;
	pd->unfinished = pd->h.data.size == 0;
	pd->data_end = pd->unfinished ? pd->len : pd->data_off + pd->h.data.size;
	pd->pos = pd->data_off;
	return 0;
}

struct perfdata *pd_new(const char *name, char *err, size_t errsz)
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

static struct perfdata *pd_load(struct perfdata *pd)
{
	if (pd_read_header(pd) < 0 ||
	    (pd->pipe ? pd_stream_prime(pd) < 0
		      : read_attrs(pd) < 0 || (!pd->unfinished && pd_read_features(pd) < 0))) {
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
		return pd_stream_open(pd, STDIN_FILENO, false);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		pd_fail(pd, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISFIFO(st.st_mode) || (S_ISREG(st.st_mode) && fd_is_pipe_mode(fd)))
		return pd_stream_open(pd, fd, true);
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
	if (pd->zstd)   /* made: the library is loaded */
		zstd_lib.ZSTD_freeDStream(pd->zstd);
	free(pd->dbuf);
	free(pd->copy);
	free(pd->name);
	free(pd);
}

/* --- records ------------------------------------------------------------------ */

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
	char why[256];
	if (!pd->zstd && zstd_load(why, sizeof(why)) < 0)
		return next_fail(pd, err, errsz, "%s", why);
	if (!pd->zstd && (!(pd->zstd = zstd_lib.ZSTD_createDStream()) ||
			  zstd_lib.ZSTD_isError(zstd_lib.ZSTD_initDStream(pd->zstd))))
		return next_fail(pd, err, errsz, "zstd: cannot make a decompression stream");
	ZSTD_inBuffer in = { data, len, 0 };
	while (in.pos < in.size) {
		size_t need = pd->dlen + zstd_lib.ZSTD_DStreamOutSize();
		if (need > DECOMP_MAX || GROW(pd->dbuf, need, pd->dcap) < 0)
			return next_fail(pd, err, errsz, "compressed record at offset %" PRIu64
					 ": unpacks to more than %u bytes", off, DECOMP_MAX);
		ZSTD_outBuffer out = { pd->dbuf, pd->dcap, pd->dlen };
		size_t rc = zstd_lib.ZSTD_decompressStream(pd->zstd, &out, &in);
		if (zstd_lib.ZSTD_isError(rc))
			return next_fail(pd, err, errsz, "compressed record at offset %" PRIu64
					 ": zstd: %s", off, zstd_lib.ZSTD_getErrorName(rc));
		pd->dlen = out.pos;
	}
	return 0;
}

static int raw_next(struct perfdata *pd, const struct perf_event_header **rec,
		    uint64_t *offset, char *err, size_t errsz);

/* The next record of a file read whole when it is a plain one, whole and
 * aligned where it lies (no payload, not compressed, nothing unpacked
 * waiting): 1; else 0 and raw_next's checks say what it is.  Three in
 * four instructions of reading a record went to the general path. */
static int plain_next(struct perfdata *pd, const struct perf_event_header **rec,
		      uint64_t *offset)
{
	struct perf_event_header h;
	const unsigned char *p = pd->buf + pd->pos;

	if (pd->pipe || pd->failed || pd->dpos < pd->dlen || pd->pos >= pd->data_end ||
	    pd->data_end - pd->pos < sizeof(h) || (uintptr_t)p % 8)
		return 0;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h) || h.size > pd->data_end - pd->pos ||
	    (h.type >= REC_HEADER_TRACING_DATA && h.type != REC_FINISHED_ROUND))
		return 0;
	*rec = (const struct perf_event_header *)(const void *)p;
	*offset = pd->pos;
	pd->pos += h.size;
	return 1;
}

/* perfdata_next's every other case: a function of its own, so that the
 * plain path saves none of the registers it needs. */
static __attribute__((noinline)) int general_next(struct perfdata *pd,
						  const struct perf_event_header **rec,
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

int perfdata_next(struct perfdata *pd, const struct perf_event_header **rec,
		  uint64_t *offset, char *err, size_t errsz)
{
	return plain_next(pd, rec, offset) ? 1 : general_next(pd, rec, offset, err, errsz);
}

/* The next record of the file or stream, COMPRESSED ones included. */
static int raw_next(struct perfdata *pd, const struct perf_event_header **rec,
		    uint64_t *offset, char *err, size_t errsz)
{
	struct perf_event_header h = { 0, 0, 0 };
	uint64_t left;
	const unsigned char *p;

	if (pd->pipe)
		return pd_stream_next(pd, rec, offset, err, errsz);
again:
	while (pd->pos >= pd->data_end) {
		int rc = pd->ipart < pd->nparts ? next_part(pd, err, errsz) : 0;
		if (rc <= 0)
			return rc;
	}
	left = pd->data_end - pd->pos;
	/* a constant size: one load, where a variable one is a byte loop */
	if (left >= sizeof(h))
		memcpy(&h, pd->buf + pd->pos, sizeof(h));
	else
		memcpy(&h, pd->buf + pd->pos, left);
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
	int64_t payload = pd_record_payload(*rec);
	if (payload < 0 || (uint64_t)payload > left - h.size)
		return next_fail(pd, err, errsz, "record at offset %" PRIu64 " (type %" PRIu32
				 ", size %u): its payload runs past the end of the data section "
				 "at offset %" PRIu64, pd->pos, h.type, h.size, pd->data_end);
	*offset = pd->pos;
	pd->pos += h.size + (uint64_t)payload;
	return 1;
}

/* The payload after REC that its size does not count (a file's records and
 * a stream's): TRACING_DATA's u32 size (padded to 8), AUXTRACE's u64 size.
 * -1 if the record is too short to say. */
int64_t pd_record_payload(const struct perf_event_header *rec)
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
		zstd_lib.ZSTD_initDStream(pd->zstd);
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
	return pd_id_lookup(pd, id);
}

bool perfdata_sample_id_all(const struct perfdata *pd)
{
	return pd->nattrs && pd->attrs[0].attr.sample_id_all;
}

int perfdata_record_attr(const struct perfdata *pd, const struct perf_event_header *rec)
{
	uint64_t id;

	if (rec->type >= 64)   /* PERF_RECORD_USER_TYPE_START: perf's own, no id */
		return -1;
	if (pd->nattrs <= 1)
		return pd->nattrs ? 0 : -1;
	if (!record_id(rec, pd->attrs[0].attr.sample_type, pd->attrs[0].attr.sample_id_all, &id))
		return -1;
	return pd_id_lookup(pd, id);
}

bool perfdata_record_lasts(const struct perfdata *pd, const struct perf_event_header *rec)
{
	uintptr_t p = (uintptr_t)rec, map = (uintptr_t)pd->map;

	return map && p >= map && p - map < pd->map_len;
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

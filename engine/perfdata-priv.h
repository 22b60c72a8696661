/* The private side of engine/perfdata*.c: the PERFILE2 format as perf
 * defines it, the reader's state, and what the writer, the reader, the
 * feature sections and pipe mode share.  engine/perfdata.h is the public
 * interface; nothing outside engine/perfdata-*.c includes this.
 *
 * The rooms:
 *   perfdata-write.c  the writer (cyctop record -o FILE)
 *   perfdata-read.c   opening a file, a buffer or a --threads directory,
 *                     the attrs and ids, the records (COMPRESSED ones
 *                     unpacked), the accessors of the attrs
 *   perfdata-feat.c   the feature sections (and pipe mode's records that
 *                     carry them) and their accessors
 *   perfdata-pipe.c   pipe mode (perf record -o -): a stream of records
 *
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
#ifndef ENGINE_PERFDATA_PRIV_H
#define ENGINE_PERFDATA_PRIV_H

#include "engine/perfdata.h"

#include <string.h>
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

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

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

static inline uint64_t get64(const struct perfdata *pd, uint64_t off)
{
	uint64_t v;

	memcpy(&v, pd->buf + off, 8);
	return v;
}

/* --- perfdata-read.c ------------------------------------------------------ */

/* Writes "NAME: message" to the caller's err buffer (if any); returns -1. */
int pd_fail(struct perfdata *pd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0 if section S lies inside the file, else pd_fail naming WHAT. */
int pd_check_section(struct perfdata *pd, const char *what, struct file_section s);
/* The lowest attr index with ID, or -1. */
int pd_id_lookup(const struct perfdata *pd, uint64_t id);
/* qsort order of the id table: by id, then attr index. */
int pd_idmap_cmp(const void *a, const void *b);
/* Checks the header at buf: a file's (read into pd->h) or a stream's. */
int pd_read_header(struct perfdata *pd);
/* A reader named NAME reporting into ERR until it is open. */
struct perfdata *pd_new(const char *name, char *err, size_t errsz);
/* The payload after REC that its size does not count, or -1. */
int64_t pd_record_payload(const struct perf_event_header *rec);

/* --- perfdata-feat.c ------------------------------------------------------ */

/* Every feature section of the file (pd->data_end: the table). */
int pd_read_features(struct perfdata *pd);
/* Feature BIT's body: S in the file, or in BASE (a pipe's HEADER_FEATURE). */
int pd_read_feature_at(struct perfdata *pd, const unsigned char *base, unsigned int bit,
		       struct file_section s);

/* --- perfdata-pipe.c ------------------------------------------------------ */

/* A stream on FD (its 16-byte header not yet read); OWN: close FD. */
struct perfdata *pd_stream_open(struct perfdata *pd, int fd, bool own);
/* Opening: perf's header records up to the first of the kernel's. */
int pd_stream_prime(struct perfdata *pd);
/* perfdata_next in pipe mode. */
int pd_stream_next(struct perfdata *pd, const struct perf_event_header **rec,
		   uint64_t *offset, char *err, size_t errsz);

#endif

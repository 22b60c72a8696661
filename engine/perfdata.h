/* perf.data files (the PERFILE2 format of "perf record"): a writer for
 * "cyctop record -o FILE" and a reader for "cyctop -i FILE".
 *
 * Files are native-endian.  The layout this writer produces:
 *
 *	header (104 bytes)
 *	data section: the records, as the kernel wrote them
 *	feature section table: one {offset, size} per set feature bit
 *	feature bodies (HEADER_BUILD_ID ... HEADER_GROUP_DESC, then cyctop's)
 *	ids sections, then the attrs section (attr + {ids offset, size} each)
 *
 * perf itself puts ids and attrs before the data; it finds every section
 * through the header, so either order reads the same (checked with perf 6.1:
 * report, script and report --header-only take our files without a word).
 *
 * The reader holds the whole file (mapped, or copied for _open_mem) and
 * checks every size and offset against it before use: hostile files give
 * one error line naming the file and the offset, never a crash, and no
 * allocation is larger than a small multiple of the file's size.  It also
 * reads what else perf writes: pipe mode (perf record -o -: a stream of
 * records, read one at a time, from stdin, a FIFO or a file), zstd
 * COMPRESSED records (perf record -z; at most 64 MB unpacked per record)
 * and perf record --threads directories (DIR/data, then DIR/data.N). */
#ifndef ENGINE_PERFDATA_H
#define ENGINE_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* perf's own record types (tools/perf/util/event.h, perf_user_event_type:
 * from PERF_RECORD_USER_TYPE_START, 64), which perf.data carries beside the
 * kernel's records; defined here once for the reader, the writer and the
 * sessions that read and record. */
#define REC_HEADER_ATTR 64
#define REC_HEADER_TRACING_DATA 66
#define REC_HEADER_BUILD_ID 67
#define REC_FINISHED_ROUND 68   /* what came before may be put in order */
#define REC_AUXTRACE 71
#define REC_HEADER_FEATURE 80
#define REC_COMPRESSED 81       /* zstd frames of records (perf record -z) */
#define REC_COMPRESSED2 83      /* the same after a u64 data size (perf 6.14) */

/* cyctop's own feature section: a bit perf never iterates (it processes set
 * bits below its HEADER_LAST_FEATURE only, and the section of the highest
 * bit comes last in the table, so skipping it shifts nothing). */
#define PERFDATA_FEAT_CYCTOP 255

struct perfdata_build_id {
	int32_t pid;          /* -1: the host machine (what perf writes) */
	bool kernel;          /* PERF_RECORD_MISC_KERNEL, else USER */
	const char *path;
	uint8_t id[20];
	size_t id_len;        /* 1..20 (20 for SHA-1) */
};

struct perfdata_group {
	const char *name;     /* NULL: perf's "{anon_group}" */
	uint32_t leader_idx;  /* attr index of the leader */
	uint32_t nr_members;  /* leader included; members follow it */
};

/* What perfdata_finish stores beside the attrs and records.  NULL strings
 * and zero counts are allowed: hostname, osrelease and arch then come from
 * uname(), nr_cpus from sysconf. */
struct perfdata_meta {
	const char *const *cmdline;   /* argv, NULL-terminated (NULL: none) */
	const char *cpudesc;
	const char *cpuid;            /* perf's "GenuineIntel,6,15,11" (NULL: none) */
	const char *pmu;              /* libpfm4 PMU: "core", "amd64_k8_revg", "perf" */
	uint32_t nr_cpus;
	const char *hostname, *osrelease, *arch;
	const struct perfdata_build_id *build_ids;
	size_t nr_build_ids;
	const struct perfdata_group *groups;
	size_t nr_groups;
	const void *blob;             /* cyctop's metadata, carried as bytes */
	size_t blob_len;
};

/* --- writer ------------------------------------------------------------ */

struct perfdata_writer;

struct perfdata_writer *perfdata_create(const char *path, char *err, size_t errsz);
/* Adds an event: ATTR (its size field is set to ours on disk), its sample
 * ids and NAME, the event string (HEADER_EVENT_DESC; NULL: "rCONFIG" style).
 * May be called at any time before perfdata_finish.  Returns the attr index,
 * or -1 (errno set). */
int perfdata_add_attr(struct perfdata_writer *w, const struct perf_event_attr *attr,
		      const uint64_t *ids, size_t nids, const char *name);
/* More ids for attr IDX (events reopened, e.g. one run per group). */
int perfdata_add_ids(struct perfdata_writer *w, int idx, const uint64_t *ids, size_t nids);
/* Appends REC (rec->size bytes, at least the header) to the data section,
 * buffered.  0, or -1 with errno (the error is also kept for finish). */
int perfdata_write(struct perfdata_writer *w, const struct perf_event_header *rec);
/* Before the first record: writes the attrs added so far with their ids
 * and a header that points at them, data size 0.  finish writes the attrs
 * again (with the ids added since) after the data.  0, or -1 with errno. */
int perfdata_begin(struct perfdata_writer *w);
/* Writes the buffered records out; after perfdata_begin, also a header
 * that covers them (no features yet), so that a recording killed after it
 * reads, by cyctop and by perf, up to its last flush.  0, or -1 with errno. */
int perfdata_flush(struct perfdata_writer *w);
/* Writes the features, ids and attrs, patches the header, closes and frees
 * W.  A file without records gets one FINISHED_ROUND record, since a data
 * size of 0 means "unfinished" to perf.  0, or -1 with a message in ERR. */
int perfdata_finish(struct perfdata_writer *w, const struct perfdata_meta *meta, char *err,
		    size_t errsz);
/* Closes and frees W, leaving whatever was written (no header). */
void perfdata_abort(struct perfdata_writer *w);

/* --- reader ------------------------------------------------------------ */

struct perfdata;

/* PATH "-" is standard input.  A pipe-mode file (perf record -o - >FILE), a
 * FIFO and standard input are read as streams (perfdata_open_fd). */
struct perfdata *perfdata_open(const char *path, char *err, size_t errsz);
struct perfdata *perfdata_open_mem(const void *buf, size_t len, char *err, size_t errsz);
/* Pipe mode (perf record -o -): a stream read from FD as it comes, never
 * seeked, never held whole (one record at a time); NAME is for messages.
 * FD stays the caller's.  perf's header records (HEADER_ATTR,
 * HEADER_FEATURE, HEADER_BUILD_ID; TRACING_DATA and AUXTRACE payloads are
 * stepped over) are read by the reader: open returns once the first
 * kernel record arrived (it waits, also on a non-blocking FD), with the
 * attrs and features sent before it; later ones update perfdata_nr_attrs
 * and the features as perfdata_next passes them (and still yields them).
 * perfdata_next waits for a whole record, unless perfdata_stream_nowait:
 * then, on an O_NONBLOCK FD, it returns 2 when none is there yet (poll FD
 * and call again; the part read is kept).  perfdata_rewind does nothing. */
struct perfdata *perfdata_open_fd(int fd, const char *name, char *err, size_t errsz);
/* ON: perfdata_next on a stream returns 2 instead of waiting (see above). */
void perfdata_stream_nowait(struct perfdata *pd, bool on);
/* The source is a pipe-mode stream. */
bool perfdata_is_pipe(const struct perfdata *pd);
/* A stream's fd (to poll), -1 for a file read whole. */
int perfdata_stream_fd(const struct perfdata *pd);
void perfdata_close(struct perfdata *pd);

size_t perfdata_nr_attrs(const struct perfdata *pd);
/* Attr I as on disk, shorter (older) attrs zero-filled, longer ones cut. */
const struct perf_event_attr *perfdata_attr(const struct perfdata *pd, size_t i);
const uint64_t *perfdata_attr_ids(const struct perfdata *pd, size_t i, size_t *nids);
/* The event string from HEADER_EVENT_DESC, or NULL. */
const char *perfdata_attr_name(const struct perfdata *pd, size_t i);
/* The index of the attr that owns sample id ID, or -1. */
int perfdata_attr_of_id(const struct perfdata *pd, uint64_t id);
/* The attr REC belongs to, found as perf does (IDENTIFIER, or ID at the
 * position the first attr's sample_type puts it; the only attr if there is
 * one), or -1; always -1 for perf's own record types (>= 64). */
int perfdata_record_attr(const struct perfdata *pd, const struct perf_event_header *rec);
/* Whether REC (perfdata_next's) lies in the file's own mapping, where it
 * stays until perfdata_close: a consumer may keep a pointer to it rather
 * than copy it.  False for a record of a data.N part, unpacked from a
 * compressed record, realigned or read from a pipe. */
bool perfdata_record_lasts(const struct perfdata *pd, const struct perf_event_header *rec);
/* sample_id_all of the first attr (perf requires all to agree). */
bool perfdata_sample_id_all(const struct perfdata *pd);

/* Next record of the data section: 1 and *REC (8-byte aligned, valid until
 * the next call) with its file *OFFSET; 0 at the end; -1 and a message with
 * the offset if the record is malformed (iteration then stays at -1); 2
 * (a stream with perfdata_stream_nowait) not yet.  Records of every type are yielded,
 * perf's own (>= 64) included; the payload after AUXTRACE (and a pipe's
 * TRACING_DATA) records, which their size does not count, is stepped over.
 * A stream that ends inside a record ends there (perfdata_cut_bytes). */
int perfdata_next(struct perfdata *pd, const struct perf_event_header **rec,
		  uint64_t *offset, char *err, size_t errsz);
/* Restarts the iteration at the first record. */
void perfdata_rewind(struct perfdata *pd);

/* The data size field was 0: a recording that did not finish.  As perf does,
 * the records then run to the end of the file and the feature sections,
 * which cannot be located, are not read. */
bool perfdata_unfinished(const struct perfdata *pd);
/* Unfinished files and streams: the bytes at the end that began a record
 * the writer did not complete (perfdata_next ends there instead of failing). */
uint64_t perfdata_cut_bytes(const struct perfdata *pd);
/* Unfinished, or a 104-byte header without a feature bit: perf and cyctop
 * write features when a recording finishes, so this is an interrupted
 * recording's (perfdata_flush) or a hand-made file's. */
bool perfdata_interrupted(const struct perfdata *pd);
uint64_t perfdata_data_offset(const struct perfdata *pd);
uint64_t perfdata_data_size(const struct perfdata *pd);
bool perfdata_has_feature(const struct perfdata *pd, unsigned int bit);

/* Feature contents; NULL (or 0) when absent. */
const char *perfdata_hostname(const struct perfdata *pd);
const char *perfdata_osrelease(const struct perfdata *pd);
const char *perfdata_arch(const struct perfdata *pd);
const char *perfdata_cpudesc(const struct perfdata *pd);
const char *perfdata_cpuid(const struct perfdata *pd);
uint32_t perfdata_nr_cpus(const struct perfdata *pd);   /* online */
/* The command line joined with spaces, and as an argv array. */
const char *perfdata_cmdline(const struct perfdata *pd);
const char *const *perfdata_cmdline_argv(const struct perfdata *pd, size_t *argc);
size_t perfdata_nr_build_ids(const struct perfdata *pd);
const struct perfdata_build_id *perfdata_build_id(const struct perfdata *pd, size_t i);
size_t perfdata_nr_groups(const struct perfdata *pd);
const struct perfdata_group *perfdata_group(const struct perfdata *pd, size_t i);
/* From cyctop's own section: the PMU name and the blob. */
const char *perfdata_pmu(const struct perfdata *pd);
const void *perfdata_blob(const struct perfdata *pd, size_t *len);

#endif

/* pprof profiles: google/pprof's profile.proto, gzipped, encoded and decoded
 * by protobuf-c (the schema is compiled at build time) and zlib.
 *
 * Writing (--format pprof): a session's cumulative snapshot becomes one
 * profile.  Without call stacks every sampled address is a location (its
 * mapping, function and source line) with one sample per thread (pid, tid
 * and thread_comm labels, from the session's pprof_acc); with -g every
 * distinct stack of a thread (pprof_acc keeps them by address) is a
 * sample, plus one-frame samples for what was counted without a stack, so
 * that pprof's flat shares are the profile's and its cumulative shares the
 * call graph's.  Past pprof_acc's caps the call graph's paths are written
 * instead, one location per function (it keeps stacks by function).
 *
 * Reading (-i FILE.pb.gz): any producer's profile, every reference
 * checked; a session then shows it in every view (session-pprof.c). */
#ifndef ENGINE_PPROF_H
#define ENGINE_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/callgraph.h"
#include "engine/profile.h"
#include "engine/session.h"

/* More sample types than this are refused (they become events). */
#define PPROF_TYPES_MAX 32
/* A decompressed profile larger than this is refused, and one whose
 * decoded messages need more memory than PPROF_MEM_MAX. */
#define PPROF_BYTES_MAX (512u << 20)
#define PPROF_MEM_MAX (1024u << 20)
/* Frames kept of a sample's stack (inlined frames counted); deeper stacks
 * keep their innermost frames. */
#define PPROF_FRAMES_MAX 1024

/* --- writing -------------------------------------------------------------- */

struct pprof_acc;
struct pprof_write_opts {
	int64_t start_ns;        /* wall-clock start of the profile (time_nanos) */
	const char *host;        /* for the comments; NULL: not said */
	/* cyctop serve: a window's samples instead of the session's (NULL),
	 * its length (0: the snapshot's time), and a cgroup label for each
	 * process (NULL: none) with its comm's label */
	const struct pprof_acc *acc;
	int64_t duration_ns;
	const char *(*cgroup)(void *arg, uint32_t pid);
	void *cgroup_arg;
	bool no_lines;           /* no source lines (DWARF of every process: slow) */
};

/* Writes snapshot SNAP of session S as a gzipped profile to OUT.  Returns
 * 0, or -1 with one line in ERR. */
int pprof_write(struct session *s, const struct snapshot *snap,
		const struct pprof_write_opts *o, FILE *out, char *err, size_t errsz);

/* Samples per address, process and thread (pprof-acc.c), kept while a
 * session is to be written as pprof: the profile keeps addresses per
 * process only.  Past PPROF_ACC_ROWS_MAX rows (or out of memory) it stops,
 * incomplete, and the writer labels the samples with the pid only. */
#define PPROF_ACC_ROWS_MAX (4u << 20)
struct pprof_acc;
struct pprof_acc *pprof_acc_new(int n_events);
void pprof_acc_free(struct pprof_acc *a);
void pprof_acc_add(struct pprof_acc *a, int ev, uint32_t pid, uint32_t tid, uint64_t ip,
		   const char *name, const char *module, uint64_t n);
/* Whether A holds every sample since it was made (and some: a session
 * whose source adds none, a pprof file read back, has an empty store). */
bool pprof_acc_complete(const struct pprof_acc *a);
/* -g: the stack of a sample, leaf first: its addresses IPS (return
 * addresses above the leaf) and their functions FRAMES; at most
 * PPROF_ACC_STACK_MAX frames are kept, and PPROF_ACC_FRAMES_MAX in all. */
#define PPROF_ACC_STACK_MAX 128
#define PPROF_ACC_FRAMES_MAX (16u << 20)
void pprof_acc_add_stack(struct pprof_acc *a, int ev, uint32_t pid, uint32_t tid,
			 const uint64_t *ips, const struct cg_frame *frames, size_t n, uint64_t w);
size_t pprof_acc_stacks(const struct pprof_acc *a);
/* Adds SRC's samples and stacks to DST (cyctop serve's windows). */
void pprof_acc_merge(struct pprof_acc *dst, const struct pprof_acc *src);
typedef int (*pprof_acc_stack_fn)(void *arg, uint32_t pid, uint32_t tid, const uint64_t *ips,
				  const char *const *names, const char *const *modules,
				  size_t n, const uint64_t *samples);
int pprof_acc_foreach_stack(const struct pprof_acc *a, pprof_acc_stack_fn fn, void *arg);
typedef int (*pprof_acc_fn)(void *arg, uint64_t ip, uint32_t pid, uint32_t tid,
			    const char *name, const char *module, const uint64_t *samples);
int pprof_acc_foreach(const struct pprof_acc *a, pprof_acc_fn fn, void *arg);

/* --- reading -------------------------------------------------------------- */

struct pprof;

/* Decodes DATA (gzipped or not) and checks every index and id it holds.
 * NULL with one line in ERR naming what is wrong. */
struct pprof *pprof_parse(const uint8_t *data, size_t len, char *err, size_t errsz);
void pprof_free(struct pprof *p);

size_t pprof_n_types(const struct pprof *p);
/* Sample type I: "TYPE/UNIT" (e.g. "cpu/nanoseconds") into BUF. */
void pprof_type_name(const struct pprof *p, size_t i, char *buf, size_t sz);
/* The type pprof shows by default: default_sample_type, else the last. */
size_t pprof_default_type(const struct pprof *p);
size_t pprof_n_samples(const struct pprof *p);
int64_t pprof_value(const struct pprof *p, size_t sample, size_t type);
/* The frames of SAMPLE, leaf first, inlined functions expanded, at most MAX
 * (the innermost); names NULL when unknown, modules the mappings' files.
 * *LEAF_ADDR: the first location's address.  Returns their count (0: the
 * sample has no location). */
size_t pprof_frames(const struct pprof *p, size_t sample, struct cg_frame *frames, size_t max,
		    uint64_t *leaf_addr);
/* The sample's numeric label KEY ("pid", "tid"), or -1. */
int64_t pprof_label_num(const struct pprof *p, size_t sample, const char *key);
/* Mapping I: the file mapped at [START, LIMIT) from OFFSET, its build id
 * as the producer wrote it (Go and cyctop: hex; "" when unknown). */
struct pprof_mapping {
	uint64_t start, limit, offset;
	const char *file, *build_id;
};
size_t pprof_n_mappings(const struct pprof *p);
void pprof_mapping(const struct pprof *p, size_t i, struct pprof_mapping *out);
/* time_nanos and duration_nanos. */
int64_t pprof_time_nanos(const struct pprof *p);
int64_t pprof_duration_nanos(const struct pprof *p);

/* Whether PATH begins like a gzipped file (-i takes it as a pprof profile). */
bool session_is_pprof(const char *path);
/* A session showing the pprof profile in PATH.  NULL with one line in ERR
 * (the file and what is wrong). */
struct session *session_open_pprof(const char *path, char *err, size_t errsz);

#endif

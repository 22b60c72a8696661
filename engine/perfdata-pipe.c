/* perf.data pipe mode (perf record -o -): a stream of records read one at a
 * time from stdin, a FIFO or a file.  The format is in
 * engine/perfdata-priv.h.
 *
 * perf record -o - writes a 16-byte header, then only records: its own
 * (tools/perf/util/event.h) carry what a file keeps in sections.
 * HEADER_ATTR is an attr (attr.size bytes) and its ids; HEADER_FEATURE a
 * u64 feature bit and the body the file's section would hold;
 * HEADER_BUILD_ID one build-id record of the HEADER_BUILD_ID section;
 * HEADER_TRACING_DATA and AUXTRACE are followed by a payload their
 * header.size does not count. */
#include "engine/perfdata-priv.h"
#include "lib/hashtab.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	qsort(pd->ids, pd->nids, sizeof(*pd->ids), pd_idmap_cmp);
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
		return pd_read_feature_at(pd, base, FEAT_BUILD_ID,
				       (struct file_section){ 0, rec->size });
	case REC_HEADER_FEATURE:
		if (rec->size < sizeof(*rec) + 8)
			return pd_fail(pd, "HEADER_FEATURE record at offset %" PRIu64 " has no "
				       "feature id", pd->soff);
		memcpy(&bit, rec + 1, 8);
		if (bit >= FEAT_BITS)
			return 0;   /* perf skips what it does not know */
		return pd_read_feature_at(pd, base, (unsigned int)bit,
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
	payload = pd_record_payload((const struct perf_event_header *)(const void *)pd->rbuf);
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
int pd_stream_prime(struct perfdata *pd)
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
int pd_stream_next(struct perfdata *pd, const struct perf_event_header **rec,
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

/* A stream on FD (its 16-byte header not yet read). */
struct perfdata *pd_stream_open(struct perfdata *pd, int fd, bool own)
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
	if (pd_read_header(pd) < 0)
		goto fail;
	pd->buf = NULL;
	pd->len = 0;
	pd->have = 0;
	free(pd->rbuf);
	pd->rbuf = NULL;
	if (pd_stream_prime(pd) < 0)
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

	return pd ? pd_stream_open(pd, fd, false) : NULL;
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

/* Decoding perf records: one decoder for live rings and perf.data files.
 * Every field is bounds-checked against the record's size. */
#ifndef ENGINE_RECORD_H
#define ENGINE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#define RECORD_MAX_PATH 4096

/* The sample_type bits the decoder understands; others make a SAMPLE
 * undecodable (reported, never guessed). */
#define RECORD_SAMPLE_TYPES                                                                  \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |      \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |       \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

struct rec_sample {
	uint64_t id, ip, time, addr, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_ips;         /* callchain */
	const uint64_t *ips;     /* points into the record */
};

struct rec_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t prot, flags;    /* MMAP2 only; MMAP records: prot = PROT_EXEC */
	const char *filename;    /* NUL-terminated inside the record */
};

struct rec_comm {
	uint32_t pid, tid;
	const char *comm;
	bool exec;
};

struct rec_task {            /* FORK and EXIT */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct rec_lost {
	uint64_t id, lost;
};

struct rec_throttle {
	uint64_t time, id;
	bool unthrottle;
};

struct record {
	uint32_t type;
	uint16_t misc;
	union {
		struct rec_sample sample;
		struct rec_mmap mmap;
		struct rec_comm comm;
		struct rec_task task;
		struct rec_lost lost;
		struct rec_throttle throttle;
	} u;
	uint64_t sid_id;   /* sample_id_all trailer: id, or 0 */
};

/* Decodes HDR (hdr->size bytes) given the event's sample_type and whether
 * sample_id_all trailers are present.  Returns 0, or -1 if the record is
 * malformed or uses a sample_type bit outside RECORD_SAMPLE_TYPES. */
int record_decode(const struct perf_event_header *hdr, uint64_t sample_type,
		  bool sample_id_all, struct record *out);

/* The IDENTIFIER of a SAMPLE (first u64) or of another record (last u64),
 * when sample_type has PERF_SAMPLE_IDENTIFIER; 0 if none. */
uint64_t record_peek_id(const struct perf_event_header *hdr, uint64_t sample_type,
			bool sample_id_all);

#endif

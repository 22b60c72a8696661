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
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |                \
	 PERF_SAMPLE_STACK_USER | RECORD_SAMPLE_TAIL)

/* Fields that come after every field decoded here (perf_event.h's order):
 * present in perf's files (perf record --call-graph dwarf adds DATA_SRC,
 * -W adds WEIGHT), never read, so they do not make a sample undecodable.
 * REGS_INTR is not among them: it sits before PHYS_ADDR but only its
 * register mask would say how long it is, and that is not needed either. */
#define RECORD_SAMPLE_TAIL                                                                   \
	(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |               \
	 PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE |           \
	 PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_WEIGHT_STRUCT)

struct rec_sample {
	uint64_t id, ip, time, addr, period;
	uint32_t pid, tid, cpu;
	uint64_t nr_ips;         /* callchain */
	const uint64_t *ips;     /* points into the record */
	/* REGS_USER: the user registers at the sample, packed in the order of
	 * the set bits of regs_mask (attr.sample_regs_user; on x86_64 perf's
	 * PERF_REG_X86_* numbering).  abi PERF_SAMPLE_REGS_ABI_NONE (no user
	 * context, e.g. a kernel thread) has no registers: regs NULL, mask 0. */
	uint64_t regs_abi;
	const uint64_t *regs;    /* n_regs entries, points into the record */
	unsigned n_regs;
	uint64_t regs_mask;
	/* STACK_USER: a copy of the user stack from the sampled SP upwards. */
	const uint8_t *stack;    /* points into the record; NULL if none */
	uint64_t stack_size;     /* bytes valid: the kernel's dyn_size */
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

/* What the decoder needs of an event's perf_event_attr. */
struct rec_format {
	uint64_t sample_type;
	uint64_t regs_user;      /* attr.sample_regs_user: how many REGS_USER follow */
	bool sample_id_all;
};

/* Decodes HDR (hdr->size bytes) given the event's format.  Returns 0, or -1
 * if the record is malformed, uses a sample_type bit outside
 * RECORD_SAMPLE_TYPES, or has PERF_SAMPLE_REGS_USER with regs_user 0 (the
 * kernel refuses that attr: the register count would be unknown). */
int record_decode_fmt(const struct perf_event_header *hdr, const struct rec_format *f,
		      struct record *out);

/* record_decode_fmt without user registers (regs_user 0). */
int record_decode(const struct perf_event_header *hdr, uint64_t sample_type,
		  bool sample_id_all, struct record *out);

/* The TIME of a record: a SAMPLE's own field, another record's
 * sample_id_all trailer (found from the end, whatever the record's type).
 * False when the format carries none or the record is too short. */
bool record_time(const struct perf_event_header *hdr, uint64_t sample_type,
		 bool sample_id_all, uint64_t *time);

/* The IDENTIFIER of a SAMPLE (first u64) or of another record (last u64),
 * when sample_type has PERF_SAMPLE_IDENTIFIER; 0 if none. */
uint64_t record_peek_id(const struct perf_event_header *hdr, uint64_t sample_type,
			bool sample_id_all);

#endif

/* Decoding perf records: one decoder for live rings and perf.data files.
 * Every field is bounds-checked against the record's size. */
#ifndef ENGINE_RECORD_H
#define ENGINE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#define RECORD_MAX_PATH 4096

/* The sample_type bits the decoder understands: every field of
 * include/uapi/linux/perf_event.h's PERF_RECORD_SAMPLE up to
 * PERF_SAMPLE_WEIGHT_STRUCT.  A bit beyond makes a SAMPLE undecodable
 * (reported, never guessed): its field's length would be unknown. */
#define RECORD_SAMPLE_TYPES ((uint64_t)PERF_SAMPLE_WEIGHT_STRUCT * 2 - 1)

/* The register sets REGS_USER and REGS_INTR: the registers packed in the
 * order of the set bits of mask (attr.sample_regs_user / _intr; on x86_64
 * perf's PERF_REG_X86_* numbering).  abi PERF_SAMPLE_REGS_ABI_NONE (no such
 * context, e.g. a kernel thread's user registers) has none: regs NULL,
 * mask 0. */
struct rec_regs {
	uint64_t abi;
	const uint64_t *regs;    /* n entries, points into the record */
	unsigned n;
	uint64_t mask;
};

/* PERF_SAMPLE_READ (attr.read_format): one counter, or a group's. */
struct rec_read {
	uint64_t format;         /* attr.read_format */
	uint64_t time_enabled, time_running;   /* 0 unless in format */
	uint64_t nr;             /* counters: 1 without PERF_FORMAT_GROUP */
	const uint64_t *values;  /* nr entries of record_read_stride() u64s */
};

/* PERF_SAMPLE_BRANCH_STACK: nr perf_branch_entry {from, to, flags}. */
struct rec_branches {
	uint64_t nr;
	uint64_t hw_idx;         /* with PERF_SAMPLE_BRANCH_HW_INDEX, else -1 */
	const uint64_t *entries; /* 3 * nr u64s, points into the record */
};

struct rec_sample {
	uint64_t id, ip, time, addr, period, stream_id;
	uint32_t pid, tid, cpu;
	/* header.misc & PERF_RECORD_MISC_CPUMODE_MASK: kernel, user, guest...
	 * says where the IP is (record_cpumode_kernel), whatever its value. */
	uint8_t cpumode;
	uint64_t nr_ips;         /* callchain */
	const uint64_t *ips;     /* points into the record */
	struct rec_read read;
	const void *raw;         /* RAW: raw_size bytes (padding included) */
	uint32_t raw_size;
	struct rec_branches branches;
	struct rec_regs regs_user;
	/* STACK_USER: a copy of the user stack from the sampled SP upwards. */
	const uint8_t *stack;    /* points into the record; NULL if none */
	uint64_t stack_size;     /* bytes valid: the kernel's dyn_size */
	/* WEIGHT (full) or WEIGHT_STRUCT (var1_dw low 32 bits, var2_w, var3_w) */
	uint64_t weight;
	uint64_t data_src, transaction;
	struct rec_regs regs_intr;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	const void *aux;         /* AUX: aux_size bytes */
	uint64_t aux_size;
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

/* LOST (a ring's lost records: ID the ring's event) and LOST_SAMPLES
 * (samples an event could not write: ID from its sample_id trailer). */
struct rec_lost {
	uint64_t id, lost;
};
/* LOST_SAMPLES' misc bit for samples a BPF filter dropped (Linux 6.5;
 * older headers lack it) */
#ifndef PERF_RECORD_MISC_LOST_SAMPLES_BPF
#define PERF_RECORD_MISC_LOST_SAMPLES_BPF (1 << 15)
#endif

struct rec_throttle {
	uint64_t time, id;
	bool unthrottle;
};

/* SWITCH and SWITCH_CPU_WIDE (attr.context_switch, Linux 4.3): the
 * thread of the sample_id_all trailer went off the CPU (OUT; PREEMPT: it
 * was still runnable, PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, Linux 4.17) or
 * came back; CPU_WIDE records name the other thread (the next one on an
 * out, the previous on an in). */
struct rec_switch {
	bool out, preempt;
	uint32_t next_prev_pid, next_prev_tid;   /* CPU_WIDE only, else 0 */
};
#ifndef PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#endif

/* PERF_RECORD_CGROUP (Linux 5.7, attr.cgroup): a cgroup's id, as samples'
 * PERF_SAMPLE_CGROUP carry it, and its v2 path; PATH points into the
 * record. */
struct rec_cgroup {
	uint64_t id;
	const char *path;
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
		struct rec_switch sw;
		struct rec_cgroup cgroup;
	} u;
	uint8_t cpumode;   /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	/* sample_id_all trailer of non-SAMPLE records (0 when absent) */
	uint64_t sid_id, sid_time;
	uint32_t sid_pid, sid_tid, sid_cpu;
};

/* What the decoder needs of an event's perf_event_attr. */
struct rec_format {
	uint64_t sample_type;
	uint64_t regs_user;      /* attr.sample_regs_user: how many REGS_USER follow */
	bool sample_id_all;
	uint64_t read_format;    /* attr.read_format: the layout of READ */
	uint64_t branch_sample_type;  /* its HW_INDEX bit adds a u64 to BRANCH_STACK */
	uint64_t regs_intr;      /* attr.sample_regs_intr: how many REGS_INTR follow */
	/* record_format_of: a SAMPLE has no field past CALLCHAIN (perf
	 * record's without -b, --call-graph dwarf, --data...): decoded by a
	 * shorter path; false always works */
	bool head_only;
	/* record_format_of: the byte offsets in a SAMPLE of TIME and CPU,
	 * fixed whatever follows (0: not in the format), of a head_only
	 * format's call chain count, and END, the bytes up to its last (0: no
	 * layout: every field decoded by its bits, as formats made by hand
	 * are); SID_TIME the offset of TIME back from the end of a record's
	 * sample_id_all trailer (0: no TIME), SID_SIZE the trailer's bytes */
	struct {
		uint8_t time, cpu, chain, end;
		uint8_t sid_time, sid_size;
	} at;
	/* record_format_of, with a layout: the format's u64 fields up to
	 * PERIOD but CPU (a u32 and a reserved one), in the record's order,
	 * each copied from byte FROM of a SAMPLE to byte TO of struct
	 * rec_sample (TID's pair onto pid and tid) */
	uint8_t nhead;
	struct rec_field_copy {
		uint8_t from, to;
	} head[8];
};

/* The format of ATTR's records. */
void record_format_of(const struct perf_event_attr *attr, struct rec_format *f);

/* u64s per counter of a READ: value, then id and lost if in the format. */
unsigned record_read_stride(uint64_t read_format);
/* Counter I of a READ: its value and id (0 without PERF_FORMAT_ID). */
void record_read_value(const struct rec_read *r, uint64_t i, uint64_t *value, uint64_t *id);

/* CPUMODE (header.misc & PERF_RECORD_MISC_CPUMODE_MASK) is a kernel's:
 * the host's, or a guest's. */
bool record_cpumode_kernel(uint8_t cpumode);

/* Decodes HDR (hdr->size bytes) given the event's format.  Returns 0, or -1
 * if the record is malformed, uses a sample_type bit outside
 * RECORD_SAMPLE_TYPES, or has PERF_SAMPLE_REGS_USER (REGS_INTR) with
 * regs_user (regs_intr) 0: the kernel refuses that attr, the register
 * count would be unknown.  Records of the types not decoded here (AUX,
 * ITRACE_START, NAMESPACES, CGROUP, KSYMBOL...) give 0 with only
 * type, misc, cpumode and the trailer set. */
int record_decode_fmt(const struct perf_event_header *hdr, const struct rec_format *f,
		      struct record *out);

/* record_decode_fmt with a head_only format into OUT whose SAMPLE fields
 * from READ on are zero, as a zeroed record has them and as decoding any
 * record with a head_only format leaves them: a SAMPLE of F's layout then
 * writes only the fields before them.  Zeroing the others was a third of
 * decoding it. */
int record_decode_head(const struct perf_event_header *hdr, const struct rec_format *f,
		       struct record *out);

/* record_decode_fmt without user registers (regs_user 0). */
int record_decode(const struct perf_event_header *hdr, uint64_t sample_type,
		  bool sample_id_all, struct record *out);

/* The TIME of a record: a SAMPLE's own field, another record's
 * sample_id_all trailer (found from the end, whatever the record's type).
 * False when the format carries none or the record is too short. */
bool record_time(const struct perf_event_header *hdr, uint64_t sample_type,
		 bool sample_id_all, uint64_t *time);
/* record_time of a format record_format_of made (its layout, no bits
 * counted): inline, the ordering stamps every record with it. */
static inline bool record_time_fmt(const struct perf_event_header *hdr,
				   const struct rec_format *f, uint64_t *time)
{
	size_t off;

	if (hdr->type == PERF_RECORD_SAMPLE) {
		off = f->at.time;
	} else {
		if (!f->sample_id_all || !f->at.sid_time || hdr->type >= PERF_RECORD_MAX ||
		    hdr->size < sizeof(*hdr) + f->at.sid_size)
			return false;
		off = hdr->size - f->at.sid_time;
	}
	if (!off || off + 8 > hdr->size)
		return false;
	memcpy(time, (const unsigned char *)hdr + off, 8);
	return true;
}

/* A SAMPLE whose last field is STACK_USER (SAMPLE_TYPE has none of the
 * fields after it) of the attr's STACK_USER bytes holds the kernel's copy
 * of the user stack, of which only dyn_size bytes were copied (a thread
 * near its stack's top: a process's main thread).  record_stack_kept
 * gives the record's size with the rest cut, or hdr->size when nothing is
 * cut (any other record, or a layout it cannot vouch for), and in AT the
 * offset of the stack's size field; record_stack_cut writes that record
 * into DST.  Decoding the cut record
 * gives the same sample. */
size_t record_stack_kept(const struct perf_event_header *hdr, uint64_t sample_type,
			 uint32_t stack_user, size_t *at);
void record_stack_cut(void *dst, const struct perf_event_header *hdr, size_t at, size_t kept);

/* The event id of a record where perf finds it (util/evsel.c id_pos and
 * is_pos): a SAMPLE's IDENTIFIER (its first u64) or ID (after IP, TID, TIME
 * and ADDR); another record's sample_id_all trailer's IDENTIFIER (its last
 * u64) or ID (before STREAM_ID and CPU).  False when the format has
 * neither, the record is too short, or it is perf's own (type >= 64) or,
 * without sample_id_all, not a SAMPLE. */
bool record_id(const struct perf_event_header *hdr, uint64_t sample_type, bool sample_id_all,
	       uint64_t *id);

#endif

/* Makes a hand-made perf.data session (not measured on hardware) from a
 * counts file, as perf record would write it on that machine: raw event
 * codes (r<hex>, named back by cyctop through its model tables), perf's
 * cpuid string, a COMM and an MMAP2 of BINARY, and samples spread over
 * FUNCTIONs by weight.  Events named with -c are counting-only: their
 * values travel in cyctop's metadata section.
 *
 *   mk-session [-c EVENT]... [-s SAMPLES] OUT MODEL CPUID COUNTS BINARY [FUNC:WEIGHT...]
 *
 * Every sampled event gets at most MAX_SAMPLES samples whose periods sum
 * exactly to its count, so the file's totals equal the counts file's.
 *
 * -s SAMPLES places the samples of the events it names at chosen
 * instructions instead of spreading them over the functions' starts: lines
 * EVENT,FUNCTION+0xOFF,COUNT (OFF from the function's start, default 0;
 * '#' starts a comment).  Each offset must be an instruction start of the
 * function (checked with cyctop's own decoder).  An event's period is its
 * count over its placed samples (the remainder, if any, adds 1 to the first
 * ones); when the counts file gives VALUE,PERIOD, VALUE must equal the
 * samples placed.  FUNC:WEIGHT may be left out when -s places every
 * sampled event.  A fourth field CALLER;CALLER... (innermost first) gives
 * the line's samples that call stack: every sample of the file then
 * carries a PERF_SAMPLE_CALLCHAIN (the callers' return addresses are their
 * starts + 1, looked up at ip - 1 as a reader does), the others just
 * their own IP. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arch/counts.h"
#include "arch/model.h"
#include "engine/counts-file.h"
#include "engine/disasm.h"
#include "engine/perfdata.h"
#include "engine/session-meta.h"
#include "engine/symbols.h"

#define MAX_SAMPLES 2000
#define MAX_FUNCS 16
#define MAP_BASE 0x555555554000ull
#define PID 4242
#define MAX_PLACED_SAMPLES 10000000ull /* per event, from -s */
#define MAX_CHAIN 16                   /* callers of a placed line */

struct func {
	uint64_t ip;
	int weight;
};

/* One line of the -s file: COUNT samples of counts-file entry EV at IP. */
struct placed {
	size_t ev;
	uint64_t ip;
	uint64_t count;
	uint64_t chain[MAX_CHAIN];     /* the callers' return addresses */
	int nchain;
};

static bool with_chain;              /* some -s line gave callers */

static const struct perf_event_header *rec_bytes(void *p, size_t size, uint32_t type)
{
	struct perf_event_header *h = p;

	h->type = type;
	h->misc = PERF_RECORD_MISC_USER;
	h->size = (uint16_t)size;
	return h;
}

static int write_comm(struct perfdata_writer *w, const char *comm)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[16];
		uint32_t spid, stid;
		uint64_t time, id;
	} r = { .pid = PID, .tid = PID, .spid = PID, .stid = PID, .id = 1 };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return perfdata_write(w, rec_bytes(&r, sizeof(r), PERF_RECORD_COMM));
}

static int write_mmap(struct perfdata_writer *w, const char *path, uint64_t len)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t addr, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_gen;
		uint32_t prot, flags;
		char name[4096];
	} r;
	size_t n = (strlen(path) + 1 + 7) & ~(size_t)7;
	struct {
		uint32_t pid, tid;
		uint64_t time, id;
	} sid = { PID, PID, 0, 1 };

	memset(&r, 0, sizeof(r));
	r.pid = r.tid = PID;
	r.addr = MAP_BASE;
	r.len = len;
	r.prot = 5;  /* PROT_READ | PROT_EXEC */
	r.flags = 2; /* MAP_PRIVATE */
	snprintf(r.name, sizeof(r.name), "%s", path);
	size_t off = offsetof(__typeof__(r), name) + n;
	memcpy((char *)&r + off, &sid, sizeof(sid));
	return perfdata_write(w, rec_bytes(&r, off + sizeof(sid), PERF_RECORD_MMAP2));
}

static int write_chain_sample(struct perfdata_writer *w, uint64_t id, uint64_t ip,
			      uint64_t time, uint64_t period, const uint64_t *chain, int nchain)
{
	struct {
		struct perf_event_header h;
		uint64_t id, ip;
		uint32_t pid, tid;
		uint64_t time, period, nr, ips[MAX_CHAIN + 2];
	} r = { .id = id, .ip = ip, .pid = PID, .tid = PID, .time = time, .period = period,
		.nr = (uint64_t)nchain + 2, .ips = { (uint64_t)PERF_CONTEXT_USER, ip } };

	for (int i = 0; i < nchain; i++)
		r.ips[2 + i] = chain[i];
	return perfdata_write(w, rec_bytes(&r, offsetof(__typeof__(r), ips) +
					  (size_t)r.nr * sizeof(uint64_t), PERF_RECORD_SAMPLE));
}

static int write_sample(struct perfdata_writer *w, uint64_t id, uint64_t ip, uint64_t time,
			uint64_t period)
{
	if (with_chain)
		return write_chain_sample(w, id, ip, time, period, NULL, 0);
	struct {
		struct perf_event_header h;
		uint64_t id, ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} r = { .id = id, .ip = ip, .pid = PID, .tid = PID, .time = time, .period = period };

	return perfdata_write(w, rec_bytes(&r, sizeof(r), PERF_RECORD_SAMPLE));
}

static uint64_t raw_config(const struct arch_code *c)
{
	return (uint64_t)(c->sel & 0xff) | ((uint64_t)(c->sel >> 8) << 32) |
	       (uint64_t)c->umask << 8 | (uint64_t)c->edge << 18 | (uint64_t)c->inv << 23 |
	       (uint64_t)c->cmask << 24;
}

static struct perf_event_attr raw_attr(const struct arch_event *row, uint64_t period)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_RAW;
	a.config = raw_config(&row->code);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			(with_chain ? PERF_SAMPLE_CALLCHAIN : 0);
	a.sample_id_all = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return a;
}

/* N samples of event ID whose periods sum to COUNT, over FUNCS by weight. */
static int write_samples(struct perfdata_writer *w, uint64_t id, uint64_t count,
			 uint64_t n, const struct func *f, int nf, uint64_t *time)
{
	int total = 0, k = 0, left;

	for (int i = 0; i < nf; i++)
		total += f[i].weight;
	left = f[0].weight;
	for (uint64_t s = 0; s < n; s++) {
		uint64_t period = count / n + (s < count % n ? 1 : 0);
		while (left == 0) {
			k = (k + 1) % nf;
			left = f[k].weight;
		}
		left--;
		if (write_sample(w, id, f[k].ip, (*time)++ * 1000, period) < 0)
			return -1;
	}
	(void)total;
	return 0;
}

static bool counting_only(const char *name, char **list, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(name, list[i]) == 0)
			return true;
	return false;
}

/* The binary mapped at MAP_BASE, as the session's MMAP2 says. */
static struct symtab *map_binary(const char *binary, uint64_t *maplen)
{
	struct symtab *st = symtab_new(NULL);
	struct stat sb;

	if (!st || stat(binary, &sb) < 0) {
		fprintf(stderr, "mk-session: %s: cannot read\n", binary);
		symtab_free(st);
		return NULL;
	}
	*maplen = ((uint64_t)sb.st_size + 4095) & ~4095ull;
	symtab_add_map(st, binary, MAP_BASE, MAP_BASE + *maplen, 0);
	return st;
}

static int parse_funcs(struct symtab *st, char **argv, int argc, struct func *f)
{
	int nf = 0;

	for (int i = 0; i < argc && nf < MAX_FUNCS; i++) {
		char name[128];
		int weight;
		struct sym_info si;
		if (sscanf(argv[i], "%127[^:]:%d", name, &weight) != 2 || weight <= 0 ||
		    !symtab_find(st, name, NULL, &si)) {
			fprintf(stderr, "mk-session: bad function '%s'\n", argv[i]);
			return -1;
		}
		f[nf++] = (struct func){ si.start, weight };
	}
	return nf;
}

/* The counts-file entry of event NAME (any alias of the same model row). */
static long counts_entry(const struct counts *c, const struct arch_model *m, const char *name)
{
	const struct arch_event *row = model_lookup(m, name);

	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0 ||
		    (row && model_lookup(m, c->v[i].name) == row))
			return (long)i;
	return -1;
}

/* FUNC[+OFF] to a runtime address at an instruction start of FUNC. */
static bool place_ip(struct symtab *st, const char *loc, uint64_t *ip, char *err, size_t errsz)
{
	char name[256], *end;
	const char *plus = strchr(loc, '+');
	size_t len = plus ? (size_t)(plus - loc) : strlen(loc);
	unsigned long long off = 0;
	struct sym_info si;

	if (len == 0 || len >= sizeof(name)) {
		snprintf(err, errsz, "'%s' is not FUNCTION+0xOFF", loc);
		return false;
	}
	memcpy(name, loc, len);
	name[len] = 0;
	if (plus) {
		off = strtoull(plus + 1, &end, 0);
		if (end == plus + 1 || *end) {
			snprintf(err, errsz, "'%s': bad offset", loc);
			return false;
		}
	}
	if (!symtab_find(st, name, NULL, &si)) {
		snprintf(err, errsz, "'%s': no function %s in the binary", loc, name);
		return false;
	}
	if (off >= si.size) {
		snprintf(err, errsz, "'%s': past the end of %s (%" PRIu64 " bytes)", loc, name,
			 si.size);
		return false;
	}
	*ip = si.start + off;
	struct asm_func *fn = disasm_function(st, *ip, *ip, err, errsz);
	if (!fn)
		return false;
	long k = asm_find(fn, *ip);
	bool start = k >= 0 && fn->insn[k].op.addr == *ip;
	if (!start)
		snprintf(err, errsz, "'%s': not an instruction start of %s", loc, name);
	asm_func_free(fn);
	return start;
}

/* Reads the -s file into *OUT (*N entries). */
static int parse_placed(const char *path, struct symtab *st, const struct counts *c,
			const struct arch_model *m, struct placed **out, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char line[512], err[512];
	int lineno = 0;

	*out = NULL;
	*n = 0;
	if (!fp) {
		fprintf(stderr, "mk-session: %s: cannot open\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char ev[COUNT_NAME_MAX], loc[300], chain[300] = "", *hash = strchr(line, '#');
		unsigned long long count;
		char extra;
		int fields;
		lineno++;
		if (hash)
			*hash = 0;
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		fields = sscanf(line, " %159[^, \t] , %299[^, \t] , %llu , %299[^, \t\r\n] %c", ev,
				loc, &count, chain, &extra);
		if (fields != 3 && fields != 4) {
			fprintf(stderr, "mk-session: %s:%d: not EVENT,FUNCTION+0xOFF,COUNT"
				"[,CALLER;...]\n", path, lineno);
			goto fail;
		}
		long e = counts_entry(c, m, ev);
		struct placed p = { .count = count };
		if (e < 0) {
			fprintf(stderr, "mk-session: %s:%d: %s is not in the counts file\n", path,
				lineno, ev);
			goto fail;
		}
		p.ev = (size_t)e;
		if (!place_ip(st, loc, &p.ip, err, sizeof(err))) {
			fprintf(stderr, "mk-session: %s:%d: %s\n", path, lineno, err);
			goto fail;
		}
		char *save = NULL;
		for (char *fn = strtok_r(chain, ";", &save); fn; fn = strtok_r(NULL, ";", &save)) {
			uint64_t at;
			if (p.nchain == MAX_CHAIN || !place_ip(st, fn, &at, err, sizeof(err))) {
				fprintf(stderr, "mk-session: %s:%d: %s\n", path, lineno,
					p.nchain == MAX_CHAIN ? "too many callers" : err);
				goto fail;
			}
			p.chain[p.nchain++] = at + 1;
			with_chain = true;
		}
		struct placed *grown = realloc(*out, (*n + 1) * sizeof(**out));
		if (!grown)
			goto fail;
		*out = grown;
		(*out)[(*n)++] = p;
	}
	fclose(fp);
	return 0;
fail:
	fclose(fp);
	free(*out);
	*out = NULL;
	return -1;
}

/* Samples of counts-file entry EV placed by -s. */
static uint64_t placed_samples(const struct placed *p, size_t np, size_t ev)
{
	uint64_t n = 0;

	for (size_t k = 0; k < np; k++)
		n += p[k].ev == ev ? p[k].count : 0;
	return n;
}

/* The N placed samples of event ID whose periods sum to COUNT. */
static int write_placed(struct perfdata_writer *w, uint64_t id, size_t ev, uint64_t count,
			uint64_t n, const struct placed *p, size_t np, uint64_t *time)
{
	uint64_t s = 0;

	for (size_t k = 0; k < np; k++) {
		for (uint64_t j = 0; p[k].ev == ev && j < p[k].count; j++, s++) {
			uint64_t period = count / n + (s < count % n ? 1 : 0);
			if ((with_chain ? write_chain_sample(w, id, p[k].ip, (*time)++ * 1000, period,
							     p[k].chain, p[k].nchain)
				       : write_sample(w, id, p[k].ip, (*time)++ * 1000, period)) < 0)
				return -1;
		}
	}
	return 0;
}

/* How many samples event I gets (0: none, counting only), or -1 on error. */
static int64_t event_samples(const struct counts *c, size_t i, bool counts_only,
			     const struct placed *p, size_t np, int nf)
{
	uint64_t count = (uint64_t)c->v[i].value;
	uint64_t placed = placed_samples(p, np, i), n;

	if (counts_only) {
		if (placed) {
			fprintf(stderr, "mk-session: %s: counting-only (-c) but placed by -s\n",
				c->v[i].name);
			return -1;
		}
		return 0;
	}
	if (placed) {
		if (c->v[i].samples > 0 && (uint64_t)c->v[i].samples != placed) {
			fprintf(stderr, "mk-session: %s: the counts file says %.0f samples, -s "
				"places %" PRIu64 "\n", c->v[i].name, c->v[i].samples, placed);
			return -1;
		}
		if (placed > count || placed > MAX_PLACED_SAMPLES) {
			fprintf(stderr, "mk-session: %s: %" PRIu64 " samples placed for a count "
				"of %" PRIu64 "\n", c->v[i].name, placed, count);
			return -1;
		}
		return (int64_t)placed;
	}
	if (nf <= 0) {
		fprintf(stderr, "mk-session: %s: not placed by -s and no FUNC:WEIGHT\n",
			c->v[i].name);
		return -1;
	}
	n = c->v[i].samples > 0 ? (uint64_t)c->v[i].samples : MAX_SAMPLES;
	n = n > MAX_SAMPLES ? MAX_SAMPLES : n > count ? count : n;
	return (int64_t)n;
}

int main(int argc, char **argv)
{
	char *counting[32], err[512];
	const char *samples_path = NULL;
	int nc = 0, a = 1;

	for (;;) {
		if (a + 1 < argc && strcmp(argv[a], "-c") == 0 && nc < 32)
			counting[nc++] = argv[a + 1];
		else if (a + 1 < argc && strcmp(argv[a], "-s") == 0 && !samples_path)
			samples_path = argv[a + 1];
		else
			break;
		a += 2;
	}
	if (argc - a < (samples_path ? 5 : 6)) {
		fprintf(stderr, "usage: mk-session [-c EVENT]... [-s SAMPLES] OUT MODEL CPUID "
				"COUNTS BINARY [FUNC:WEIGHT...]\n");
		return 2;
	}
	/* Mappings name binaries by absolute paths, as the kernel does. */
	char *binary = realpath(argv[a + 4], NULL);
	const char *out = argv[a], *cpuid = argv[a + 2];
	const struct arch_model *model = model_find(argv[a + 1]);
	struct counts c;
	struct func funcs[MAX_FUNCS];
	struct placed *placed = NULL;
	size_t np = 0;
	uint64_t maplen = 0, time = 1;
	struct symtab *st = binary ? map_binary(binary, &maplen) : NULL;
	int nf = st ? parse_funcs(st, argv + a + 5, argc - a - 5, funcs) : -1;

	counts_init(&c);
	if (!st || !model || nf < 0 || counts_load_files(&c, argv + a + 3, 1, err, sizeof(err)) < 0) {
		fprintf(stderr, "mk-session: %s\n", !st ? argv[a + 4] : !model ? "unknown model" :
				nf < 0 ? "functions" : err);
		return 1;
	}
	if (samples_path && parse_placed(samples_path, st, &c, model, &placed, &np) < 0)
		return 1;
	struct perfdata_writer *w = perfdata_create(out, err, sizeof(err));
	struct session_meta meta = { .n_events = 0 };
	if (!w || write_comm(w, "mix") < 0 || write_mmap(w, binary, maplen) < 0) {
		fprintf(stderr, "mk-session: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < c.n && i < EVENTS_MAX; i++) {
		const struct arch_event *row = model_lookup(model, c.v[i].name);
		uint64_t count = (uint64_t)c.v[i].value, id = i + 1;
		bool counts_only = counting_only(c.v[i].name, counting, nc);
		bool is_placed = placed_samples(placed, np, i) > 0;
		int64_t n = event_samples(&c, i, counts_only, placed, np, nf);
		if (n < 0)
			return 1;
		if (!row || !row->pfm) {
			fprintf(stderr, "mk-session: %s: not a raw event of %s\n", c.v[i].name,
				model->name);
			return 1;
		}
		struct perf_event_attr at = raw_attr(row, counts_only || n == 0 ? 0 : count / (uint64_t)n);
		if (perfdata_add_attr(w, &at, &id, 1, NULL) < 0)
			return 1;
		if (!counts_only && n > 0 &&
		    (is_placed ? write_placed(w, id, i, count, (uint64_t)n, placed, np, &time)
			       : write_samples(w, id, count, (uint64_t)n, funcs, nf, &time)) < 0)
			return 1;
		meta.ev[i] = (struct meta_event){ counts_only, 0, true, 1.0, (double)count };
		meta.n_events = (int)i + 1;
	}
	char blob[8192];
	int len = session_meta_format(&meta, blob, sizeof(blob));
	struct perfdata_meta pm = { .cpudesc = "hand-made", .cpuid = cpuid, .nr_cpus = 1,
				    .blob = blob, .blob_len = len > 0 ? (size_t)len + 1 : 0 };
	if (perfdata_finish(w, &pm, err, sizeof(err)) < 0) {
		fprintf(stderr, "mk-session: %s\n", err);
		return 1;
	}
	free(placed);
	free(binary);
	symtab_free(st);
	counts_free(&c);
	return 0;
}

/* The unwinder's learnt steps (engine/unwind-priv.h): each hot IP's rule,
 * learnt from libunwind once, replayed without it (why: below). */
#include "engine/unwind-priv.h"

#include <stdlib.h>
#include <string.h>

/* ---- learnt steps ---------------------------------------------------- */

/* libunwind takes a lock around its rules cache on every step, and
 * libunwind 1.6 as Debian builds it (without __thread: no per-thread cache,
 * UNW_CACHE_PER_THREAD reads as UNW_CACHE_GLOBAL) blocks every signal while
 * it holds it: two rt_sigprocmask calls a frame, more than half the CPU
 * time of unwinding a recording (bench/README).  So each distinct IP is
 * stepped by libunwind on two made-up frames (step_learn), and what it did
 * is kept when it is of the plain kind every compiler emits for x86_64:
 * CFA = RSP or RBP + offset, the return address and the caller's RBP (or
 * RBP unchanged) at fixed offsets from the CFA, the caller's RSP the CFA.
 * An IP is learnt once libunwind has stepped it in STEPS_LEARN_AT frames.
 * A sample whose every frame is of that kind, every word read inside its
 * stack copy, is walked with those rules alone (replay); any other (a
 * frame without unwind info, a DWARF expression, a signal frame, a read
 * past the copy) is walked by libunwind from the start, as before, so the
 * stacks are libunwind's either way (tests/e2e/cg-corpus.sh compares).
 * CYCTOP_UNWIND_STEPS=0 in the environment turns replay off (tests). */
enum { STEP_SEEN = 1, STEP_OTHER, STEP_SP, STEP_BP, STEP_END };

/* Learning a rule costs two libunwind steps and replaying it saves one:
 * an IP is learnt once libunwind has stepped it in STEPS_LEARN_AT frames
 * (STEP_SEEN until then), so that the many IPs seen once or twice (a storm
 * of short processes) cost no more than before. */
#define STEPS_LEARN_AT 3

#define STEPS_MAX 65536   /* rules kept; past it they start over */
/* The made-up stack: every word holds PROBE_TAG ^ its own address, so a
 * word libunwind read says where it was. */
#define PROBE_BASE 0x10000ull
#define PROBE_SIZE 16384u
#define PROBE_TAG 0x5eed000000000000ull
#define PROBE_JUNK 0x7e57000000000017ull   /* the other registers */

bool uw_steps_wanted(void)
{
	const char *e = getenv("CYCTOP_UNWIND_STEPS");

	/* the rules replay x86_64's registers (CFA from RSP or RBP) */
	return !(e && strcmp(e, "0") == 0) && UW_MACHINE == EM_X86_64;
}

void uw_steps_clear(struct uw_steps *t)
{
	t->n = 0;
	hashtab_clear(&t->index);
}

static bool step_eq(const void *key, uint32_t idx, const void *ctx)
{
	return ((const struct uw_step *)ctx)[idx].ip == *(const uint64_t *)key;
}

static struct uw_step *step_find(struct uw_steps *t, uint64_t ip)
{
	uint32_t i = hashtab_find(&t->index, hash_mix(ip), &ip, step_eq, t->rules);

	return i == HASHTAB_NONE ? NULL : &t->rules[i];
}

/* R as the rule of its IP (not there yet); NULL when out of memory. */
static struct uw_step *step_add(struct uw_steps *t, const struct uw_step *r)
{
	if (t->n >= STEPS_MAX)
		uw_steps_clear(t);
	if (GROW(t->rules, t->n + 1, t->alloc) < 0 ||
	    hashtab_add(&t->index, hash_mix(r->ip), (uint32_t)t->n) < 0)
		return NULL;
	t->rules[t->n] = *r;
	return &t->rules[t->n++];
}

/* What libunwind made of one step from a made-up frame at IP. */
struct probe {
	bool ok, end;
	uint64_t sp, bp, cfa, ra_at, bp_at;   /* bp_at 0: RBP unchanged */
};

/* The address a word of the made-up stack holding V lies at, or 0. */
static inline uint64_t probe_where(uint64_t v)
{
	uint64_t a = v ^ PROBE_TAG;

	return a >= PROBE_BASE && a < PROBE_BASE + PROBE_SIZE && a % 8 == 0 ? a : 0;
}

static void probe_one(const struct uw_ctx *real, uint64_t ip, uint64_t sp, uint64_t bp,
		      const uint8_t *stack, struct probe *p)
{
#if defined(__x86_64__)
	uint64_t regs[PERF_REG_X86_R15 + 1];
	struct rec_sample s = { 0 };
	struct uw_ctx c = { .u = real->u, .s = &s, .find = real->find, .find_arg = real->find_arg,
			    .sp = sp };
	unw_cursor_t cu;
	unw_word_t v;

	for (unsigned r = 0; r <= PERF_REG_X86_R15; r++)
		regs[r] = PROBE_JUNK + r;
	regs[PERF_REG_X86_IP] = ip;
	regs[PERF_REG_X86_SP] = sp;
	regs[PERF_REG_X86_BP] = bp;
	s.ip = ip;
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_user.regs = regs;
	s.regs_user.n = PERF_REG_X86_R15 + 1;
	s.regs_user.mask = (1ull << (PERF_REG_X86_R15 + 1)) - 1;
	s.stack = stack + (sp - PROBE_BASE);
	s.stack_size = PROBE_BASE + PROBE_SIZE - sp;
	*p = (struct probe){ .sp = sp, .bp = bp };
	if (c.u->lib->unw_init_remote(&cu, c.u->as, &c) < 0)
		return;
	int ret = c.u->lib->unw_step(&cu);
	if (c.noinfo || ret < 0)
		return;
	if (ret == 0) {
		p->ok = p->end = true;
		return;
	}
	if (c.u->lib->unw_get_reg(&cu, UNW_X86_64_RSP, &v) < 0)
		return;
	p->cfa = v;
	if (c.u->lib->unw_get_reg(&cu, UNW_REG_IP, &v) < 0 || !(p->ra_at = probe_where(v)))
		return;
	if (c.u->lib->unw_get_reg(&cu, UNW_X86_64_RBP, &v) < 0)
		return;
	if (v != bp && !(p->bp_at = probe_where(v)))
		return;
	p->ok = true;
#else
	/* the step rules are x86_64's (steps_enabled): nothing learnt here */
	(void)real, (void)ip, (void)stack;
	*p = (struct probe){ .sp = sp, .bp = bp };
#endif
}

/* Whether the code at IP is the sigreturn sequence (mov $15, %rax;
 * syscall), as libunwind's unw_is_signal_frame reads it for x86_64 Linux:
 * then the frame's IP is kept exact, not less 1 (frame_ip). */
static bool is_sigreturn(struct uw_ctx *c, uint64_t ip)
{
	unw_word_t w0, w1;

	if (uw_access_mem(c->u->as, ip, &w0, 0, c) < 0 ||
	    uw_access_mem(c->u->as, ip + 8, &w1, 0, c) < 0)
		return false;
	return w0 == 0x0f0000000fc0c748ull && (w1 & 0xff) == 0x05;
}

/* Learns the step rule of IP into R: libunwind steps two made-up frames
 * whose RSP and RBP move apart, and the CFA follows one of them. */
static void step_learn(struct uw_ctx *c, uint64_t ip, struct uw_step *r)
{
	uint64_t *stack = malloc(PROBE_SIZE);
	struct probe a, b;

	*r = (struct uw_step){ .ip = ip, .kind = STEP_OTHER };
	if (!stack)
		return;
	for (uint64_t i = 0; i < PROBE_SIZE / 8; i++)
		stack[i] = PROBE_TAG ^ (PROBE_BASE + 8 * i);
	probe_one(c, ip, PROBE_BASE, PROBE_BASE + PROBE_SIZE / 2, (const uint8_t *)stack, &a);
	probe_one(c, ip, PROBE_BASE + 256, PROBE_BASE + PROBE_SIZE / 2 + 512,
		  (const uint8_t *)stack, &b);
	free(stack);
	r->sigret = ip + 1 != 0 && is_sigreturn(c, ip + 1);
	if (!a.ok || !b.ok || a.end != b.end)
		return;
	if (a.end) {
		r->kind = STEP_END;
		return;
	}
	int64_t da = (int64_t)(a.cfa - a.sp), db = (int64_t)(b.cfa - b.sp);
	if (da == db)
		r->kind = STEP_SP;
	else if ((int64_t)(a.cfa - a.bp) == (int64_t)(b.cfa - b.bp))
		r->kind = STEP_BP, da = (int64_t)(a.cfa - a.bp);
	else
		return;
	int64_t ra = (int64_t)(a.ra_at - a.cfa), bpo = (int64_t)(a.bp_at - a.cfa);
	if (ra != (int64_t)(b.ra_at - b.cfa) || !a.bp_at != !b.bp_at ||
	    (a.bp_at && bpo != (int64_t)(b.bp_at - b.cfa)) || da < INT32_MIN || da > INT32_MAX ||
	    ra < INT32_MIN || ra > INT32_MAX || bpo < INT32_MIN || bpo > INT32_MAX) {
		r->kind = STEP_OTHER;
		return;
	}
	r->cfa_off = (int32_t)da;
	r->ra_off = (int32_t)ra;
	r->bp_saved = a.bp_at != 0;
	r->bp_off = (int32_t)bpo;
}

/* The rule of IP (in the mapping M points to), learnt on first use, again
 * when another mapping lies there now (dlclose, then dlopen); NULL when out
 * of memory.  M is read first: learning asks FIND again, which may reuse
 * the memory of its earlier answers. */
static const struct uw_step *step_rule(struct uw_ctx *c, uint64_t ip, const struct unwind_map *m)
{
	struct uw_step *r = step_find(&c->u->steps, ip);
	uint64_t start = m->start, pgoff = m->pgoff;

	if (!r || (r->kind == STEP_SEEN && r->seen < STEPS_LEARN_AT))
		return NULL;            /* libunwind's until it is seen often */
	if (r->kind != STEP_SEEN && r->map_start == start && r->map_pgoff == pgoff)
		return r;
	struct uw_step learnt;
	step_learn(c, ip, &learnt);
	learnt.map_start = start;
	learnt.map_pgoff = pgoff;
	if ((r = step_find(&c->u->steps, ip))) {   /* seen, or stale: replaced in place */
		*r = learnt;
		return r;
	}
	return step_add(&c->u->steps, &learnt);
}

/* Counts the frames libunwind walked (IPS[0, N)) toward learning their
 * rules. */
void uw_steps_note(struct uw_steps *t, const uint64_t *ips, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct uw_step *r = step_find(t, ips[i]);
		if (!r)
			step_add(t, &(struct uw_step){ .ip = ips[i], .kind = STEP_SEEN, .seen = 1 });
		else if (r->kind == STEP_SEEN && r->seen < UINT8_MAX)
			r->seen++;
	}
}

/* The word at ADDR of the sample's stack copy. */
static bool stack_word(const struct uw_ctx *c, uint64_t addr, uint64_t *v)
{
	const struct rec_sample *s = c->s;

	if (!s->stack || addr < c->sp || s->stack_size < 8 || addr - c->sp > s->stack_size - 8)
		return false;
	memcpy(v, s->stack + (addr - c->sp), 8);
	return true;
}

/* The sample's stack walked with learnt rules alone, into IPS from
 * IPS[*N] (the sample's IP there already), as walk would.  False when a
 * frame needs libunwind itself: then IPS and *N are to be discarded. */
bool uw_replay(struct uw_ctx *c, uint64_t *ips, size_t *n, size_t max, bool *truncated)
{
	const struct rec_sample *s = c->s;
	uint64_t sp = c->sp, bp, key = s->ip, raw = s->ip, prev_cfa = c->sp;
	const struct unwind_map *found = c->find(c->find_arg, key);
	struct unwind_map m;   /* the mapping of KEY, copied: see step_rule */
	size_t k = *n;         /* a local: IPS is of *N's type, a store would reload it */

	if (!found || !uw_sample_reg(s, PERF_REG_FP, &bp))
		return false;
	m = *found;
	while (k < max) {
		const struct uw_step *r = step_rule(c, key, &m);
		uint64_t cfa, ret, caller_bp = bp;
		if (!r || r->kind == STEP_OTHER)
			return false;   /* STEP_SEEN is not returned */
		if (r->kind == STEP_END) {
			*truncated = false;     /* the outermost frame */
			*n = k;
			return true;
		}
		cfa = (r->kind == STEP_SP ? sp : bp) + (uint64_t)(int64_t)r->cfa_off;
		if (!stack_word(c, cfa + (uint64_t)(int64_t)r->ra_off, &ret) ||
		    (r->bp_saved && !stack_word(c, cfa + (uint64_t)(int64_t)r->bp_off, &caller_bp)))
			return false;
		if (ret == raw && cfa == prev_cfa)
			return false;           /* libunwind's "ip and cfa unchanged" */
		if (ret == 0 || ret == 1) {
			*truncated = false;     /* a zero return address (IP) ends chains */
			*n = k;
			return true;
		}
		if (!(found = c->find(c->find_arg, ret - 1))) {
			*truncated = true;
			*n = k;
			return true;
		}
		m = *found;
		const struct uw_step *next = step_rule(c, ret - 1, &m);
		if (!next || next->sigret)
			return false;           /* a signal frame: its IP is kept exact */
		ips[k++] = ret - 1;
		key = ret - 1;
		raw = ret;
		sp = cfa;
		bp = caller_bp;
		prev_cfa = cfa;
	}
	*truncated = true;
	*n = k;
	return true;
}

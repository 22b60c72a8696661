/* cyctop selftest: checks of the live path on the machine it runs on,
 * against the kernel and against perf (tui/cmd-selftest.c prints them).
 *
 * Every check watches cyctop itself run as a calibrated program
 * ("cyctop selftest --workload KIND:N", engine/selftest-work.c: a loop of
 * a known number of instructions and branches per iteration, written in
 * assembly) through the engine's own path: session_open, the group
 * planner, time slices, sampling, the trees.  Each gives PASS, FAIL or
 * SKIP with a one-line reason, what it measured and what it expected.
 *
 * CYCTOP_SELFTEST_FAULT (read here only) breaks one thing on purpose, to
 * show that the checks can fail: scale (time_running read 10% short, a
 * wrong scale factor), startup (the watched program's environment padded),
 * counters (all but one generic counter held by pinned CPU-wide events, as
 * the NMI watchdog holds one), split (the two-function program runs 1:1),
 * method (a preset's last count, a stall, 20% above its cycles), host
 * (the kernel's PMU verdict inverted), member (leader sampling's group
 * opened without its last member). */
#ifndef ENGINE_SELFTEST_H
#define ENGINE_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/model.h"
#include "engine/profile.h"

enum st_result { ST_PASS, ST_FAIL, ST_SKIP };

/* A hardware check's reason to skip on a host without a PMU. */
#define ST_NO_PMU "no hardware PMU: the kernel has no core PMU driver (a VM?)"

struct st_outcome {
	enum st_result result;
	char reason[512];     /* one line */
	char measured[256];
	char expected[256];
};

/* What the host is: test 1 fills it, the report prints it. */
struct st_host {
	char arch[16];           /* x86_64, aarch64 */
	char vendor[64];         /* GenuineIntel, AuthenticAMD, implementer 0x41 */
	int family, model;       /* x86 CPUID; arm64: -1 and the MIDR part */
	char kernel[128];        /* uname -r */
	char kernel_pmu[64];     /* the kernel's core PMU(s), "" none */
	int core_pmus;           /* 2: hybrid (cpu_core + cpu_atom, big.LITTLE) */
	char pfm_pmu[64];        /* libpfm4's core PMU, "" none */
	char pfm_version[32];
	char model_name[64];     /* cyctop's model of the host */
	char describe[160];      /* the header's PMU line */
	int counters;            /* generic counters per group (model or kernel), 0 unknown */
	int fixed;               /* fixed counters of the model */
	char caps[256];          /* the core PMU's sysfs caps, "name=value ..." */
	int nmi_watchdog;        /* -1 unknown */
	int paranoid;            /* perf_event_paranoid, 2 unknown */
	char trees[256];         /* the trees the model's events feed */
	char presets[512];       /* the presets meant for the model */
	char perf[128];          /* "perf version ...", "" not installed */
};

struct selftest_ctx {
	const char *self;        /* cyctop's path, run as the calibrated program */
	const char *fault;       /* CYCTOP_SELFTEST_FAULT, or NULL */
	struct st_host host;
	const struct arch_model *model;
	struct pfm_host *pfm;    /* the host's libpfm4 and PMU (selftest_init's; the caller frees) */
	bool hardware;           /* the kernel has a core PMU */
	double ns_per_iter;      /* the loop's speed (task-clock), 0: not measured */
};

struct selftest {
	const char *name;
	const char *title;
	void (*run)(struct selftest_ctx *c, struct st_outcome *o);
};

/* The checks, in order; NULL-ended. */
extern const struct selftest selftests[];

/* Fills C: the host's facts, cyctop's path (SELF), the fault switch.
 * Returns 0, or -1 with one line in ERR. */
int selftest_init(struct selftest_ctx *c, const char *self, char *err, size_t errsz);
/* Whether the fault switch names FAULT. */
bool selftest_fault(const struct selftest_ctx *c, const char *fault);

/* The calibrated program: runs KIND:N ("loop:N", "split:N", "faults:N",
 * "switches:N", "env") and exits.  Returns the exit status for a bad
 * argument (2); never returns otherwise. */
int selftest_workload(const char *spec);
/* Per iteration of the loop: instructions and branches (the assembly). */
#define ST_LOOP_INSNS 4
#define ST_LOOP_BRANCHES 1

/* --- helpers of the checks (engine/selftest-run.c) --------------------- */

/* How a check watches the calibrated program. */
struct st_watch {
	const char *events;      /* -e list */
	const char *work;        /* KIND:N */
	int max_counters;        /* --counters, 0: the model's */
	unsigned slice_ms;       /* --mux-slice */
	bool one_group;          /* only plan group GROUP (exact counts) */
	int group;
	char *const *envp;       /* the program's environment; NULL: cyctop's */
};

/* Watches W's program to its end: its snapshot, or NULL with one line in
 * ERR.  The fault switch acts on the kernel seam while it runs. */
struct snapshot *st_watch_run(struct selftest_ctx *c, const struct st_watch *w, char *err,
			      size_t errsz);
/* Event NAME's index in SNAP, or -1. */
int st_event(const struct snapshot *snap, const char *name);
/* The kernel's own times of the last watch, summed per event (its fds),
 * as read through the seam before any fault: enabled and running in ns. */
struct st_kernel_times {
	int n;
	struct { uint64_t config, type; double enabled, running; int fds; } ev[64];
};
const struct st_kernel_times *st_kernel_times(void);
/* Runs ARGV with stdout into OUT (NULL: /dev/null) and stderr into ERRBUF
 * (each at most SZ bytes, NUL-ended); returns its exit status, 127 when
 * it could not be run, -1 on a failure here. */
int st_run_capture(char *const argv[], char *out, size_t outsz, char *errbuf, size_t errsz);
/* perf stat -x, -e EVENTS of cyctop's program WORK: its stdout into OUT
 * (the program's), perf's lines into STAT.  0, or -1 with why in ERR
 * (engine/selftest-count.c, as the next two). */
int st_perf_stat(struct selftest_ctx *c, const char *events, const char *work, char *out,
		 size_t outsz, char *stat, size_t statsz, char *err, size_t errsz);
/* perf stat -x,'s count of NAME in TEXT ("40000123,,instructions:u,..."),
 * or -1. */
double st_perf_count(const char *text, const char *name);
/* The environment perf's child had, one string a line of TEXT (its "env"
 * workload's output), as an envp whose strings are in one allocation
 * after the pointers (free() it); with the start-up fault one variable
 * more.  NULL: out of memory. */
char **st_perf_env(struct selftest_ctx *c, const char *text);
/* Sets the loop's speed (C->ns_per_iter) from a task-clock count, once.
 * Returns 0, or -1 with one line in ERR. */
int st_loop_speed(struct selftest_ctx *c, char *err, size_t errsz);
/* Iterations of the loop that take about SECONDS of CPU time (at least MIN). */
unsigned long st_iters_for(const struct selftest_ctx *c, double seconds, unsigned long min);

void st_set(struct st_outcome *o, enum st_result r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The checks (engine/selftest-*.c). */
void st_check_host(struct selftest_ctx *c, struct st_outcome *o);
void st_check_exact(struct selftest_ctx *c, struct st_outcome *o);
void st_check_perf(struct selftest_ctx *c, struct st_outcome *o);
/* Test 3 on software events, for a host without a PMU
 * (engine/selftest-perf-sw.c). */
void st_check_perf_software(struct selftest_ctx *c, struct st_outcome *o);
void st_check_groups(struct selftest_ctx *c, struct st_outcome *o);
void st_check_mux(struct selftest_ctx *c, struct st_outcome *o);
void st_check_sampling(struct selftest_ctx *c, struct st_outcome *o);
/* Test 6's second half, leader sampling (engine/selftest-leader.c). */
void st_check_leader(struct selftest_ctx *c, struct st_outcome *o);
void st_check_method(struct selftest_ctx *c, struct st_outcome *o);
void st_check_software(struct selftest_ctx *c, struct st_outcome *o);
/* Host facts without the verdict (engine/selftest-host.c). */
void st_host_read(struct selftest_ctx *c);

#endif

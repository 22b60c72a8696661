/* The host's PMU (engine/host.c, engine/pfm.c): the kernel decides whether
 * hardware events exist, libpfm4 only names them.
 *
 * libpfm4 reads the CPUID once per process (engine/pfm.c), so each case runs
 * in its own process: main re-executes this program with the case's name and
 * with LIBPFM_FORCE_PMU standing for the CPUID libpfm4 sees ("icl": a CPU it
 * recognizes, as on an Intel family 6 model 167 VM; "perf": one it does not
 * know).  The kernel's PMUs come from a fake sysfs behind the sys seam. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "arch/model.h"
#include "arch/tree.h"
#include "engine/events.h"
#include "engine/host.h"
#include "engine/pfm.h"
#include "fake-sysfs.h"

/* The host libpfm4 encodes for (engine/pfm.h): this process's, made in main. */
static struct pfm_host *pfmh;

static void setup_or_fail(void)
{
	char err[256] = "";

	if (pfm_setup(pfmh, NULL, err, sizeof(err)) != 0)
		fail_msg("pfm_setup: %s", err);
}

static void parse_or_fail(const char *list, struct ev_list *l)
{
	char err[256] = "";

	if (events_parse(list, events_host_model(pfmh), pfmh, l, err, sizeof(err)) != 0)
		fail_msg("events_parse(%s): %s", list, err);
}

/* --- the sysfs reader ----------------------------------------------------- */

static void test_read_none(void **state)
{
	struct host_pmus k;

	(void)state;
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 0);
	fake_sysfs_install("/nonexistent-sysfs");
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 0);
	fake_sysfs_install(NULL);
}

static void test_read_core(void **state)
{
	struct host_pmus k;

	(void)state;
	fake_sysfs_install(fake_sysfs_make("cpu", "skylake\n"));
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 1);
	assert_string_equal(k.core[0].dev, "cpu");
	assert_int_equal(k.core[0].type, 4);
	assert_string_equal(k.core[0].pmu_name, "skylake");
	/* AMD: no caps/pmu_name */
	fake_sysfs_install(fake_sysfs_make("cpu", NULL));
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 1);
	assert_string_equal(k.core[0].pmu_name, "");
	fake_sysfs_install(NULL);
}

static void test_read_hybrid(void **state)
{
	struct host_pmus k;

	(void)state;
	/* made atom first: the reader still puts cpu_core first */
	fake_sysfs_install(fake_sysfs_make("cpu_atom,cpu_core", "alderlake_hybrid\n"));
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 2);
	assert_string_equal(k.core[0].dev, "cpu_core");
	assert_string_equal(k.core[1].dev, "cpu_atom");
	assert_string_equal(k.core[1].pmu_name, "alderlake_hybrid");
	fake_sysfs_install(NULL);
}

/* arm64: the PMUv3 driver's names (two kinds of cores: big.LITTLE), their
 * cpus and caps/slots; the SPE and DSU PMUs are no core PMUs. */
static void test_read_arm64(void **state)
{
	struct host_pmus k;
	char dir[400];
	const char *root;

	(void)state;
	root = fake_sysfs_make("armv8_cortex_a76,armv8_cortex_a55,arm_spe_0,arm_dsu_0", NULL);
	snprintf(dir, sizeof(dir), "%s/armv8_cortex_a76", root);
	fake_sysfs_write(dir, "cpus", "4-7\n");
	snprintf(dir, sizeof(dir), "%s/armv8_cortex_a76/caps", root);
	mkdir(dir, 0755);
	fake_sysfs_write(dir, "slots", "0x00000005\n");
	snprintf(dir, sizeof(dir), "%s/armv8_cortex_a55", root);
	fake_sysfs_write(dir, "cpus", "0-3\n");
	fake_sysfs_install(root);
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 2);
	assert_string_equal(k.core[0].dev, "armv8_cortex_a55");
	assert_string_equal(k.core[0].cpus, "0-3");
	assert_int_equal(k.core[0].slots, 0);
	assert_string_equal(k.core[1].dev, "armv8_cortex_a76");
	assert_string_equal(k.core[1].cpus, "4-7");
	assert_int_equal(k.core[1].slots, 5);
	assert_int_equal(k.core[1].type, 4);  /* the fake gives types 4, 5... in the order made */
	fake_sysfs_install(NULL);
	assert_true(host_is_core_pmu("armv8_pmuv3_0"));
	assert_true(host_is_core_pmu("armv8_neoverse_n1"));
	assert_true(host_is_core_pmu("armv9_neoverse_v2"));
	assert_false(host_is_core_pmu("arm_cmn_0"));
	assert_false(host_is_core_pmu("software"));
}

/* arm64 with Linux 6.8+: the threshold format fields and caps/threshold_max
 * (drivers/perf/arm_pmuv3.c, FEAT_PMUv3_TH), written as the kernel writes
 * them; a PMU without the feature reads threshold_max 0, an older kernel
 * has no format files. */
static void make_threshold(const char *root, const char *dev, const char *max)
{
	char dir[400];

	snprintf(dir, sizeof(dir), "%s/%s/format", root, dev);
	mkdir(dir, 0755);
	fake_sysfs_write(dir, "event", "config:0-15\n");
	fake_sysfs_write(dir, "threshold", "config1:5-16\n");
	fake_sysfs_write(dir, "threshold_compare", "config1:3-4\n");
	fake_sysfs_write(dir, "threshold_count", "config1:2\n");
	snprintf(dir, sizeof(dir), "%s/%s/caps", root, dev);
	mkdir(dir, 0755);
	if (max)
		fake_sysfs_write(dir, "threshold_max", max);
}

static void test_read_threshold(void **state)
{
	struct host_pmus k;
	const char *root;

	(void)state;
	root = fake_sysfs_make("armv9_neoverse_v3,armv8_pmuv3_0,armv8_neoverse_n1", NULL);
	make_threshold(root, "armv9_neoverse_v3", "0x000000ff\n");
	make_threshold(root, "armv8_pmuv3_0", "0x00000000\n");  /* no FEAT_PMUv3_TH */
	fake_sysfs_install(root);
	host_pmus_read(&k);
	assert_int_equal(k.ncore, 3);
	/* sorted by name: armv8_neoverse_n1 (an older kernel), armv8_pmuv3_0, armv9_... */
	const struct arm_threshold *old = &k.core[0].threshold, *none = &k.core[1].threshold,
				   *th = &k.core[2].threshold;
	assert_string_equal(k.core[2].dev, "armv9_neoverse_v3");
	assert_true(th->format);
	assert_int_equal(th->th_lo, 5);
	assert_int_equal(th->th_hi, 16);
	assert_int_equal(th->cmp_lo, 3);
	assert_int_equal(th->cmp_hi, 4);
	assert_int_equal(th->cnt_lo, 2);
	assert_int_equal(th->cnt_hi, 2);
	assert_int_equal(th->max, 255);
	assert_true(arm_th_usable(th));
	assert_true(none->format);
	assert_int_equal(none->max, 0);
	assert_false(arm_th_usable(none));
	assert_false(old->format);
	assert_false(arm_th_usable(old));
	fake_sysfs_install(NULL);
}

/* "OP_RETIRED:th=N" on a PMU with the threshold: config the event number,
 * config1 threshold=N, threshold_compare=2 (GE), threshold_count=1 at the
 * format's positions, N = 1..8 (V2's width); the same PMU without
 * FEAT_PMUv3_TH (threshold_max 0) or an older kernel: one line, no event. */
static void test_encode_threshold(void **state)
{
	const struct arch_model *v2 = model_find("arm_v2"), *n1 = model_find("arm_n1");
	struct ev_list l;
	char list[512] = "", err[256];
	const char *root;

	(void)state;
	root = fake_sysfs_make("armv8_pmuv3_0", NULL);
	make_threshold(root, "armv8_pmuv3_0", "0x000000ff\n");
	fake_sysfs_install(root);
	for (int k = 1; k <= 8; k++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%sOP_RETIRED:th=%d",
			 k > 1 ? "," : "", k);
	if (events_parse(list, v2, pfmh, &l, err, sizeof(err)) != 0)
		fail_msg("events_parse(%s): %s", list, err);
	assert_int_equal(l.n, 8);
	for (int k = 1; k <= 8; k++) {
		assert_int_equal(l.ev[k - 1].attr.config, 0x3a);
		assert_int_equal(l.ev[k - 1].attr.config1, (uint64_t)k << 5 | 2 << 3 | 1 << 2);
	}
	/* N1 thresholds INST_RETIRED (0x08); a plain event has no config1 */
	if (events_parse("INST_RETIRED:th=3,INST_RETIRED", n1, pfmh, &l, err, sizeof(err)) != 0)
		fail_msg("events_parse: %s", err);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.ev[0].attr.config, 0x08);
	assert_int_equal(l.ev[0].attr.config1, 3 << 5 | 2 << 3 | 1 << 2);
	assert_int_equal(l.ev[1].attr.config1, 0);
	assert_int_not_equal(events_parse("OP_RETIRED:th=256", v2, pfmh, &l, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "outside 1..255"));
	/* @ilp: CPU_CYCLES and the sweep to the model's width (N2: 5 slots; N1
	 * has none in the tables: the arm tree's 8 steps) */
	if (events_parse("@ilp", model_find("arm_n2"), pfmh, &l, err, sizeof(err)) != 0)
		fail_msg("@ilp: %s", err);
	assert_int_equal(l.n, 6);
	assert_string_equal(l.ev[0].name, "CPU_CYCLES");
	assert_string_equal(l.ev[5].name, "OP_RETIRED:th=5");
	assert_int_equal(l.ev[5].attr.config1, 5 << 5 | 2 << 3 | 1 << 2);
	if (events_parse("@ilp", n1, pfmh, &l, err, sizeof(err)) != 0)
		fail_msg("@ilp: %s", err);
	assert_int_equal(l.n, 9);
	assert_string_equal(l.ev[8].name, "INST_RETIRED:th=8");
	fake_sysfs_install(NULL);

	root = fake_sysfs_make("armv8_pmuv3_0", NULL);
	make_threshold(root, "armv8_pmuv3_0", "0x00000000\n");
	fake_sysfs_install(root);
	assert_int_not_equal(events_parse("OP_RETIRED:th=1", v2, pfmh, &l, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "no counter threshold on armv8_pmuv3_0"));
	assert_null(strchr(err, '\n'));
	assert_int_not_equal(events_parse("@ilp", v2, pfmh, &l, err, sizeof(err)), 0);
	assert_non_null(strstr(err, v2->no_ilp));  /* the model's line: why there is none */
	fake_sysfs_install(fake_sysfs_make("armv8_pmuv3_0", NULL));  /* before Linux 6.8 */
	assert_int_not_equal(events_parse("OP_RETIRED:th=1", v2, pfmh, &l, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "FEAT_PMUv3_TH"));
	fake_sysfs_install(NULL);
}

static void test_parse_config1_format(void **state)
{
	uint8_t lo = 99, hi = 99;

	(void)state;
	assert_true(host_parse_config1_format("config1:5-16\n", &lo, &hi));
	assert_int_equal(lo, 5);
	assert_int_equal(hi, 16);
	assert_true(host_parse_config1_format("config1:2", &lo, &hi));
	assert_int_equal(lo, 2);
	assert_int_equal(hi, 2);
	assert_false(host_parse_config1_format("config:0-15\n", &lo, &hi));
	assert_false(host_parse_config1_format("config2:0-3\n", &lo, &hi));
	assert_false(host_parse_config1_format("config1:\n", &lo, &hi));
	assert_false(host_parse_config1_format("config1:5-\n", &lo, &hi));
	assert_false(host_parse_config1_format("config1:16-5\n", &lo, &hi));
	assert_false(host_parse_config1_format("config1:60-64\n", &lo, &hi));
	assert_false(host_parse_config1_format("config1:1,3\n", &lo, &hi));
}

/* MIDR_EL1 as the kernel prints it, and /proc/cpuinfo's lines (arm64). */
static void test_midr(void **state)
{
	uint32_t impl = 0, part = 0;

	(void)state;
	assert_true(host_parse_midr("0x00000000414fd0c1\n", &impl, &part));
	assert_int_equal(impl, 0x41);
	assert_int_equal(part, 0xd0c);   /* Neoverse N1 */
	assert_true(host_parse_midr("0x00000000410fd400", &impl, &part));
	assert_int_equal(part, 0xd40);   /* Neoverse V1 */
	assert_false(host_parse_midr("", &impl, &part));
	assert_false(host_parse_midr("0x0\n", &impl, &part));
	assert_false(host_parse_midr("zz\n", &impl, &part));
	impl = part = 0;
	assert_int_equal(host_parse_cpuinfo_line("CPU implementer\t: 0x41\n", &impl, &part), 1);
	assert_int_equal(host_parse_cpuinfo_line("CPU part\t: 0xd07\n", &impl, &part), 2);
	assert_int_equal(impl, 0x41);
	assert_int_equal(part, 0xd07);   /* Cortex-A57 */
	assert_int_equal(host_parse_cpuinfo_line("CPU variant\t: 0x1\n", &impl, &part), 0);
	assert_int_equal(host_parse_cpuinfo_line("model name\t: Intel\n", &impl, &part), 0);
	assert_int_equal(host_parse_cpuinfo_line("CPU part\t:\n", &impl, &part), 0);
}

/* --- libpfm4 recognizes the CPUID (icl), the kernel has no PMU ------------ */

static void test_cpuid_without_kernel_pmu(void **state)
{
	struct ev_list l;
	struct perf_event_attr attr;
	char err[256] = "", desc[64];

	(void)state;
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	setup_or_fail();
	assert_null(pfm_host_pmu(pfmh));
	assert_false(pfm_host_hardware(pfmh));
	pfm_host_describe(pfmh, desc, sizeof(desc));
	assert_string_equal(desc, "none (software events only)");
	assert_string_equal(events_host_model(pfmh)->name, "perf");
	/* the README's promise: cycles -> cpu-clock, with the one-line notice */
	parse_or_fail("cycles", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_non_null(strstr(l.notice, "no hardware PMU"));
	parse_or_fail("page-faults,task-clock", &l);
	assert_int_equal(l.n, 2);
	/* icl's own events: refused, naming the reason */
	assert_int_equal(pfm_encode(pfmh, "INST_RETIRED:ANY", &attr, NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "INST_RETIRED:ANY"));
	assert_non_null(strstr(err, "kernel has no PMU"));
	fake_sysfs_install(NULL);
}

/* The same CPU once the kernel has its PMU: libpfm4 names the events. */
static void test_cpuid_with_kernel_pmu(void **state)
{
	struct ev_list l;
	struct perf_event_attr attr;
	char err[256] = "";

	(void)state;
	fake_sysfs_install(fake_sysfs_make("cpu", "icelake\n"));
	setup_or_fail();
	assert_non_null(pfm_host_pmu(pfmh));
	assert_string_equal(pfm_host_pmu(pfmh), "icl");
	assert_true(pfm_host_hardware(pfmh));
	parse_or_fail("cycles", &l);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_HARDWARE);
	assert_string_equal(l.notice, "");
	assert_int_equal(pfm_encode(pfmh, "INST_RETIRED:ANY_P", &attr, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(attr.type, PERF_TYPE_RAW);
	assert_int_equal(attr.config & 0xffff, 0xc0);
	fake_sysfs_install(NULL);
}

/* --- CPUs libpfm4 4.13 does not know, named by CPUID (perf's mapfile.csv) - */

static void test_host_model_by_cpuid(void **state)
{
	struct ev_list l;
	const char *root;

	(void)state;
	/* Granite Rapids: GenuineIntel,6,173 -> gnr, encoded under libpfm4's spr */
	root = fake_sysfs_make("cpu", "granite_rapids\n");
	fake_sysfs_cpuinfo(root, "GenuineIntel", 6, 173);
	fake_sysfs_install(root);
	setup_or_fail();
	assert_string_equal(events_host_model(pfmh)->name, "gnr");
	assert_string_equal(pfm_host_pmu(pfmh), "spr");
	parse_or_fail("INT_MISC.UNKNOWN_BRANCH_CYCLES,topdown-retiring", &l);
	assert_int_equal(l.ev[0].attr.config, 0x40ad);
	assert_int_equal(l.ev[0].attr.config1, 0x7);
	assert_int_equal(l.ev[1].attr.config, 0x8000);
	/* Zen 5: AuthenticAMD,26 -> amd64_fam1ah_zen5, perf's names */
	root = fake_sysfs_make("cpu", "");
	fake_sysfs_cpuinfo(root, "AuthenticAMD", 26, 2);
	fake_sysfs_install(root);
	setup_or_fail();
	assert_string_equal(events_host_model(pfmh)->name, "amd64_fam1ah_zen5");
	parse_or_fail("ex_ret_ops,ls_not_halted_cyc:c=1:i=1", &l);
	assert_int_equal(l.ev[0].attr.config, 0xc1);
	assert_int_equal(l.ev[1].attr.config, 0x1800076);
	/* no kernel PMU: the CPUID names no model (software events only) */
	root = fake_sysfs_make(NULL, NULL);
	fake_sysfs_cpuinfo(root, "AuthenticAMD", 26, 2);
	fake_sysfs_install(root);
	setup_or_fail();
	assert_string_equal(events_host_model(pfmh)->name, "perf");
	fake_sysfs_install(NULL);
}

/* --- the trees of the host's model (the tree view's t and -A) ------------ */

/* The host model events_host_model gives on ROOT, its trees in t's order
 * (as tree names, space-separated) and its TopDown's title (or "none"). */
static void assert_host_trees(const char *root, const char *model, const char *trees,
			      const char *topdown)
{
	enum arch_tree ids[TREE_COUNT];
	char got[128] = "";
	const struct arch_model *m;

	fake_sysfs_install(root);
	setup_or_fail();
	m = events_host_model(pfmh);
	assert_string_equal(m->name, model);
	int n = tree_model_trees(m, ids);
	for (int k = 0; k < n; k++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", k ? " " : "",
			 tree_name(ids[k]));
	assert_string_equal(got, trees);
	if (!tree_fits_model(TREE_TOPDOWN, m)) {
		assert_string_equal("none", topdown);
	} else if (!strstr(tree_def_pick(TREE_TOPDOWN, m, NULL)->title, topdown)) {
		fail_msg("%s: TopDown '%s', want %s", model,
			 tree_def_pick(TREE_TOPDOWN, m, NULL)->title, topdown);
	}
	fake_sysfs_install(NULL);
}

/* Zen 4, Sapphire Rapids and a Neoverse N1 by their CPUID (cpuinfo) and
 * kernel PMU: each its own vendor's trees, its own first; the software
 * tree last; none of another vendor's.  Without a PMU: the software tree. */
static void test_host_trees(void **state)
{
	const char *root;

	(void)state;
	root = fake_sysfs_make("cpu", "");
	fake_sysfs_cpuinfo(root, "AuthenticAMD", 25, 17);
	assert_host_trees(root, "amd64_fam19h_zen4", "zen amd topdown sw wall", "AMD Zen 4");
	root = fake_sysfs_make("cpu", "sapphire_rapids\n");
	fake_sysfs_cpuinfo(root, "GenuineIntel", 6, 143);
	assert_host_trees(root, "spr", "intel topdown sw wall", "Sapphire Rapids");
	root = fake_sysfs_make("armv8_neoverse_n1", NULL);
	fake_sysfs_write(root, "cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n"
			 "CPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\n");
	assert_host_trees(root, "arm_n1", "arm sw wall", "none");
	root = fake_sysfs_make(NULL, NULL);
	fake_sysfs_cpuinfo(root, "AuthenticAMD", 25, 17);
	assert_host_trees(root, "perf", "sw wall", "none");
}

/* --- a kernel PMU libpfm4 does not know (a CPU newer than libpfm4) ------- */

static void test_kernel_pmu_unknown_cpu(void **state)
{
	struct ev_list l;
	char desc[64];

	(void)state;
	fake_sysfs_install(fake_sysfs_make("cpu", "sapphire_rapids\n"));
	setup_or_fail();
	assert_null(pfm_host_pmu(pfmh));
	assert_true(pfm_host_hardware(pfmh));
	pfm_host_describe(pfmh, desc, sizeof(desc));
	assert_string_equal(desc, "cpu sapphire_rapids (generic events only)");
	assert_string_equal(events_host_model(pfmh)->name, "perf");
	/* generic hardware events stay what they are: the kernel opens them */
	parse_or_fail("cycles,instructions", &l);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(l.ev[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(l.ev[1].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_string_equal(l.notice, "");
	/* and raw codes, as perf takes them */
	parse_or_fail("r1c0", &l);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_RAW);
	assert_int_equal(l.ev[0].attr.config, 0x1c0);
	fake_sysfs_install(NULL);
}

static void test_no_pmu_unknown_cpu(void **state)
{
	struct ev_list l;

	(void)state;
	fake_sysfs_install(fake_sysfs_make(NULL, NULL));
	setup_or_fail();
	assert_null(pfm_host_pmu(pfmh));
	assert_false(pfm_host_hardware(pfmh));
	parse_or_fail("cpu-cycles", &l);
	assert_int_equal(l.ev[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_non_null(strstr(l.notice, "cpu-clock"));
	fake_sysfs_install(NULL);
}

/* The threshold the ILP view asks the engine about (pfm_host_threshold):
 * the arm64 core PMU's after pfm_setup, none on x86. */
static void test_host_threshold(void **state)
{
	const char *root;

	(void)state;
	root = fake_sysfs_make("armv8_pmuv3_0", NULL);
	make_threshold(root, "armv8_pmuv3_0", "0x000000ff\n");
	fake_sysfs_install(root);
	setup_or_fail();
	assert_non_null(pfm_host_threshold(pfmh));
	assert_true(arm_th_usable(pfm_host_threshold(pfmh)));
	assert_int_equal(pfm_host_threshold(pfmh)->max, 255);
	fake_sysfs_install(fake_sysfs_make("cpu", NULL));
	setup_or_fail();
	assert_null(pfm_host_threshold(pfmh));
	fake_sysfs_install(NULL);
}

static int run_case(const char *name)
{
	const struct CMUnitTest reader[] = {
		cmocka_unit_test(test_read_none),
		cmocka_unit_test(test_read_core),
		cmocka_unit_test(test_read_hybrid),
		cmocka_unit_test(test_read_arm64),
		cmocka_unit_test(test_read_threshold),
		cmocka_unit_test(test_parse_config1_format),
		cmocka_unit_test(test_encode_threshold),
		cmocka_unit_test(test_midr),
	};
	const struct CMUnitTest icl[] = {
		cmocka_unit_test(test_cpuid_without_kernel_pmu),
		cmocka_unit_test(test_cpuid_with_kernel_pmu),
	};
	const struct CMUnitTest unknown[] = {
		cmocka_unit_test(test_no_pmu_unknown_cpu),
		cmocka_unit_test(test_kernel_pmu_unknown_cpu),
		cmocka_unit_test(test_host_model_by_cpuid),
		cmocka_unit_test(test_host_trees),
		cmocka_unit_test(test_host_threshold),
	};

	if (strcmp(name, "reader") == 0)
		return cmocka_run_group_tests_name("host: sysfs reader", reader, NULL, NULL);
	if (strcmp(name, "icl") == 0)
		return cmocka_run_group_tests_name("host: CPUID icl", icl, NULL, NULL);
	return cmocka_run_group_tests_name("host: CPUID unknown", unknown, NULL, NULL);
}

/* Runs case NAME in a fresh process whose libpfm4 sees CPUID as FORCE. */
static int run_child(const char *self, const char *name, const char *force)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", force, 1);
		execl(self, self, name, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv)
{
	pfmh = pfm_host_new();
	if (argc > 1)
		return run_case(argv[1]);
	int failed = run_case("reader");
	failed += run_child(argv[0], "icl", "icl");
	failed += run_child(argv[0], "unknown", "perf");
	return failed ? 1 : 0;
}

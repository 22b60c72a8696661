/* Test 1, the host: what the CPU is, the kernel's core PMU and libpfm4's,
 * the counters a group may use, the NMI watchdog, perf_event_paranoid, the
 * kernel, which trees and presets apply.  It fails when cyctop's choice of
 * model contradicts the kernel (hardware events on a kernel without a
 * core PMU, or software only where the kernel has one). */
#include "engine/selftest.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/preset.h"
#include "arch/tree.h"
#include "engine/host.h"
#include "engine/pfm.h"
#include "engine/sys.h"

/* The first line of PATH without its newline, "" when unreadable. */
static void first_line(const char *path, char *out, size_t outsz)
{
	FILE *f = sys_fopen(path, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (!fgets(out, (int)outsz, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static int read_int(const char *path, int dflt)
{
	char buf[64];

	first_line(path, buf, sizeof(buf));
	return buf[0] ? atoi(buf) : dflt;
}

/* x86: /proc/cpuinfo's vendor, family and model of the first CPU. */
static void read_cpuinfo(struct st_host *h)
{
	char line[512];
	FILE *f = sys_fopen(HOST_CPUINFO, "r");

	h->family = h->model = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + (v[1] == ' ');
		v[strcspn(v, "\n")] = '\0';
		if (!h->vendor[0] && strncmp(line, "vendor_id", 9) == 0)
			snprintf(h->vendor, sizeof(h->vendor), "%s", v);
		else if (h->family < 0 && strncmp(line, "cpu family", 10) == 0)
			h->family = atoi(v);
		else if (h->model < 0 && strncmp(line, "model\t", 6) == 0)
			h->model = atoi(v);
		else if (line[0] == '\n')
			break;
	}
	fclose(f);
}

/* The core PMU's caps/ files as "name=value ...". */
static void read_caps(const char *dev, char *out, size_t outsz)
{
	char path[512], val[64];
	struct dirent *de;
	size_t n = 0;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/caps", HOST_PMU_DIR, dev);
	DIR *d = sys_opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) != NULL && n + 1 < outsz) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/caps/%s", HOST_PMU_DIR, dev, de->d_name);
		first_line(path, val, sizeof(val));
		int w = snprintf(out + n, outsz - n, "%s%s=%s", n ? " " : "", de->d_name, val);
		n = w > 0 && (size_t)w < outsz - n ? n + (size_t)w : outsz - 1;
	}
	closedir(d);
}

static void append(char *out, size_t outsz, const char *word)
{
	size_t n = strlen(out);

	snprintf(out + n, outsz - n, "%s%s", n ? " " : "", word);
}

static void read_trees_presets(struct selftest_ctx *c)
{
	const struct preset *p;

	for (int t = 0; t < TREE_COUNT; t++)
		if (tree_fits_model((enum arch_tree)t, c->model) && tree_def_get((enum arch_tree)t))
			append(c->host.trees, sizeof(c->host.trees), tree_name((enum arch_tree)t));
	for (size_t i = 0; (p = preset_at(i)) != NULL; i++)
		if (preset_for_model(p, c->model) && !strstr(c->host.presets, p->name))
			append(c->host.presets, sizeof(c->host.presets), p->name);
}

static void read_perf_version(struct st_host *h)
{
	char *argv[] = { "perf", "--version", NULL };
	char out[128], errbuf[256];

	if (st_run_capture(argv, out, sizeof(out), errbuf, sizeof(errbuf)) == 0 &&
	    strncmp(out, "perf version", 12) == 0) {
		out[strcspn(out, "\n")] = '\0';
		snprintf(h->perf, sizeof(h->perf), "%s", out);
	}
}

void st_host_read(struct selftest_ctx *c)
{
	struct st_host *h = &c->host;
	struct host_pmus pmus;

#if defined(__x86_64__)
	snprintf(h->arch, sizeof(h->arch), "x86_64");
#elif defined(__aarch64__)
	snprintf(h->arch, sizeof(h->arch), "aarch64");
#endif
	read_cpuinfo(h);
	host_pmus_read(&pmus);
	if (pmus.midr) {
		snprintf(h->vendor, sizeof(h->vendor), "implementer 0x%02x", pmus.implementer);
		h->model = (int)pmus.part;
	}
	first_line("/proc/sys/kernel/osrelease", h->kernel, sizeof(h->kernel));
	h->core_pmus = pmus.ncore;
	for (int i = 0; i < pmus.ncore; i++)
		append(h->kernel_pmu, sizeof(h->kernel_pmu), pmus.core[i].dev);
	if (pmus.ncore)
		read_caps(pmus.core[0].dev, h->caps, sizeof(h->caps));
	snprintf(h->pfm_pmu, sizeof(h->pfm_pmu), "%s", pfm_host_pmu(c->pfm) ? pfm_host_pmu(c->pfm) : "");
	pfm_lib_version(h->pfm_version, sizeof(h->pfm_version));
	snprintf(h->model_name, sizeof(h->model_name), "%s", c->model->name);
	pfm_host_describe(c->pfm, h->describe, sizeof(h->describe));
	h->counters = c->model->n_generic ? c->model->n_generic : pfm_host_counters(c->pfm);
	h->fixed = c->model->n_fixed;
	h->nmi_watchdog = read_int("/proc/sys/kernel/nmi_watchdog", -1);
	h->paranoid = read_int("/proc/sys/kernel/perf_event_paranoid", 2);
	read_trees_presets(c);
	read_perf_version(h);
}

void st_check_host(struct selftest_ctx *c, struct st_outcome *o)
{
	const struct st_host *h = &c->host;
	bool kernel_pmu = h->core_pmus > 0, hw_model = model_is_hardware(c->model);

	if (selftest_fault(c, "host"))
		kernel_pmu = !kernel_pmu;
	snprintf(o->measured, sizeof(o->measured), "kernel PMU %s, libpfm4 %s, model %s",
		 kernel_pmu ? h->kernel_pmu : "none", h->pfm_pmu[0] ? h->pfm_pmu : "none",
		 h->model_name);
	snprintf(o->expected, sizeof(o->expected), "a hardware model exactly when the kernel "
		 "has a core PMU");
	if (!kernel_pmu && hw_model)
		st_set(o, ST_FAIL, "model %s is hardware but the kernel has no core PMU: its "
		       "events would not open", h->model_name);
	else if (kernel_pmu && !pfm_host_hardware(c->pfm))
		st_set(o, ST_FAIL, "the kernel has core PMU %s but cyctop opens software events "
		       "only", h->kernel_pmu);
	else if (!kernel_pmu)
		st_set(o, ST_PASS, "no hardware PMU: software events only; kernel %s, "
		       "paranoid %d", h->kernel, h->paranoid);
	else
		st_set(o, ST_PASS, "PMU %s, %d generic + %d fixed counters%s%s; paranoid %d; "
		       "trees %s", h->describe, h->counters, h->fixed,
		       h->core_pmus > 1 ? ", hybrid" : "",
		       h->nmi_watchdog > 0 ? ", NMI watchdog holds a counter" : "", h->paranoid,
		       h->trees[0] ? h->trees : "none");
}

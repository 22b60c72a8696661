#include "engine/host.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/sys.h"

/* The first line of DIR/DEV/FILE without its newline, or false. */
static bool read_line(const char *dev, const char *file, char *out, size_t outsz)
{
	char path[sizeof(HOST_PMU_DIR) + 320];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", HOST_PMU_DIR, dev, file);
	if (!(f = sys_fopen(path, "r")))
		return false;
	bool ok = fgets(out, (int)outsz, f) != NULL;
	fclose(f);
	if (ok)
		out[strcspn(out, "\n")] = '\0';
	return ok;
}

/* x86: "cpu"; "cpu_core" and "cpu_atom" on hybrid parts.  arm64: the
 * PMUv3 driver's "armv8_*" (armv8_pmuv3_0, armv8_cortex_a72,
 * armv8_neoverse_n1) and "armv9_*" (Linux 6.3+: armv9_neoverse_n2), one per
 * kind of core on a big.LITTLE machine; arm_spe_0, arm_dsu_0, arm_cmn_0 are
 * not core PMUs. */
bool host_is_core_pmu(const char *dev)
{
	return strcmp(dev, "cpu") == 0 || strcmp(dev, "cpu_core") == 0 ||
	       strcmp(dev, "cpu_atom") == 0 || strncmp(dev, "armv8_", 6) == 0 ||
	       strncmp(dev, "armv9_", 6) == 0;
}

/* The order core PMUs are listed in: cpu_core before cpu_atom (the big
 * cores first), else by name, whatever order readdir gave. */
static int core_order(const void *a, const void *b)
{
	int atom_a = strcmp(a, "cpu_atom") == 0, atom_b = strcmp(b, "cpu_atom") == 0;

	return atom_a != atom_b ? atom_a - atom_b : strcmp(a, b);
}

bool host_parse_midr(const char *text, uint32_t *implementer, uint32_t *part)
{
	char *end;
	unsigned long long midr = strtoull(text, &end, 16);

	if (end == text || (*end && *end != '\n') || midr == 0)
		return false;
	*implementer = (uint32_t)(midr >> 24) & 0xff;   /* MIDR_EL1.Implementer [31:24] */
	*part = (uint32_t)(midr >> 4) & 0xfff;          /* MIDR_EL1.PartNum [15:4] */
	return true;
}

int host_parse_cpuinfo_line(const char *line, uint32_t *implementer, uint32_t *part)
{
	const char *colon = strchr(line, ':');
	int which;
	char *end;
	unsigned long v;

	if (strncmp(line, "CPU implementer", 15) == 0)
		which = 1;
	else if (strncmp(line, "CPU part", 8) == 0)
		which = 2;
	else
		return 0;
	if (!colon)
		return 0;
	v = strtoul(colon + 1, &end, 0);
	if (end == colon + 1)
		return 0;
	*(which == 1 ? implementer : part) = (uint32_t)v;
	return which;
}

/* CPU 0's implementer and part: MIDR_EL1, else /proc/cpuinfo's first
 * processor's lines (an x86 host has neither). */
static void read_midr(struct host_pmus *out)
{
	char line[256];
	FILE *f;
	int seen = 0;

	if ((f = sys_fopen(HOST_MIDR_FILE, "r"))) {
		bool ok = fgets(line, sizeof(line), f) &&
			  host_parse_midr(line, &out->implementer, &out->part);
		fclose(f);
		if (ok) {
			out->midr = true;
			return;
		}
	}
	if (!(f = sys_fopen(HOST_CPUINFO, "r")))
		return;
	while (seen != 3 && fgets(line, sizeof(line), f))
		seen |= host_parse_cpuinfo_line(line, &out->implementer, &out->part);
	fclose(f);
	out->midr = seen == 3;
}

bool host_parse_config1_format(const char *text, uint8_t *lo, uint8_t *hi)
{
	char *end;
	unsigned long a, b;

	if (strncmp(text, "config1:", 8) != 0)
		return false;
	a = b = strtoul(text + 8, &end, 10);
	if (end == text + 8)
		return false;
	if (*end == '-') {
		const char *from = end + 1;
		b = strtoul(from, &end, 10);
		if (end == from)
			return false;
	}
	if ((*end && *end != '\n') || a > b || b > 63)
		return false;
	*lo = (uint8_t)a;
	*hi = (uint8_t)b;
	return true;
}

/* The counter threshold fields of an arm64 core PMU (arch/ilp.h, from
 * drivers/perf/arm_pmuv3.c): its three format files and caps/threshold_max
 * ("0x000000ff"; 0 without FEAT_PMUv3_TH). */
static void read_threshold(const char *dev, struct arm_threshold *th)
{
	char text[64];

	memset(th, 0, sizeof(*th));
	th->format = read_line(dev, "format/threshold", text, sizeof(text)) &&
		     host_parse_config1_format(text, &th->th_lo, &th->th_hi) &&
		     read_line(dev, "format/threshold_compare", text, sizeof(text)) &&
		     host_parse_config1_format(text, &th->cmp_lo, &th->cmp_hi) &&
		     read_line(dev, "format/threshold_count", text, sizeof(text)) &&
		     host_parse_config1_format(text, &th->cnt_lo, &th->cnt_hi);
	if (th->format && read_line(dev, "caps/threshold_max", text, sizeof(text)))
		th->max = (uint32_t)strtoul(text, NULL, 0);
}

static void add_core(struct host_pmus *out, const char *dev)
{
	struct host_core_pmu *p;
	char type[32], slots[32];

	if (out->ncore == HOST_MAX_CORE_PMUS || !read_line(dev, "type", type, sizeof(type)))
		return;
	p = &out->core[out->ncore++];
	memset(p, 0, sizeof(*p));
	strcpy(p->dev, dev);
	p->type = (uint32_t)strtoul(type, NULL, 10);
	if (!read_line(dev, "caps/pmu_name", p->pmu_name, sizeof(p->pmu_name)))
		p->pmu_name[0] = '\0';
	if (!read_line(dev, "cpus", p->cpus, sizeof(p->cpus)))
		p->cpus[0] = '\0';
	/* "0x5": the kernel prints PMMIR_EL1.SLOTS in hex (arm_pmuv3.c slots_show) */
	p->slots = read_line(dev, "caps/slots", slots, sizeof(slots)) ?
			   (uint32_t)strtoul(slots, NULL, 0) : 0;
	read_threshold(dev, &p->threshold);
}

void host_pmus_read(struct host_pmus *out)
{
	DIR *d;
	struct dirent *e;
	char names[HOST_MAX_CORE_PMUS][sizeof(out->core[0].dev)];
	int n = 0;

	memset(out, 0, sizeof(*out));
	if (!(d = sys_opendir(HOST_PMU_DIR)))
		return;
	while ((e = readdir(d)) != NULL && n < HOST_MAX_CORE_PMUS)
		if (host_is_core_pmu(e->d_name) && strlen(e->d_name) < sizeof(names[0]))
			strcpy(names[n++], e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), core_order);
	for (int i = 0; i < n; i++)
		add_core(out, names[i]);
	read_midr(out);
}

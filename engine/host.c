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

/* "cpu"; "cpu_core" and "cpu_atom" on hybrid parts. */
static bool is_core_pmu(const char *dev)
{
	return strcmp(dev, "cpu") == 0 || strcmp(dev, "cpu_core") == 0 ||
	       strcmp(dev, "cpu_atom") == 0;
}

static void add_core(struct host_pmus *out, const char *dev)
{
	struct host_core_pmu *p;
	char type[32];

	if (out->ncore == HOST_MAX_CORE_PMUS || !read_line(dev, "type", type, sizeof(type)))
		return;
	p = &out->core[out->ncore++];
	memset(p, 0, sizeof(*p));
	strcpy(p->dev, dev);
	p->type = (uint32_t)strtoul(type, NULL, 10);
	if (!read_line(dev, "caps/pmu_name", p->pmu_name, sizeof(p->pmu_name)))
		p->pmu_name[0] = '\0';
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
		if (is_core_pmu(e->d_name))
			strcpy(names[n++], e->d_name);  /* one of the short names above */
	closedir(d);
	/* cpu_core before cpu_atom, whatever order readdir gave */
	if (n == 2 && strcmp(names[0], "cpu_atom") == 0) {
		char t[sizeof(names[0])];
		memcpy(t, names[0], sizeof(t));
		memcpy(names[0], names[1], sizeof(t));
		memcpy(names[1], t, sizeof(t));
	}
	for (int i = 0; i < n; i++)
		add_core(out, names[i]);
}

/* A fake /sys/bus/event_source/devices behind the sys seam, so tests decide
 * what PMUs "the kernel" has instead of depending on the machine they run on.
 *   fake_sysfs_install(fake_sysfs_make(NULL, NULL))           no core PMU
 *   fake_sysfs_install(fake_sysfs_make("cpu", "skylake"))     one core PMU
 *   fake_sysfs_install(fake_sysfs_make("cpu_core,cpu_atom", ""))  hybrid */
#ifndef TESTS_FAKE_SYSFS_H
#define TESTS_FAKE_SYSFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/host.h"
#include "engine/sys.h"

static char fake_sysfs_root[256];
static struct sys_ops fake_sysfs_ops;

/* PATH under HOST_PMU_DIR, moved under the fake root; /proc/cpuinfo is the
 * fake root's cpuinfo (fake_sysfs_cpuinfo), so the host's CPUID is the
 * test's too. */
static const char *fake_sysfs_path(const char *path, char *buf, size_t bufsz)
{
	size_t n = strlen(HOST_PMU_DIR);

	if (fake_sysfs_root[0] && strcmp(path, "/proc/cpuinfo") == 0) {
		snprintf(buf, bufsz, "%s/cpuinfo", fake_sysfs_root);
		return buf;
	}
	if (!fake_sysfs_root[0] || strncmp(path, HOST_PMU_DIR, n) != 0)
		return path;
	snprintf(buf, bufsz, "%s%s", fake_sysfs_root, path + n);
	return buf;
}

static FILE *fake_sysfs_fopen(const char *path, const char *mode)
{
	char buf[512];
	return sys_real_ops()->fopen(fake_sysfs_path(path, buf, sizeof(buf)), mode);
}

static DIR *fake_sysfs_opendir(const char *path)
{
	char buf[512];
	return sys_real_ops()->opendir(fake_sysfs_path(path, buf, sizeof(buf)));
}

static void fake_sysfs_write(const char *dir, const char *file, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!(f = fopen(path, "w")) || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "fake sysfs: cannot write %s\n", path);
		abort();
	}
}

/* A new fake tree with the software PMU and the comma-separated core PMUS
 * (NULL: none), each with caps/pmu_name PMU_NAME unless it is NULL or "". */
static const char *fake_sysfs_make(const char *pmus, const char *pmu_name)
{
	static char root[256];
	char list[128], dir[400];
	int type = 4;

	snprintf(root, sizeof(root), "%s/cyctop-sysfs.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		abort();
	snprintf(dir, sizeof(dir), "%s/software", root);
	mkdir(dir, 0755);
	fake_sysfs_write(dir, "type", "1\n");
	snprintf(list, sizeof(list), "%s", pmus ? pmus : "");
	for (char *p = strtok(list, ","); p; p = strtok(NULL, ",")) {
		char caps[448], type_text[16];
		snprintf(dir, sizeof(dir), "%s/%s", root, p);
		mkdir(dir, 0755);
		snprintf(type_text, sizeof(type_text), "%d\n", type++);
		fake_sysfs_write(dir, "type", type_text);
		if (pmu_name && *pmu_name) {
			snprintf(caps, sizeof(caps), "%s/caps", dir);
			mkdir(caps, 0755);
			fake_sysfs_write(caps, "pmu_name", pmu_name);
		}
	}
	/* a CPU cyctop has no model for, unless the test says which */
	fake_sysfs_write(root, "cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
			 "cpu family\t: 6\nmodel\t\t: 1\nmodel name\t: fake\nstepping\t: 0\n\n");
	return root;
}

/* The fake /proc/cpuinfo of ROOT: VENDOR, FAMILY, MODEL (perf's cpuid
 * "VENDOR,FAMILY,MODEL,1"), a second processor after it. */
static inline void fake_sysfs_cpuinfo(const char *root, const char *vendor, int family, int model)
{
	char text[512];

	snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\n"
		 "model\t\t: %d\nmodel name\t: fake\nstepping\t: 1\n\nprocessor\t: 1\n"
		 "vendor_id\t: nobody\ncpu family\t: 99\nmodel\t\t: 99\n", vendor, family, model);
	fake_sysfs_write(root, "cpuinfo", text);
}

/* Every later look at HOST_PMU_DIR sees ROOT (NULL: the real one again). */
static void fake_sysfs_install(const char *root)
{
	fake_sysfs_ops = *sys_real_ops();
	fake_sysfs_ops.fopen = fake_sysfs_fopen;
	fake_sysfs_ops.opendir = fake_sysfs_opendir;
	snprintf(fake_sysfs_root, sizeof(fake_sysfs_root), "%s", root ? root : "");
	sys_set_ops(root ? &fake_sysfs_ops : NULL);
}

#endif

/* CPU lists: -C's ("0-3,6", as perf and /sys write them), checked against
 * the CPUs online; the online ones for -a. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One CPU number of a list at *P, advancing it; -1 when none is there. */
static long cpu_number(const char **p)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	long v = strtol(*p, &end, 10);
	if (errno || v > 65535)
		return -1;
	*p = end;
	return v;
}

/* ON[c] for every CPU of LIST ("0-3,6", as perf and /sys write them); a CPU
 * at or past NCPUS makes it fail with BAD set to that number. */
static int cpu_list_mark(const char *list, bool *on, int ncpus, long *bad)
{
	const char *p = list;

	*bad = -1;
	do {
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < lo || (*p && *p != ','))
			return -1;
		for (long c = lo; c <= hi; c++) {
			if (c >= ncpus) {
				*bad = c;
				return -1;
			}
			on[c] = true;
		}
	} while (*p++ == ',');
	return 0;
}

void session_cpus_online(bool *online, int ncpus)
{
	char buf[1024];
	long bad;

	session_read_line("/sys/devices/system/cpu/online", buf, sizeof(buf));
	memset(online, 0, (size_t)ncpus * sizeof(*online));
	if (!buf[0] || cpu_list_mark(buf, online, ncpus, &bad) < 0)
		for (int c = 0; c < ncpus; c++)
			online[c] = true;
}

int session_parse_cpu_list(const char *list, bool *on, int ncpus, char *err, size_t errsz)
{
	bool *online = calloc((size_t)ncpus, sizeof(*online));
	long bad;
	int rc = -1;

	memset(on, 0, (size_t)ncpus * sizeof(*on));
	if (!online) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	session_cpus_online(online, ncpus);
	if (cpu_list_mark(list, on, ncpus, &bad) < 0 && bad < 0) {
		snprintf(err, errsz, "-C '%s': not a CPU list (like 0,2-3)", list);
	} else if (bad >= 0) {
		snprintf(err, errsz, "-C %s: there is no CPU %ld (this machine has %d: 0-%d)", list,
			 bad, ncpus, ncpus - 1);
	} else {
		rc = 0;
		for (int c = 0; c < ncpus && rc == 0; c++)
			if (on[c] && !online[c]) {
				snprintf(err, errsz, "-C %s: CPU %d is offline", list, c);
				rc = -1;
			}
	}
	free(online);
	return rc;
}

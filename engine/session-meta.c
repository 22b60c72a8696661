#include "engine/session-meta.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void parse_event(const char *args, struct session_meta *m)
{
	int e, group, counted;
	double coverage, count;

	if (sscanf(args, "%d group %d counted %d coverage %lf count %lf", &e, &group, &counted,
		   &coverage, &count) != 5 ||
	    e < 0 || e >= EVENTS_MAX || !isfinite(coverage) || !isfinite(count))
		return;
	m->ev[e] = (struct meta_event){ true, group, counted != 0, coverage, count };
	if (e + 1 > m->n_events)
		m->n_events = e + 1;
}

static void parse_line(const char *line, struct session_meta *m)
{
	char key[32];
	int n = 0;

	if (sscanf(line, "%31s %n", key, &n) != 1)
		return;
	const char *v = line + n;
	if (!strcmp(key, "model"))
		sscanf(v, "%63s", m->model);
	else if (!strcmp(key, "tree"))
		sscanf(v, "%15s", m->tree);
	else if (!strcmp(key, "command"))
		snprintf(m->command, sizeof(m->command), "%.*s", (int)strcspn(v, "\n"), v);
	else if (!strcmp(key, "duration"))
		m->duration = strtod(v, NULL);
	else if (!strcmp(key, "exit"))
		m->has_exit = sscanf(v, "%d", &m->exit_status) == 1;
	else if (!strcmp(key, "groups"))
		sscanf(v, "%d slice_ms %d", &m->n_groups, &m->slice_ms);
	else if (!strcmp(key, "reference"))
		sscanf(v, "%159s %lf", m->reference, &m->reference_count);
	else if (!strcmp(key, "event"))
		parse_event(v, m);
	else if (!strcmp(key, "internal_reference"))
		m->internal_reference = atoi(v) == 1;
	else if (!strcmp(key, "system_wide"))
		m->system_wide = atoi(v) == 1;
}

bool session_meta_parse(const char *blob, struct session_meta *m)
{
	memset(m, 0, sizeof(*m));
	m->reference_count = NAN;
	if (!blob || strncmp(blob, META_MAGIC "\n", strlen(META_MAGIC) + 1) != 0)
		return false;
	for (const char *p = blob; *p;) {
		parse_line(p, m);
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!isfinite(m->duration) || m->duration < 0)
		m->duration = 0;
	if (m->n_groups < 0 || m->n_groups > EVENTS_MAX)
		m->n_groups = 0;
	return true;
}

#define PUT(...)                                                                   \
	do {                                                                       \
		int k_ = snprintf(buf + len, bufsz - (size_t)len, __VA_ARGS__);    \
		if (k_ < 0 || (size_t)k_ >= bufsz - (size_t)len)                   \
			return -1;                                                 \
		len += k_;                                                         \
	} while (0)

int session_meta_format(const struct session_meta *m, char *buf, size_t bufsz)
{
	int len = 0;

	if (bufsz == 0)
		return -1;
	PUT("%s\n", META_MAGIC);
	if (m->model[0])
		PUT("model %s\n", m->model);
	if (m->tree[0])
		PUT("tree %s\n", m->tree);
	if (m->command[0])
		PUT("command %.*s\n", (int)strcspn(m->command, "\n"), m->command);
	PUT("duration %.9g\n", m->duration);
	if (m->has_exit)
		PUT("exit %d\n", m->exit_status);
	PUT("groups %d slice_ms %d\n", m->n_groups, m->slice_ms);
	if (m->reference[0] && isfinite(m->reference_count))
		PUT("reference %s %.17g\n", m->reference, m->reference_count);
	if (m->internal_reference)
		PUT("internal_reference 1\n");
	if (m->system_wide)
		PUT("system_wide 1\n");
	for (int e = 0; e < m->n_events && e < EVENTS_MAX; e++)
		if (m->ev[e].present)
			PUT("event %d group %d counted %d coverage %.17g count %.17g\n", e,
			    m->ev[e].group, m->ev[e].counted, m->ev[e].coverage, m->ev[e].count);
	return len;
}

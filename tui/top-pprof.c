/* tui/top-pprof.h: --format pprof for the watch's batch mode. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/pprof.h"
#include "tui/cmd.h"
#include "tui/top-pprof.h"

int top_pprof_check(const struct top_pprof_opts *o)
{
	if (o->output && o->format != OUT_PPROF && o->format != OUT_FLAME) {
		cmd_error("-o %s: only --format pprof and flame write a file", o->output);
		return -1;
	}
	if (o->format != OUT_PPROF)
		return 0;
	if (!o->batch) {
		cmd_error("--format pprof is batch output: add -b");
		return -1;
	}
	if (o->mux_runs) {
		cmd_error("--format pprof with --mux runs: the runs' profiles are not merged");
		return -1;
	}
	if (o->window || o->tid) {
		cmd_error("--format pprof writes the whole watch, every thread (%s)",
			  o->window ? "not --window" : "go tool pprof -tagfocus=tid=N selects one");
		return -1;
	}
	if (!o->output && isatty(STDOUT_FILENO)) {
		cmd_error("--format pprof writes a gzipped profile: give -o FILE or redirect "
			  "stdout");
		return -1;
	}
	return 0;
}

FILE *top_pprof_open(const char *output)
{
	FILE *out = output ? fopen(output, "wb") : stdout;

	if (!out)
		cmd_error("-o %s: %s", output, strerror(errno));
	return out;
}

int top_pprof_close(FILE *out, const char *output)
{
	if (!out || out == stdout)
		return 0;
	bool empty = ftell(out) == 0;
	if (fclose(out) != 0) {
		cmd_error("-o %s: %s", output, strerror(errno));
		return -1;
	}
	if (empty)
		unlink(output);
	return 0;
}

int top_pprof_write(struct session *s, FILE *out, const char *output, const char *in_path)
{
	char host[256] = "", err[512];
	struct snapshot *snap = session_snapshot(s);
	struct stat st;
	int rc = -1;

	if (!snap) {
		cmd_error("out of memory taking a snapshot");
		return -1;
	}
	/* a recorded session's duration ended when its file was last written */
	double end = in_path && stat(in_path, &st) == 0
		     ? (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9
		     : (double)time(NULL);
	gethostname(host, sizeof(host) - 1);
	struct pprof_write_opts po = { .start_ns = (int64_t)((end - snap->time) * 1e9),
				       .host = host[0] ? host : NULL };
	rc = pprof_write(s, snap, &po, out, err, sizeof(err));
	if (rc < 0)
		cmd_error("%s%s%s", output ? output : "", output ? ": " : "", err);
	snapshot_free(snap);
	return rc;
}

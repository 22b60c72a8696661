/* cyctop selftest [--format text|json] [--report FILE] [NAME...]: the
 * checks of engine/selftest.h on this machine, one line each as perf test
 * prints them (or one JSON document), and a report to attach to a bug.
 * "--workload KIND:N" runs the calibrated program the checks watch. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pfm.h"
#include "engine/selftest.h"
#include "engine/sys.h"
#include "tui/cmd.h"
#include "tui/json.h"
#include "tui/opt.h"

static const char *const selftest_formats[] = { "text", "json", NULL };
static const char *const result_word[] = { "pass", "fail", "skip" };
static const char *const result_text[] = { "Ok", "FAILED!", "Skip" };

/* Which checks ARGV names (a name or a number, as perf test takes them);
 * all without names.  -1 after one line naming an unknown one. */
static int pick(int argc, char **argv, int first, bool *run, int n)
{
	for (int i = 0; i < n; i++)
		run[i] = first == argc;
	for (int a = first; a < argc; a++) {
		int k = -1;
		for (int i = 0; i < n; i++)
			if (strcmp(argv[a], selftests[i].name) == 0 || atoi(argv[a]) == i + 1)
				k = i;
		if (k < 0) {
			cmd_error("selftest: no test '%s' (host exact perf groups mux sampling "
				  "method software, or 1-%d)", argv[a], n);
			return -1;
		}
		run[k] = true;
	}
	return 0;
}

static void print_line(FILE *f, int i, const struct st_outcome *o)
{
	fprintf(f, "%2d: %-44s: %s (%s)\n", i + 1, selftests[i].title, result_text[o->result],
		o->reason);
}

/* A whole number under KEY: json_ku64's, for values that may be -1. */
static void json_host_int(struct json *j, const char *key, long long v)
{
	json_key(j, key);
	json_int(j, v);
}

static void json_host(struct json *j, const struct selftest_ctx *c)
{
	const struct st_host *h = &c->host;

	json_key(j, "host");
	json_object_begin(j);
	json_kstr(j, "cyctop", PACKAGE_VERSION);
	json_kstr(j, "kernel", h->kernel);
	json_kstr(j, "libpfm4", h->pfm_version);
	json_kstr(j, "perf", h->perf);
	json_kstr(j, "arch", h->arch);
	json_kstr(j, "vendor", h->vendor);
	json_host_int(j, "family", h->family);
	json_host_int(j, "model", h->model);
	json_kstr(j, "kernel_pmu", h->kernel_pmu);
	json_host_int(j, "core_pmus", h->core_pmus);
	json_kstr(j, "libpfm4_pmu", h->pfm_pmu);
	json_kstr(j, "cyctop_model", h->model_name);
	json_kstr(j, "pmu", h->describe);
	json_host_int(j, "generic_counters", h->counters);
	json_host_int(j, "fixed_counters", h->fixed);
	json_kstr(j, "caps", h->caps);
	json_host_int(j, "nmi_watchdog", h->nmi_watchdog);
	json_host_int(j, "perf_event_paranoid", h->paranoid);
	json_kstr(j, "trees", h->trees);
	json_kstr(j, "presets", h->presets);
	json_kstr(j, "fault", c->fault ? c->fault : "");
	json_end(j);
}

static void print_json(FILE *f, const struct selftest_ctx *c, const bool *run,
		       const struct st_outcome *res, int n)
{
	struct json j;

	json_init(&j, f);
	json_object_begin(&j);
	json_host(&j, c);
	json_key(&j, "tests");
	json_lines_begin(&j);
	for (int i = 0; i < n; i++) {
		if (!run[i])
			continue;
		json_object_begin(&j);
		json_kstr(&j, "name", selftests[i].name);
		json_kstr(&j, "result", result_word[res[i].result]);
		json_kstr(&j, "reason", res[i].reason);
		json_kstr(&j, "measured", res[i].measured);
		json_kstr(&j, "expected", res[i].expected);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
	fputc('\n', f);
}

/* The report: versions, the host's facts, every line. */
static int write_report(const char *path, const struct selftest_ctx *c, const bool *run,
			const struct st_outcome *res, int n)
{
	const struct st_host *h = &c->host;
	FILE *f = fopen(path, "w");

	if (!f)
		goto fail;
	fprintf(f, "cyctop selftest report\ncyctop %s, kernel %s, libpfm4 %s, %s\n",
		PACKAGE_VERSION, h->kernel, h->pfm_version, h->perf[0] ? h->perf : "no perf");
	fprintf(f, "cpu: %s %s, family %d, model %d (0x%x)\n", h->arch, h->vendor, h->family,
		h->model, h->model);
	fprintf(f, "pmu: kernel %s (%d core PMU%s), libpfm4 %s, cyctop model %s: %s\n",
		h->kernel_pmu[0] ? h->kernel_pmu : "none", h->core_pmus,
		h->core_pmus == 1 ? "" : "s", h->pfm_pmu[0] ? h->pfm_pmu : "none", h->model_name,
		h->describe);
	fprintf(f, "counters: %d generic, %d fixed; caps: %s\n", h->counters, h->fixed,
		h->caps[0] ? h->caps : "none");
	fprintf(f, "nmi_watchdog %d, perf_event_paranoid %d\ntrees: %s\npresets: %s\n",
		h->nmi_watchdog, h->paranoid, h->trees[0] ? h->trees : "none",
		h->presets[0] ? h->presets : "none");
	if (c->fault)
		fprintf(f, "fault: %s (CYCTOP_SELFTEST_FAULT)\n", c->fault);
	for (int i = 0; i < n; i++)
		if (run[i]) {
			print_line(f, i, &res[i]);
			fprintf(f, "    measured: %s\n    expected: %s\n", res[i].measured,
				res[i].expected);
		}
	if (fclose(f) == 0)
		return 0;
fail:
	cmd_error("selftest: cannot write the report '%s'", path);
	return -1;
}

/* Runs the tests RUN says, each line as it ends (text) or one document at
 * the end (FORMAT 1: json), and the report when asked.  The exit status. */
static int run_tests(struct selftest_ctx *c, const bool *run, struct st_outcome *res, int n,
		     int format, const char *report)
{
	int failed = 0;

	for (int i = 0; i < n; i++) {
		if (!run[i])
			continue;
		selftests[i].run(c, &res[i]);
		failed += res[i].result == ST_FAIL;
		if (format == 0) {
			print_line(stdout, i, &res[i]);
			fflush(stdout);
		}
	}
	if (format == 1)
		print_json(stdout, c, run, res, n);
	if (report && write_report(report, c, run, res, n) < 0)
		failed++;
	return failed ? 1 : 0;
}

static int cmd_selftest_exec(int argc, char **argv)
{
	int format = 0;
	const char *report = NULL, *workload = NULL;
	const struct opt opts[] = {
		OPT_FORMAT(&format, selftest_formats, "text (a line a test, as perf test) or json"),
		OPT_STRING(0, "report", &report, "FILE", "also write the report (versions, host, "
			   "every test) to FILE"),
		OPT_STRING(0, "workload", &workload, "KIND:N", "run the calibrated program the tests "
			   "watch\n(loop:N, split:N, faults:N, switches:N, env)"),
		OPT_END,
	};
	const struct opt_cmd cmd = {
		"usage: cyctop selftest [--format text|json] [--report FILE] [NAME...]", opts,
		"Checks cyctop's live path on this machine, against the kernel and perf:\n"
		"host exact perf groups mux sampling method software (names or numbers).\n"
		"Each test passes, fails or is skipped with a reason; the exit status is 1\n"
		"when one failed.  See cyctop-selftest(1).\n", false };
	char err[512], self[4096];
	bool run[16];
	int n = 0, rc = EXIT_USAGE;

	int first = opt_parse(&cmd, argc, argv, 1);
	if (first < 0)
		return EXIT_USAGE;
	if (workload)
		return selftest_workload(workload);
	while (selftests[n].name)
		n++;
	if (pick(argc, argv, first, run, n) < 0)
		return EXIT_USAGE;
	struct st_outcome *res = calloc((size_t)n, sizeof(*res));
	struct selftest_ctx *c = calloc(1, sizeof(*c));
	ssize_t len = sys_readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (!res || !c || len <= 0) {
		cmd_error("selftest: %s", !res || !c ? "out of memory"
			  : "cannot find cyctop's own path (/proc/self/exe)");
		rc = 1;
		goto out;
	}
	self[len] = '\0';
	if (selftest_init(c, self, err, sizeof(err)) < 0) {
		cmd_error("selftest: %s", err);
		goto out;
	}
	rc = run_tests(c, run, res, n, format, report);
out:
	free(res);
	if (c)
		pfm_host_free(c->pfm);
	free(c);
	return rc;
}

const struct cmd_entry cmd_selftest_entry = {
	"selftest",
	"selftest [--format text|json] [--report FILE] [NAME...]   check the live path here",
	cmd_selftest_exec,
};

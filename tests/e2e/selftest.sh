#!/bin/sh
# cyctop selftest on this host: every test gives pass, fail or skip with a
# reason; on a host without a PMU (ours) the hardware tests skip saying so
# and host, perf and mux (on software events), sampling (cpu-clock) and
# software pass, exit 0; the JSON is
# cyctop-formats(5)'s, read by python3; --report names the versions; an
# unknown test or fault is one line and exit 2.  (Each check failing under
# its fault: selftest-faults.sh; the hardware tests pass in the arm64
# guest, tests/arm64/run.sh.)
. "$SRCDIR/tests/e2e/lib.sh"

command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }

run "$CYCTOP" selftest --format json --report "$TMP/report"
[ "$RC" -eq 0 ] || fail "cyctop selftest: exit $RC: $(cat "$TMP/out" "$TMP/err")"
ok
[ ! -s "$TMP/err" ] || fail "selftest wrote to stderr: $(cat "$TMP/err")"
ok
if host_has_pmu; then HW=1; else HW=0; fi
python3 - "$TMP/out" "$HW" <<'PY' || fail "selftest's JSON: $(cat "$TMP/out")"
import json, sys
doc = json.load(open(sys.argv[1]))
hw = sys.argv[2] == "1"
host, tests = doc["host"], doc["tests"]
for k in ("cyctop", "kernel", "libpfm4", "perf", "kernel_pmu", "cyctop_model",
          "perf_event_paranoid", "nmi_watchdog", "trees", "presets"):
    assert k in host, "host has no " + k
names = [t["name"] for t in tests]
assert names == ["host", "exact", "perf", "groups", "mux", "sampling", "method",
                 "software"], names
for t in tests:
    assert set(t) == {"name", "result", "reason", "measured", "expected"}, t
    assert t["result"] in ("pass", "fail", "skip"), t
    assert t["reason"] and "\n" not in t["reason"], t
    assert t["result"] != "fail", t
by = {t["name"]: t for t in tests}
for n in ("host", "sampling", "software"):
    assert by[n]["result"] == "pass", by[n]
if not hw:
    assert host["kernel_pmu"] == "" and host["cyctop_model"] == "perf", host
    for n in ("exact", "groups", "method"):
        assert by[n]["result"] == "skip", by[n]
        assert by[n]["reason"].startswith("no hardware PMU"), by[n]
    # tests 3 and 5 on software events: perf stat's counts, cyctop's slices
    if host["perf"]:
        assert by["perf"]["result"] == "pass", by["perf"]
        m = by["perf"]["measured"]
        for ev in ("page-faults cyctop ", "context-switches cyctop ", "task-clock cyctop "):
            assert ev in m, m
    else:
        assert by["perf"]["result"] == "skip", by["perf"]
    assert by["mux"]["result"] == "pass", by["mux"]
    m = by["mux"]["measured"]
    assert m.startswith("task-clock ") and ", 2 groups)" in m, m
# test 6's second half: leader sampling, a value of each member a sample
m = by["sampling"]["measured"]
if not hw:
    assert "samples of {cpu-clock " in m and ", task-clock " in m, m
    assert ", page-faults " in m and "}:S" in m, m
# the software test's figures: 2000 page faults, 500 switches
m = by["software"]["measured"]
assert "page-faults" in m and "context-switches" in m, m
PY
ok

# the report: versions of cyctop, the kernel and libpfm4, every test
grep -q "^cyctop $("$CYCTOP" --version | awk '{print $NF}'), kernel $(uname -r), libpfm4 [0-9]" \
	"$TMP/report" || fail "report's versions: $(head -3 "$TMP/report")"
ok
[ "$(grep -c '^ [1-8]: ' "$TMP/report")" -eq 8 ] || fail "report's tests: $(cat "$TMP/report")"
ok

# text, as perf test prints it; names and numbers choose the tests
run "$CYCTOP" selftest host 8
expect_rc 0 "selftest host 8"
grep -q '^ 1: host: .*: Ok (' "$TMP/out" || fail "host line: $(cat "$TMP/out")"
ok
grep -q '^ 8: software events.*: Ok (' "$TMP/out" || fail "software line: $(cat "$TMP/out")"
ok
[ "$(wc -l <"$TMP/out")" -eq 2 ] || fail "two tests asked, lines: $(cat "$TMP/out")"
ok
if [ "$HW" = 0 ]; then
	run "$CYCTOP" selftest exact
	expect_rc 0 "a skipped test"
	grep -q '^ 2: exact.*: Skip (no hardware PMU: the kernel has no core PMU' "$TMP/out" ||
		fail "skip's reason: $(cat "$TMP/out")"
	ok
fi

# bad input: one line, exit 2
run "$CYCTOP" selftest nosuch
expect_rc 2 "an unknown test"
expect_err "no test 'nosuch'" "unknown test named"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "more than one line: $(cat "$TMP/err")"
ok
CYCTOP_SELFTEST_FAULT=nosuch run "$CYCTOP" selftest host
expect_rc 2 "an unknown fault"
expect_err "CYCTOP_SELFTEST_FAULT=nosuch: not a fault" "unknown fault named"
run "$CYCTOP" selftest --workload loop:x
expect_rc 2 "a bad workload"
expect_err "--workload 'loop:x'" "bad workload named"
run "$CYCTOP" selftest --report /nonexistent/dir/r host
expect_rc 1 "an unwritable report"
expect_err "cannot write the report '/nonexistent/dir/r'" "report's path named"
done_ok

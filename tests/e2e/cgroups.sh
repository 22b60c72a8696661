#!/bin/sh
# Batch JSON's "cgroups" rows (-a): a workload in a cgroup v2 this
# test makes has a row that is exactly its process's samples, and a process
# moved to another cgroup during the watch is counted in the new one (each
# sample's cgroup id, PERF_SAMPLE_CGROUP, not only /proc at first sight).
. "$SRCDIR/tests/e2e/lib.sh"

cgroup_v2_root
CGA="$V2/cyctop-test-a.$$"
CGB="$V2/cyctop-test-b.$$"
make_cgroups "$CGA" "$CGB"
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rmdir "$CGA" "$CGB" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

# a busy process started inside cgroup A
in_cgroup "$CGA" "$WORKLOADS/mix" 60
W=$!; PIDS="$PIDS $W"
wait_for "grep -qx '0::/cyctop-test-a.$$' /proc/$W/cgroup 2>/dev/null" 10 "the workload in cgroup A"

# --- -a: its cgroup's row is exactly its samples --------------------------
run "$CYCTOP" -a -b -n 1 -d 2 -e "$TEST_EVENT" --format json
expect_rc 0 "cyctop -a -b --format json"
check_row() { # FILE CGROUP-NAME PID
	python3 - "$@" <<'PY'
import json, os, sys
ev = os.environ["CYCTOP_TEST_EVENT"]
o = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
name, pid = sys.argv[2], int(sys.argv[3])
rows = [c for c in o.get("cgroups", []) if c["name"] == name]
procs = [p for p in o["processes"] if p["pid"] == pid]
if len(rows) != 1 or len(procs) != 1:
    sys.exit("rows %s, process %s" % (rows, procs))
row, proc = rows[0], procs[0]
if proc["cgroup"] != name:
    sys.exit("process's cgroup %r, want %r" % (proc["cgroup"], name))
want = sum(p["samples"].get(ev, 0) for p in o["processes"] if p["cgroup"] == name)
got, total = row["samples"][ev], [e for e in o["events"] if e["name"] == ev][0]["samples"]
if got != want or got < 20:
    sys.exit("row %d samples, its processes %d" % (got, want))
if abs(row["percent"][ev] - 100.0 * got / total) > 0.01:
    sys.exit("percent %s of %d/%d" % (row["percent"][ev], got, total))
PY
}
check_row "$TMP/out" "/cyctop-test-a.$$" "$W" || fail "cgroup A's row ($(cat "$TMP/out" | head -c 600))"
ok

# --- moved during the watch: the samples after the move name cgroup B ------
"$CYCTOP" -a -b -n 3 -d 1 -e "$TEST_EVENT" --format json >"$TMP/moved" 2>"$TMP/err" &
C=$!; PIDS="$PIDS $C"
wait_for "[ -s '$TMP/moved' ]" 20 "the first interval"
echo "$W" >"$CGB/cgroup.procs" || fail "moving the workload to cgroup B"
wait "$C" || fail "cyctop -a after the move: $(cat "$TMP/err")"
check_row "$TMP/moved" "/cyctop-test-b.$$" "$W" || fail "cgroup B's row after the move"
ok

done_ok

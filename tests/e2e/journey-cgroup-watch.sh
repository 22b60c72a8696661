#!/bin/sh
# A user watching one container: cyctop --cgroup PATH, as perf -G (one fd
# per CPU, PERF_FLAG_PID_CGROUP).  workloads/mix runs in a cgroup v2 this
# test makes, workloads/spin outside it.  Under tmux: the header names the
# cgroup, the processes view has mix and not spin, Enter and f show the
# cgroup's functions (mix's work_60, no spin_hot), q leaves with status 0
# and nothing on stdout.  Then -b --format json -n 1: only mix's process,
# cgroup and functions.  A cgroup that does not exist is one line naming
# it, and a non-zero status.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

cgroup_v2_root
NAME="cyctop-watch.$$"
CG="$V2/$NAME"
make_cgroups "$CG"
in_cgroup "$CG" "$WORKLOADS/mix" 90
W=$!
"$WORKLOADS/spin" 0 >/dev/null 2>&1 &
S=$!
ON_EXIT="kill $W $S 2>/dev/null; wait $W $S 2>/dev/null; rmdir '$CG' 2>/dev/null"
wait_for "grep -qx '0::/$NAME' /proc/$W/cgroup 2>/dev/null" 10 "the workload in its cgroup"
grep -qx "0::/$NAME" "/proc/$S/cgroup" && fail "the spinner is in the test's cgroup"
# spin's CPU time in clock ticks: it must run beside the watch, else its
# absence below would prove nothing
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
S0=$(ticks "$S")

# --- a cgroup that is not there: one line, non-zero -------------------------
run "$CYCTOP" --cgroup "$NAME.none" -b -n 1
[ "$RC" -ne 0 ] || fail "--cgroup of no cgroup: exit 0"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "cgroup $V2/$NAME.none: no such cgroup" "$TMP/err" ||
	fail "--cgroup of no cgroup: $(cat "$TMP/err")"
ok

# --- the view -------------------------------------------------------------
start 120 40
type_line "'$CYCTOP' --cgroup '$NAME' -e cpu-clock -d 0.5 >'$TMP/table' 2>'$TMP/err'; echo EXIT-\$?"
wait_screen "cgroup /$NAME  processes" "the header names the cgroup; the processes first"
wait_for "screen | grep -qE '^ +[0-9.]+% +$W +[^ ]+ +mix'" 20 "mix's row"
ok
# a few refreshes more: the spinner had its chances to show
wait_for "[ \$(( \$(ticks $S) - S0 )) -ge 100 ]" 30 "the spinner running a second"
ok
screen | grep -qE "^ +[0-9.]+% +$S " && { screen_dump >&2; fail "the spinner's row shows"; }
[ "$(screen | grep -cE '^ +[0-9.]+% +[0-9]+ ')" -eq 1 ] ||
	{ screen_dump >&2; fail "a row besides mix's"; }
ok
T send-keys -t main Enter
wait_screen "process $W (mix)" "Enter: mix's functions"
T send-keys -t main f
wait_for '! screen | head -n 1 | grep -q "process $W"' 10 "f: the cgroup's functions"
wait_for 'screen | grep -q "\[\.\] work_60 "' 20 "mix's work_60"
ok
screen | grep -q "spin_" && { screen_dump >&2; fail "the spinner's functions show"; }
ok
T send-keys -t main Escape
wait_screen "cgroup /$NAME  processes" "Esc: the processes again"
T send-keys -t main q
wait_screen "EXIT-0" "q: status 0"
[ -s "$TMP/table" ] && fail "the view wrote on stdout: $(head -5 "$TMP/table")"
ok

# --- batch JSON -------------------------------------------------------------
S0=$(ticks "$S")
run "$CYCTOP" -b --format json --cgroup "$V2/$NAME" -n 1 -d 2 -e "$TEST_EVENT"
expect_rc 0 "cyctop -b --format json --cgroup"
# 10 ticks: 0.1 s of CPU, 400 cpu-clock samples had it been watched (the
# machine is shared: its share of the 2 s can be small)
[ $(( $(ticks "$S") - S0 )) -ge 10 ] || fail "the spinner did not run beside the batch watch"
python3 - "$TMP/out" "/$NAME" "$W" <<'PY' || fail "batch JSON of the cgroup: $(head -c 800 "$TMP/out")"
import json, os, sys
ev = os.environ["CYCTOP_TEST_EVENT"]
o = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
name, pid = sys.argv[2], int(sys.argv[3])
bad = []
if o["target"]["command"] != "cgroup " + name:
    bad.append("target %r" % o["target"])
procs = [(p["pid"], p["comm"], p["cgroup"]) for p in o["processes"]]
if procs != [(pid, "mix", name)]:
    bad.append("processes %s" % procs)
if [c["name"] for c in o["cgroups"]] != [name]:
    bad.append("cgroups %s" % o["cgroups"])
funcs = [f["name"] for f in o["functions"]]
if "work_60" not in funcs[:3]:
    bad.append("work_60 not among the first functions: %s" % funcs[:5])
if any(f.startswith("spin_") for f in funcs):
    bad.append("the spinner's functions: %s" % [f for f in funcs if f.startswith("spin_")])
if o["events"][0]["samples"] < 100:
    bad.append("%d samples" % o["events"][0]["samples"])
print("\n".join(bad), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
ok
done_ok

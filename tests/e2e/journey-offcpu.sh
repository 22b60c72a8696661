#!/bin/sh
# Journey: on- and off-CPU time per thread and per process (issue 40).
# Under tmux, on the real binary, workloads/offcpu's mutex mode for 3 s:
# one thread spins holding the mutex 8 ms at a time, the other waits for
# it.  Once the program has ended, H lists the threads with two columns,
# on-cpu and off-cpu: each thread's two add up to its watched time (the
# program's 3 s of wall time, within what its start and end take), the
# waiter is off the CPU most of it (its waits and naps; under load its
# runnable time is off-CPU too) and the holder on it longer than the
# waiter.  Then -a with the sleep mode running: its process row has both
# columns, each a share of the watch.  Between them -A wall's tree: the
# host's tree (here the software tree) under wall.on_cpu, its CPU seconds
# those of on_cpu.  q: status 0, nothing on stdout.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

OFFCPU="$WORKLOADS/offcpu"
[ -x "$OFFCPU" ] || { echo "SKIP: no $OFFCPU"; exit 77; }
if [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
	echo "SKIP: switch-out stacks and -a need perf_event_paranoid <= 0 or root"
	exit 77
fi

start 160 40
type_line "cd '$TMP' && '$CYCTOP' -e cpu-clock,off-cpu -m 1024 -d 0.5 -- '$OFFCPU' mutex 3 >'$TMP/stdout'; echo OFF-\$?"
wait_screen "exited" "the program ends, the view stays"
T send-keys -t main H
wait_screen "on-cpu    off-cpu" "H: the threads with on-cpu and off-cpu columns"
# the offcpu threads' rows: PCT% ON s OFF s TID COMM
wait_for '[ $(screen | grep -cE "^ +[0-9.]+% +[0-9.]+s +[0-9.]+s +[0-9]+ +offcpu") -eq 2 ]' 10 \
	"two offcpu threads, each with its seconds on and off the CPU"
ok
screen | grep -E "^ +[0-9.]+% +[0-9.]+s +[0-9.]+s +[0-9]+ +offcpu" | tr -d s >"$TMP/threads"
cat "$TMP/threads"
python3 - "$TMP/threads" <<'PY' || { screen_dump >&2; fail "the threads' wall time"; }
import sys
rows = [l.split() for l in open(sys.argv[1])]
t = sorted((float(r[2]) / (float(r[1]) + float(r[2])), float(r[1]), float(r[2])) for r in rows)
holder, waiter = t[0], t[1]
for share, on, off in t:
    assert 2.6 <= on + off <= 3.8, "on + off %.3f s, not the program's 3 s" % (on + off)
assert waiter[0] > 0.8, "the waiter off the CPU only %.0f%% of its time" % (100 * waiter[0])
assert holder[1] > waiter[1], "the holder on the CPU %.3f s, the waiter %.3f s" % (holder[1], waiter[1])
PY
ok
T send-keys -t main q
wait_screen "OFF-0" "q: status 0"
[ -s "$TMP/stdout" ] && fail "the view wrote $(wc -l <"$TMP/stdout") lines on stdout"
ok

# -A wall: t opens the wall tree, the software tree (no PMU here) under
# on_cpu; its CPU seconds (task-clock) agree with on_cpu (the switch
# intervals) within 10%: two counts of the same time
type_line "'$CYCTOP' -A wall -e cpu-clock,off-cpu -d 0.5 -- '$OFFCPU' sleep 3 >'$TMP/stdout' 2>/dev/null; echo WALL-\$?"
wait_screen "exited" "the program ends, the view stays"
T send-keys -t main t
wait_screen "wall.on_cpu.cpu_seconds" "t: the host's tree under wall.on_cpu"
screen | python3 -c '
import re, sys
v = {}
for l in sys.stdin:
    m = re.match(r"^[ +-]*(wall[.\w]*) +([0-9.]+) s", l)
    if m:
        v[m.group(1)] = float(m.group(2))
on, cpu = v["wall.on_cpu"], v["wall.on_cpu.cpu_seconds"]
print("wall.on_cpu %.4f s, its cpu_seconds %.4f s" % (on, cpu))
assert abs(cpu - on) <= 0.1 * on, "they differ by more than 10%"
' || { screen_dump >&2; fail "the software tree under on_cpu"; }
ok
T send-keys -t main q
wait_screen "WALL-0" "q: status 0"

# -a: the processes view, the sleep mode's process row
(cd "$TMP" && exec "$OFFCPU" sleep 60) 2>/dev/null &
A=$!
ON_EXIT="kill $A 2>/dev/null"
type_line "'$CYCTOP' -a -e cpu-clock,off-cpu -m 1024 -d 0.5 >'$TMP/stdout'; echo SYS-\$?"
wait_screen "all CPUs  processes" "the processes view first"
wait_screen "on-cpu    off-cpu" "-a: the processes with on-cpu and off-cpu columns"
row() { screen | grep -E "^ .* +[0-9.]+s +[0-9.]+s +$A +[^ ]+ +offcpu"; }
wait_for 'row | grep -q .' 30 "the offcpu process's row with its seconds"
ok
T send-keys -t main ' '   # pause: one snapshot to read
sleep 0.5
row | sed 's/s / /g' | python3 -c '
import sys
f = sys.stdin.read().split()
i = f.index(sys.argv[1])
on, off = float(f[i - 2]), float(f[i - 1])
print("offcpu sleep: on %.3f s, off %.3f s" % (on, off))
assert on > 0 and off > 0, "a zero column"
# spin 5 ms, sleep 5 ms: off the CPU at least the sleeps (runnable adds)
assert 0.35 <= off / (on + off) <= 0.99, "off the CPU %.0f%%" % (100 * off / (on + off))
' "$A" || { screen_dump >&2; fail "the process's wall time"; }
ok
T send-keys -t main q
wait_screen "SYS-0" "q: status 0"
[ -s "$TMP/stdout" ] && fail "the view wrote $(wc -l <"$TMP/stdout") lines on stdout"
ok
done_ok

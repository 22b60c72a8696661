#!/bin/sh
# off-cpu with -g (dwarf stacks): every switch is a sample, so its copy of
# the user stack is 2 KB, not the 8 KB of the other events' samples (a
# pipe ping-pong's 8 KB copies lost most records on a loaded VM); a size
# given (--call-graph dwarf,SIZE) is every event's.  The 2 KB still
# unwind workloads/offcpu's waits whole: the stack of each read wait runs
# from _start through run_pipe and pipe_wait.
. "$SRCDIR/tests/e2e/lib.sh"

offcpu_or_skip

# stack_users FILE: each event's "NAME SIZE", as perf reads the attrs
stack_users() {
	perf evlist -v -i "$1" 2>/dev/null |
		sed -n 's/^\([a-z-]*\):.*sample_stack_user: \([0-9]*\).*/\1 \2/p' | tr '\n' ' '
}

(cd "$TMP" && "$CYCTOP" record -g -e off-cpu,cpu-clock -o "$TMP/d.data" -- "$OFFCPU" pipe 1) \
	>/dev/null 2>"$TMP/rec.err" || fail "cyctop record -g: $(cat "$TMP/rec.err")"
got=$(stack_users "$TMP/d.data")
echo "-g: $got"
[ "$got" = "off-cpu 2048 cpu-clock 8192 " ] || fail "-g: stack copies $got"
ok

# every wait in read unwound whole from the 2 KB (folded: off-cpu first)
"$CYCTOP" -i "$TMP/d.data" -b --format folded >"$TMP/folded" 2>"$TMP/f.err" ||
	fail "folded: $(cat "$TMP/f.err")"
grep ';read [0-9]*$' "$TMP/folded" >"$TMP/reads" || fail "no wait in read: $(cat "$TMP/folded")"
cat "$TMP/reads"
awk '{ n = $NF; t += n; if ($1 ~ /^_start;.*;main;run_pipe;pipe_wait;read$/) w += n }
     END { printf "read waits: %d us, %d us with the whole stack\n", t, w; exit !(t > 0 && w >= 0.9 * t) }' \
	"$TMP/reads" || fail "read's waits not unwound whole"
ok

(cd "$TMP" && "$CYCTOP" record --call-graph dwarf,4096 -e off-cpu,cpu-clock -o "$TMP/s.data" \
	-- "$OFFCPU" pipe 0.3) >/dev/null 2>"$TMP/rec.err" || fail "cyctop record: $(cat "$TMP/rec.err")"
got=$(stack_users "$TMP/s.data")
echo "--call-graph dwarf,4096: $got"
[ "$got" = "off-cpu 4096 cpu-clock 4096 " ] || fail "dwarf,4096: stack copies $got"
ok
done_ok

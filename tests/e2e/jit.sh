#!/bin/sh
# Code no file backs (a JIT's output: workloads/jit) named as perf names
# it: the module "[JIT] tid PID", its functions read from /tmp/perf-PID.map
# when the process wrote one, [unknown] when it did not; live (also a
# function written to the map after the watch started), and in a recording
# beside perf report on the same file.  Dwarf stacks through the JIT code
# (no CFI) reach its caller through the frame pointer, live and recorded.
. "$SRCDIR/tests/e2e/lib.sh"

JIT="$WORKLOADS/jit"
# the jit workload prints its pid; the maps it leaves go at the end
trap 'for p in $(cat "$TMP/pids" 2>/dev/null); do rm -f "/tmp/perf-$p.map"; done; rm -rf "$TMP"' EXIT
forget_map() { # PID
	echo "$1" >>"$TMP/pids"
}

# live: the function from the map, the module by the target's pid
run "$CYCTOP" -b -e cpu-clock --format json -- "$JIT" 0.3
expect_rc 0 "cyctop -- jit"
pid=$(json_last "$TMP/out" "o['target']['pid']")  # its stdout is on stderr now
forget_map "$pid"
top='o["functions"][0]'
expect_true "$(json_last "$TMP/out" "($top['name'], $top['module']) == ('jit_spin', '[JIT] tid %d' % o['target']['pid']) and $top['percent']['cpu-clock'] > 50")" \
	"live: jit_spin in [JIT] tid $pid: $(tail -1 "$TMP/out" | head -c 600)"

# live, a function compiled after the watch started ("late": jit_late,
# appended to the map halfway through the CPU time): the map is read again
# at the next refresh (every 0.1 s here), so jit_late is named for all but
# at most a refresh's worth of its samples (half of them: 50% expected;
# without the re-read it stays [unknown])
run "$CYCTOP" -b -e cpu-clock -d 0.1 --format json -- "$JIT" 1 late
expect_rc 0 "cyctop -- jit 1 late"
pid=$(json_last "$TMP/out" "o['target']['pid']")  # its stdout is on stderr now
forget_map "$pid"
jit_pct() { # NAME: its share in [JIT] tid PID, in the last table
	json_last "$TMP/out" "sum(f['percent']['cpu-clock'] for f in o['functions'] if f['name'] == '$1' and f['module'] == '[JIT] tid $pid')"
}
late=$(jit_pct jit_late) spin=$(jit_pct jit_spin) unknown=$(jit_pct '[unknown]')
awk -v l="$late" -v s="$spin" -v u="$unknown" 'BEGIN { exit !(l > 25 && s > 35 && l + s + u > 90) }' ||
	fail "live, late: jit_late $late %, jit_spin $spin %, [unknown] $unknown %"
ok

# live dwarf stacks: the JIT code has no CFI; its caller (main) is found
# through its frame pointer (without that fallback: no caller, truncated)
run "$CYCTOP" -b -g -e cpu-clock --format json -- "$JIT" 0.5
expect_rc 0 "cyctop -g -- jit"
forget_map "$(json_last "$TMP/out" "o['target']['pid']")"
expect_true "$(json_last "$TMP/out" "[c['name'] for f in o['functions'] if f['name'] == 'jit_spin' for c in f['callers'] if c['percent'] > 90] == ['main'] and o['stacks']['truncated'] < 0.1 * o['stacks']['samples']")" \
	"live -g: jit_spin not called by main: $(tail -1 "$TMP/out" | head -c 800)"

if ! command -v perf >/dev/null 2>&1; then
	skip_part "perf is not installed: the recording part"
	done_ok
fi

perf record -q -e cpu-clock -o "$TMP/jit.data" -- "$JIT" 0.3 >"$TMP/pid" 2>"$TMP/rec.err" ||
	fail "perf record: $(cat "$TMP/rec.err")"
pid=$(cat "$TMP/pid")
forget_map "$pid"

# share_of FUNCTION: perf report's share of [JIT] tid PID's FUNCTION
perf_share() {
	perf report -i "$TMP/jit.data" --stdio --no-children --sort dso,sym 2>/dev/null |
		awk -v d="[JIT] tid $pid" -v s="$1" 'index($0, d) && $NF == s { sub("%", "", $1); print $1; f = 1 }
			END { if (!f) print 0 }'
}
cyctop_share() { # FUNCTION
	run "$CYCTOP" -b -n 1 --format json -i "$TMP/jit.data"
	expect_rc 0 "cyctop -i jit.data"
	json_last "$TMP/out" "sum(f['percent']['cpu-clock'] for f in o['functions'] if f['name'] == '$1' and f['module'] == '[JIT] tid $pid')"
}
near() { # A B POINTS
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; exit !(d <= p && -d <= p) }'
}

# with the map: the same function, the same share as perf's
want=$(perf_share jit_spin)
got=$(cyctop_share jit_spin)
awk -v w="$want" 'BEGIN { exit !(w > 50) }' || fail "perf report gives jit_spin $want %"
near "$got" "$want" 0.02 || fail "jit_spin: cyctop $got %, perf $want %"
ok

# without it: perf shows the addresses, cyctop [unknown], both in [JIT] tid PID
rm -f "/tmp/perf-$pid.map"
got=$(cyctop_share '[unknown]')
near "$got" "$want" 0.02 || fail "without the map: [unknown] $got %, perf's JIT share $want %"
[ "$(perf_share jit_spin)" = 0 ] || fail "perf still names jit_spin"
ok
# a dwarf recording by perf: the same samples of jit_spin as perf's, and
# its caller main found through the frame pointer (perf 6.1's unwinder
# stops at the JIT code here: the caller is checked against the program)
perf record -q -e cpu-clock -c 250000 --call-graph dwarf -o "$TMP/jitg.data" -- "$JIT" 0.5 \
	>"$TMP/pid" 2>"$TMP/rec.err" || fail "perf record -g: $(cat "$TMP/rec.err")"
forget_map "$(cat "$TMP/pid")"
want=$(perf report -i "$TMP/jitg.data" --stdio --no-children --sort sym -q -g none 2>/dev/null |
	awk '$1 ~ /%$/ && $NF == "jit_spin" { sub("%", "", $1); print $1; exit }')
run "$CYCTOP" -b -n 1 --format json -i "$TMP/jitg.data"
expect_rc 0 "cyctop -i jitg.data"
expect_true "$(json_last "$TMP/out" "[(abs(f['percent']['cpu-clock'] - $want) < 0.011, [c['name'] for c in f['callers'] if c['percent'] > 90]) for f in o['functions'] if f['name'] == 'jit_spin'] == [(True, ['main'])]")" \
	"recorded -g: jit_spin ($want % in perf) not called by main: $(head -c 800 "$TMP/out")"
done_ok

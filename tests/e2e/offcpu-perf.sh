#!/bin/sh
# perf record --off-cpu's files (tools/perf/util/bpf_off_cpu.c): its
# offcpu-time samples, each a thread's nanoseconds off the CPU summed per
# user stack, read as cyctop's own off-cpu event: the column's shares by
# function and by thread those perf report gives the same file, and the
# wall time's off-CPU part by reason (the C library function each stack
# blocked in).  perf 6.1 has no BPF skeleton to record one: the file is
# the layout perf writes (tests/e2e/mk-perfdata.py offcpu, and offcpu-raw
# for newer perf's waits written as they end).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
LIBC=$(ldd "$WORKLOADS/mix" | awk '$1 ~ /^libc\.so/ { print $3 }')
[ -r "$LIBC" ] || { echo "SKIP: no C library found for $WORKLOADS/mix"; exit 77; }
python3 "$SRCDIR/tests/e2e/mk-perfdata.py" offcpu "$TMP/o.data" "$WORKLOADS/mix" "$LIBC" ||
	fail "mk-perfdata.py offcpu"

# perf report's shares of offcpu-time by KEY (symbol, pid: the thread; its name in
# column FIELD): "NAME PCT"
# lines, a symbol's version (read@@GLIBC_2.2.5, perf's dynamic symbol
# names) cut
perf_shares() { # KEY FIELD
	perf report -i "$TMP/o.data" --stdio --no-children --sort "$1" -g none 2>/dev/null |
		awk '/^# Samples: .* of event / { on = /'"'"'offcpu-time'"'"'/ }
		     on && $1 ~ /%$/ { sub("%", "", $1); n = $'"$2"'; sub("@.*", "", n); print n, $1 }'
}
perf_shares symbol 3 >"$TMP/perf-syms"
perf_shares pid 2 >"$TMP/perf-tids"
echo "perf report, offcpu-time:"; cat "$TMP/perf-syms" "$TMP/perf-tids"
[ "$(wc -l <"$TMP/perf-syms")" -eq 4 ] || fail "perf report read no 4 functions"
ok

"$CYCTOP" -i "$TMP/o.data" -b --format json >"$TMP/o.json" 2>"$TMP/o.err" ||
	fail "cyctop -i: $(cat "$TMP/o.err")"
[ "$(json_last "$TMP/o.json" "[e['name'] for e in o['events']]")" = "['cpu-clock', 'off-cpu']" ] ||
	fail "events: $(json_last "$TMP/o.json" "[e['name'] for e in o['events']]")"
ok
while read -r sym pct; do
	got=$(json_last "$TMP/o.json" "round(pct('$sym', 'off-cpu'), 2)")
	echo "$sym: cyctop $got%, perf report $pct%"
	awk -v a="$got" -v b="$pct" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
		fail "$sym: cyctop $got%, perf report $pct%"
	ok
done <"$TMP/perf-syms"
# perf's tid column: "300:alpha"
while read -r tid pct; do
	tid=${tid%%:*}
	got=$(json_last "$TMP/o.json" "round([t for t in o['threads'] if t['tid'] == $tid][0]['percent']['off-cpu'], 2)")
	echo "thread $tid: cyctop $got%, perf report $pct%"
	awk -v a="$got" -v b="$pct" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
		fail "thread $tid: cyctop $got%, perf report $pct%"
	ok
done <"$TMP/perf-tids"

# the wall time: perf's event count, split by the C library's function
total=$(perf report -i "$TMP/o.data" --stdio --no-children -g none 2>/dev/null |
	awk '/of event .offcpu-time./ { on = 1 } on && /^# Event count/ { print $NF; exit }')
expect_true "$(json_last "$TMP/o.json" "o['wall']['off_cpu_ns'] == $total and o['wall']['off_cpu'] == {'runnable': 0, 'sleep': 30000000, 'lock': 6000000, 'io': 0, 'wait': 12000000, 'other': 2000000}")" \
	"wall: $(json_last "$TMP/o.json" "o['wall']"), perf's count $total"
expect_true "$(json_last "$TMP/o.json" "[t['wall']['off_cpu_ns'] for t in o['threads']] == [32000000, 18000000]")" \
	"per thread: $(json_last "$TMP/o.json" "[t['wall'] for t in o['threads']]")"
# the stacks: work_60's own wait and the mutex's under it
expect_true "$(json_last "$TMP/o.json" "[f['children']['off-cpu'] for f in o['functions'] if f['name'] == 'work_60'] == [16.0]")" \
	"work_60's off-cpu with its callees: $(json_last "$TMP/o.json" "[f for f in o['functions'] if f['name'] == 'work_60']")"

# newer perf (6.14's --off-cpu-thresh) writes a long wait as it ends, its
# fields in the sample's raw data: the same waits read the same (perf 6.1
# cannot assemble them: the figures are the file above's)
python3 "$SRCDIR/tests/e2e/mk-perfdata.py" offcpu-raw "$TMP/r.data" "$WORKLOADS/mix" "$LIBC" ||
	fail "mk-perfdata.py offcpu-raw"
"$CYCTOP" -i "$TMP/r.data" -b --format json >"$TMP/r.json" 2>"$TMP/r.err" ||
	fail "cyctop -i (raw): $(cat "$TMP/r.err")"
view='[(f["name"], f["percent"]["off-cpu"], f["children"]["off-cpu"]) for f in sorted(o["functions"], key=lambda f: f["name"])], o["wall"], [t["wall"] for t in o["threads"]]'
a=$(json_last "$TMP/o.json" "$view")
b=$(json_last "$TMP/r.json" "$view")
echo "raw: $b"
[ "$a" = "$b" ] || fail "raw data: $b, not $a"
ok
done_ok

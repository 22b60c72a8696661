#!/bin/sh
# Live sampling of real child processes with software events, in batch mode:
# known shares against perf on the same workload, two events at once, and
# ring pressure reported as lost samples.
. "$SRCDIR/tests/e2e/lib.sh"

MIX="$WORKLOADS/mix"
FAULTS="$WORKLOADS/faults"

# 60/30/10 of identical loops: about 3000 samples of cpu-clock, so one
# standard deviation of a share is under 1 point; 5 points is > 5 sigma.
run "$CYCTOP" -b --format json -e cpu-clock -- "$MIX" 3
expect_rc 0 "watch mix"
cp "$TMP/out" "$TMP/mix.json"
n=$(json_last "$TMP/mix.json" 'event("cpu-clock")["samples"]')
[ "$n" -gt 1500 ] || fail "too few samples: $n"
ok
for f in work_60:60 work_30:30 work_10:10; do
	name=${f%:*} want=${f#*:}
	expect_true "$(json_last "$TMP/mix.json" "abs(pct('$name','cpu-clock') - $want) < 5")" \
		"$name share $(json_last "$TMP/mix.json" "pct('$name','cpu-clock')") vs $want"
done
expect_true "$(json_last "$TMP/mix.json" 'o["ended"] and o["exit_status"] == 0')" "exit status"
expect_true "$(json_last "$TMP/mix.json" 'o["functions"][0]["name"] == "work_60"')" "sorted"
expect_true "$(json_last "$TMP/mix.json" 'abs(event("cpu-clock")["coverage"] - 1) < 0.01')" \
	"coverage 1 without multiplexing"
expect_true "$(json_last "$TMP/mix.json" '"cumulative" not in str(o) and not o["window"]')" \
	"cumulative counts only with --window"

# --window: the last interval, its cumulative counts beside it (the long run,
# tests/e2e/longrun.sh, checks that windows add up).
run "$CYCTOP" -b --window --format json -d 0.3 -e cpu-clock -- "$MIX" 1
expect_rc 0 "--window"
expect_true "$(json_last "$TMP/out" 'o["window"] and event("cpu-clock")["cumulative"] >= event("cpu-clock")["samples"] and all(r["cumulative"]["cpu-clock"] >= r["samples"]["cpu-clock"] for k in ("functions", "modules", "threads") for r in o[k])')" \
	"--window rows carry cumulative counts: $(tail -n 1 "$TMP/out" | head -c 400)"

# The same workload under perf record: the shares agree.
if perf record -q -e cpu-clock -o "$TMP/perf.data" -- "$MIX" 3 >/dev/null 2>&1; then
	for name in work_60 work_30 work_10; do
		p=$(perf_pct "$TMP/perf.data" "$name")
		expect_true "$(json_last "$TMP/mix.json" "abs(pct('$name','cpu-clock') - $p) < 6")" \
			"$name: cyctop $(json_last "$TMP/mix.json" "pct('$name','cpu-clock')") vs perf $p"
	done
fi

# Two events: page faults land where pages are touched, CPU where loops run.
PAGES=20000
run "$CYCTOP" -b --format json -e cpu-clock,page-faults -- "$FAULTS" $PAGES 1.0
expect_rc 0 "watch faults"
cp "$TMP/out" "$TMP/faults.json"
# touch_pages leads the page faults (a sanitizer runtime faults elsewhere too)
expect_true "$(json_last "$TMP/faults.json" '[f for f in o["functions"] if f["samples"]["page-faults"] == max(g["samples"]["page-faults"] for g in o["functions"])][0]["name"] == "touch_pages"')" \
	"touch_pages is not the top page-fault function"
# spin's share is spin's CPU time (the program says it) of the process's
# whole, cpu-clock's count: the start and the exit (0.2 s idle, more at
# load and under a sanitizer's runtime) are in the whole, in neither part
# the program measures.  5 sd of the share over the samples, and 1 point
# for spin's clock reads (in the vDSO, not in spin)
times=$(sed -n 's/^faults: spin \([0-9.]*\) s, touch_pages \([0-9.]*\) s of CPU$/\1 \2/p' "$TMP/err")
[ -n "$times" ] || fail "faults said no times: $(cat "$TMP/err")"
whole=$(json_last "$TMP/faults.json" 'event("cpu-clock")["count"] / 1e9')
want=$(echo "$times $whole" | awk '{ printf "%.2f", 100 * $1 / $3 }')
expect_true "$(json_last "$TMP/faults.json" "abs(pct('spin','cpu-clock') - $want) < 1 + 5 * 100 * ($want / 100 * (1 - $want / 100) / o['events'][0]['samples']) ** 0.5")" \
	"cpu-clock in spin: $(json_last "$TMP/faults.json" 'pct("spin","cpu-clock")'), the program's own $want of $whole s"
expect_true "$(json_last "$TMP/faults.json" "$PAGES <= samples('touch_pages','page-faults') <= $PAGES + 50")" \
	"one page-fault sample per touched page: $(json_last "$TMP/faults.json" 'samples("touch_pages","page-faults")')"
# Counting mode agrees with sampling every fault (SAV 1), and covers the pages.
expect_true "$(json_last "$TMP/faults.json" "abs(event('page-faults')['count'] - event('page-faults')['samples']) <= 0.01 * event('page-faults')['samples'] and event('page-faults')['count'] >= $PAGES")" \
	"page-fault count $(json_last "$TMP/faults.json" "event('page-faults')['count']") vs samples $(json_last "$TMP/faults.json" "event('page-faults')['samples']")"

# csv and text carry the same table
run "$CYCTOP" -b --format csv -e cpu-clock -- "$MIX" 1
expect_rc 0 "csv"
expect_out "time,function,module,cpu-clock:samples,cpu-clock:percent" "csv header"
expect_out '"work_60"' "csv row"
run "$CYCTOP" -b -d 0.5 -- "$MIX" 1
expect_rc 0 "text"
if host_has_pmu; then
	[ ! -s "$TMP/err" ] || fail "a host with a PMU says: $(cat "$TMP/err")"
	ok
	skip_part "the no-PMU notice: this host has a PMU"
else
	expect_err "no hardware PMU on this host: counting cpu-clock instead of cycles" "fallback notice"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "notice is not one line"
	ok
fi
expect_out "target " "exit reported"
expect_out "exited with status 0" "exit status in text"

# -n stops after N tables and terminates the launched command.
run "$CYCTOP" -b -n 2 -d 0.2 --format json -- "$MIX" 30
expect_rc 0 "-n 2"
[ "$(grep -c '"time"' "$TMP/out")" -eq 2 ] || fail "-n 2 printed $(grep -c '"time"' "$TMP/out") tables"
ok
# by its pid (live-attach.sh runs a mix 30 of its own beside this test);
# cyctop reaps what it launched before it exits, so no wait here
pid=$(json_last "$TMP/out" 'o["target"]["pid"]')
kill -0 "$pid" 2>/dev/null && fail "launched command $pid left running after -n"
ok

# Ring pressure: a 1-page ring at 100 kHz overflows; the loss is reported.
run "$CYCTOP" -b --format json -m 1 -e cpu-clock/10000 -- "$MIX" 1
expect_rc 0 "ring pressure"
expect_true "$(json_last "$TMP/out" 'o["lost"] > 0 or o["throttled"] > 0')" \
	"lost/throttled not reported: $(tail -n 1 "$TMP/out" | head -c 300)"

done_ok

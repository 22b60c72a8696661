#!/bin/sh
# Call stacks (-g): the engine unwinds sampled user stacks (dwarf) or reads
# frame-pointer chains (fp).  A known call tree (workloads/callers: leaf_work
# called 2:1 from caller_a and caller_b) gives known caller shares, checked
# against perf on the very samples cyctop unwound and on a run of its own;
# deep, signal, library and stripped stacks end cleanly.  tests/e2e/cg-probe
# prints what a session's snapshot holds (see its header).
. "$SRCDIR/tests/e2e/lib.sh"

CALLERS="$WORKLOADS/callers"
PROBE="$(dirname "$CYCTOP")/tests/e2e/cg-probe"
# 4 kHz, perf's default rate: a leaf_work call (about 0.3 ms here) spans a
# sample or more.  At 1 kHz a round of main's loop (3 calls) lasts about one
# sampling period, and systematic sampling can lock onto the same call
# round after round (shares seen 66-76 %): aliasing, not unwinding.
# User space only: a sample taken in the kernel on the way back from an
# interrupt may carry no user registers to unwind from (more of them the
# busier the machine), and these stacks are the user unwinder's test.
EV=cpu-clock:u/250000

# probe_val FILE KEY: the first value of line KEY
probe_val() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# caller_pct FILE NAME: NAME's share (percent) of leaf_work's stacks
caller_pct() {
	awk -v n="$2" '$1 == "caller" && $2 == n { print $5; f = 1 } END { if (!f) print 0 }' "$1"
}

# perf_caller_pct PERFDATA NAME: perf report's share of caller NAME among
# leaf_work's callers: the callee-first graph, fractal (each branch percent
# of its parent), so the first branches under leaf_work are its callers.
perf_caller_pct() {
	perf report -i "$1" --stdio --no-children -S leaf_work -g fractal,0,callee \
		--percent-limit 0 2>/dev/null |
		sed -n "s/.*--\([0-9.]*\)%--$2\$/\1/p" | head -n 1
}

# within GOT WANT TOL DESC: |GOT - WANT| <= TOL
within() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "$4: $1, want $2 +- $3"
	ok
}

# clean FILE DESC: a finished probe whose every frame lies in a known module
clean() {
	[ "$(probe_val "$1" stacks)" -gt 0 ] || fail "$2: no stacks: $(cat "$1")"
	[ "$(probe_val "$1" bad_frames)" -eq 0 ] || fail "$2: frames outside any module: $(cat "$1")"
	[ "$(probe_val "$1" overflow)" -eq 0 ] || fail "$2: node cap reached: $(cat "$1")"
	s=$(probe_val "$1" skipped)
	[ -n "$s" ] && [ "$s" -ge 0 ] || fail "$2: skipped stacks not reported"
	ok
}

# --- dwarf on the known tree, recorded as it is unwound -----------------------
run "$PROBE" -e "$EV" -o "$TMP/cg.data" dwarf leaf_work -- "$CALLERS" 3
expect_rc 0 "probe dwarf"
cp "$TMP/out" "$TMP/dwarf"
clean "$TMP/dwarf" "dwarf"
n=$(awk '$1 == "func" { print $4 }' "$TMP/dwarf")
[ "$n" -gt 4000 ] || fail "too few leaf_work stacks: $n"
ok
# Each stack ends at its natural end (_start): at most 2 % truncated.
t=$(probe_val "$TMP/dwarf" truncated)
st=$(probe_val "$TMP/dwarf" stacks)
[ $((t * 50)) -le "$st" ] || fail "dwarf: $t of $st stacks truncated"
ok
[ "$(awk '$1 == "root" { print $2; exit }' "$TMP/dwarf")" = _start ] ||
	fail "dwarf: stacks do not end at _start: $(grep '^root' "$TMP/dwarf")"
ok
# The shares are 2/3 and 1/3 of leaf_work's N samples.  As a binomial
# proportion a share's standard deviation is sigma = 100 * sqrt(p (1 - p) / N)
# points (0.43 for N = 12000, 0.6 for N = 6000); 5 sigma, plus one point
# for what systematic sampling leaves of aliasing, makes a false failure
# practically impossible while a caller lost or swapped (33 points) fails.
tol=$(awk -v n="$n" 'BEGIN { printf "%.2f", 5 * 100 * sqrt(2 / 9 / n) + 1 }')
a=$(caller_pct "$TMP/dwarf" caller_a)
b=$(caller_pct "$TMP/dwarf" caller_b)
within "$a" 66.67 "$tol" "caller_a's share of leaf_work"
within "$b" 33.33 "$tol" "caller_b's share of leaf_work"
within "$(awk -v a="$a" -v b="$b" 'BEGIN { print a + b }')" 100 2 "leaf_work's callers"

# perf on the same samples (the session's perf.data): the same unwinding
# up to the frames one unwinder gives up on (truncated: under 2 %).
if command -v perf >/dev/null 2>&1; then
	pa=$(perf_caller_pct "$TMP/cg.data" caller_a)
	[ -n "$pa" ] || fail "perf report gives no caller_a branch for the recorded session"
	within "$a" "$pa" 2 "caller_a: cyctop vs perf report on the same samples"
	# perf on a run of its own: two independent estimates differ by
	# sqrt(2) sigma; the same 5 sigma plus a point.
	if perf record -q -e cpu-clock -c 250000 --call-graph dwarf -o "$TMP/p.data" \
		-- "$CALLERS" 3 >/dev/null 2>&1; then
		pa=$(perf_caller_pct "$TMP/p.data" caller_a)
		pb=$(perf_caller_pct "$TMP/p.data" caller_b)
		[ -n "$pa" ] && [ -n "$pb" ] || fail "perf report gives no caller split"
		ok
		tol2=$(awk -v n="$n" 'BEGIN { printf "%.2f", 5 * 1.4143 * 100 * sqrt(2 / 9 / n) + 1 }')
		within "$a" "$pa" "$tol2" "caller_a: cyctop vs perf record"
		within "$b" "$pb" "$tol2" "caller_b: cyctop vs perf record"
	else
		skip_part "perf record --call-graph dwarf failed: no run of perf's own to compare"
	fi
else
	skip_part "perf is not installed: no comparison with perf report"
fi

# A recorded session keeps its stacks: cyctop record -g, read by perf.
# The run is 1 s (about 4,000 samples, N of them in leaf_work): against the
# truth 5 sigma plus a point, as above; perf and cyctop on the same file see
# the same samples, so they differ only where one unwinder gives up (1 point).
run "$CYCTOP" record -g -e "$EV" -o "$TMP/rec.data" -- "$CALLERS" 1
expect_rc 0 "record -g"
run "$PROBE" -i "$TMP/rec.data" leaf_work
expect_rc 0 "probe -i"
clean "$TMP/out" "file session"
a=$(caller_pct "$TMP/out" caller_a)
n=$(awk '$1 == "func" { print $4 }' "$TMP/out")
[ "$n" -gt 1000 ] || fail "record -g: too few leaf_work stacks: $n"
tol=$(awk -v n="$n" 'BEGIN { printf "%.2f", 5 * 100 * sqrt(2 / 9 / n) + 1 }')
within "$a" 66.67 "$tol" "file session: caller_a's share"
if command -v perf >/dev/null 2>&1; then
	pa=$(perf_caller_pct "$TMP/rec.data" caller_a)
	[ -n "$pa" ] || fail "record -g: perf report finds no stacks"
	within "$a" "$pa" 1 "record -g: caller_a, cyctop vs perf report on the same file"
else
	skip_part "perf is not installed: cyctop record -g not read by perf report"
fi

# perf's own dwarf stacks: cyctop -i unwinds the file perf record wrote and
# splits leaf_work's callers as perf report does on the same samples
if command -v perf >/dev/null 2>&1 &&
	perf record -q -F 4000 -e cpu-clock --call-graph dwarf -o "$TMP/perf-dwarf.data" -- \
		"$CALLERS" 2 >/dev/null 2>&1; then
	run "$PROBE" -i "$TMP/perf-dwarf.data" leaf_work
	expect_rc 0 "probe -i on perf's dwarf file"
	clean "$TMP/out" "perf's dwarf file"
	pa=$(perf_caller_pct "$TMP/perf-dwarf.data" caller_a)
	[ -n "$pa" ] || fail "perf report gives no caller split of its own file"
	# the same samples, unwound by two unwinders: a stack or two may differ
	within "$(caller_pct "$TMP/out" caller_a)" "$pa" 1 "perf's file: caller_a, cyctop vs perf report"
else
	skip_part "perf record --call-graph dwarf unavailable: perf's own dwarf file not read"
fi

# --- stacks that cannot be unwound whole end cleanly --------------------------
# recursion far deeper than the frames kept: every stack truncated
run "$PROBE" dwarf leaf_work -- "$CALLERS" recurse 1
expect_rc 0 "probe recurse"
cp "$TMP/out" "$TMP/recurse"
clean "$TMP/recurse" "recurse"
[ "$(probe_val "$TMP/recurse" truncated)" -gt 0 ] || fail "recurse: no stack truncated"
ok
[ "$(probe_val "$TMP/recurse" max_depth)" -le 128 ] || fail "recurse: more frames than kept"
ok
expect_true "$(awk '$1 == "caller" && $2 == "recurse" { print ($5 > 95) ? "True" : "False" }' \
	"$TMP/recurse")" "recurse: leaf_work is called by recurse: $(grep '^caller' "$TMP/recurse")"

# through a signal frame: leaf_work <- on_alarm <- __restore_rt <- pause <- main
run "$PROBE" dwarf leaf_work -- "$CALLERS" signal 1
expect_rc 0 "probe signal"
cp "$TMP/out" "$TMP/signal"
clean "$TMP/signal" "signal"
expect_true "$(awk '$1 == "caller" && $2 == "on_alarm" { print ($5 > 95) ? "True" : "False" }' \
	"$TMP/signal")" "signal: leaf_work is called by on_alarm: $(grep '^caller' "$TMP/signal")"
[ "$(awk '$1 == "root" { print $2; exit }' "$TMP/signal")" = _start ] ||
	fail "signal: stacks do not reach _start past the signal frame: $(cat "$TMP/signal")"
ok

# into a dlopen()ed library
run "$PROBE" dwarf plugin_work -- "$CALLERS" lib 1
expect_rc 0 "probe lib"
cp "$TMP/out" "$TMP/lib"
clean "$TMP/lib" "lib"
expect_true "$(awk '$1 == "caller" && $2 == "call_plugin" { print ($5 > 95) ? "True" : "False" }' \
	"$TMP/lib")" "lib: plugin_work is called by call_plugin: $(grep '^caller' "$TMP/lib")"

# a stripped binary: .eh_frame stays, the names go ([unknown] in a module)
strip -o "$TMP/callers-stripped" "$CALLERS" || fail "strip"
run "$PROBE" dwarf leaf_work -- "$TMP/callers-stripped" 1
expect_rc 0 "probe stripped"
clean "$TMP/out" "stripped"

# --- frame pointers: callers is built without them; no crash, no garbage -----
run "$PROBE" fp leaf_work -- "$CALLERS" 1
expect_rc 0 "probe fp"
clean "$TMP/out" "fp"
run "$PROBE" fp leaf_work -- "$CALLERS" signal 1
expect_rc 0 "probe fp signal"
clean "$TMP/out" "fp signal"

# --- the command line ---------------------------------------------------------
run "$CYCTOP" -b -g -n 1 -d 0.3 -e cpu-clock -- "$CALLERS" 1
expect_rc 0 "cyctop -b -g"
run "$CYCTOP" -b --call-graph dwarf,4096 -n 1 -d 0.3 -e cpu-clock -- "$CALLERS" 1
expect_rc 0 "--call-graph dwarf,4096"
run "$CYCTOP" -b --call-graph fp -n 1 -d 0.3 -e cpu-clock -- "$CALLERS" 1
expect_rc 0 "--call-graph fp"
run "$CYCTOP" -b --call-graph dwarf,12 -- "$CALLERS" 1
expect_rc 2 "a stack size not a multiple of 8"
expect_err "multiple of 8" "stack size message"
run "$CYCTOP" -b --call-graph lbr -- "$CALLERS" 1
expect_rc 2 "an unknown mode"
run "$CYCTOP" record --call-graph dwarf,65536 -o "$TMP/x.data" -- "$CALLERS" 1
expect_rc 2 "record: a stack size over the kernel's limit"
run "$CYCTOP" -b -g -m 2 -- "$CALLERS" 1
expect_rc 1 "-g with a ring too small for a stack copy"
expect_err "too small" "small ring message"

done_ok

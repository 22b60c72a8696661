#!/bin/sh
# What batch mode prints of call stacks (-g): the JSON fields (children,
# callers, callees, stacks), the children column of text and csv, and
# --format folded, on the known call tree of workloads/callers (leaf_work
# called 2:1 from caller_a and caller_b).  Without -g nothing changes, and
# folded says it needs -g.
. "$SRCDIR/tests/e2e/lib.sh"

CALLERS="$WORKLOADS/callers"
# 4 kHz, as tests/e2e/callgraph.sh (at 1 kHz a round of main's loop lasts about
# one sampling period and systematic sampling can alias).
EV=$TEST_EVENT/250000

# py FILE EXPR: EXPR over o, the last JSON object of FILE, with helpers
py() {
	python3 - "$1" "$2" <<'PY'
import json, os, sys
TEST_EVENT = os.environ["CYCTOP_TEST_EVENT"]
lines = [l for l in open(sys.argv[1]) if l.strip()]
o = json.loads(lines[-1])
def fn(name):
    return [f for f in o["functions"] if f["name"] == name][0]
def edge(name, kind, other):
    return sum(e["percent"] for e in fn(name)[kind] if e["name"] == other)
print(eval(sys.argv[2]))
PY
}

# within GOT WANT TOL DESC: |GOT - WANT| <= TOL
within() {
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= t) }' ||
		fail "$4: $1, want $2 +- $3"
	ok
}

# --- JSON -----------------------------------------------------------------------
run "$CYCTOP" -g -b --format json -e "$EV" -- "$CALLERS" 3
expect_rc 0 "-g -b --format json"
cp "$TMP/out" "$TMP/g.json"
expect_true "$(py "$TMP/g.json" '"stacks" in o and all(k in o["stacks"] for k in ("samples", "truncated", "skipped", "overflow"))')" \
	"top-level stacks object: $(py "$TMP/g.json" 'o.get("stacks")')"
# every sample either has its stack or was skipped (one event)
expect_true "$(py "$TMP/g.json" 'o["stacks"]["samples"] + o["stacks"]["skipped"] == o["events"][0]["samples"]')" \
	"stacks + skipped = samples: $(py "$TMP/g.json" '(o["stacks"], o["events"][0]["samples"])')"
expect_true "$(py "$TMP/g.json" 'all(k in f for f in o["functions"] for k in ("children", "callers", "callees"))')" \
	"every function has children, callers and callees"
# leaf_work: nearly all the samples; callers 2:1 as shares of its total.  A
# share of N samples has sigma = 100 sqrt(p (1 - p) / N) points: 5 sigma plus
# a point for what systematic sampling leaves of aliasing (tests/e2e/callgraph.sh).
n=$(py "$TMP/g.json" 'sum(e["samples"] for e in fn("leaf_work")["callers"])')
[ "$n" -gt 4000 ] || fail "too few leaf_work stacks: $n"
ok
tol=$(python3 -c "print('%.2f' % (5 * 100 * (2 / 9 / $n) ** 0.5 + 1))")  # (busybox awk: no sqrt)
a=$(py "$TMP/g.json" 'edge("leaf_work", "callers", "caller_a")')
b=$(py "$TMP/g.json" 'edge("leaf_work", "callers", "caller_b")')
within "$a" 66.67 "$tol" "caller_a's share of leaf_work"
within "$b" 33.33 "$tol" "caller_b's share of leaf_work"
within "$(py "$TMP/g.json" 'sum(e["percent"] for e in fn("leaf_work")["callers"])')" 100 0.5 \
	"leaf_work's callers add up to its total"
# leaf_work calls nothing: its callees are at most the kernel's (the
# interrupts the event's samples are taken in, as perf shows them)
expect_true "$(py "$TMP/g.json" 'all(e["module"] == "[kernel.kallsyms]" for e in fn("leaf_work")["callees"])')" \
	"leaf_work calls nothing in user space"
# the callers' samples and percent agree: percent of the function's total
expect_true "$(py "$TMP/g.json" 'all(abs(e["percent"] - 100.0 * e["samples"] / sum(c["samples"] for c in fn("leaf_work")["callers"])) < 0.01 for e in fn("leaf_work")["callers"])')" \
	"callers' percent = samples / the function's total"
# children (perf top's Children) hold at least the self share, up to 100
expect_true "$(py "$TMP/g.json" 'all(f["children"][TEST_EVENT] >= f["percent"][TEST_EVENT] - 1 and f["children"][TEST_EVENT] <= 100 for f in o["functions"])')" \
	"children >= self"
expect_true "$(py "$TMP/g.json" 'fn("leaf_work")["children"][TEST_EVENT] > 95')" "leaf_work's children share"

# without -g: the contract as before, no call-graph fields
run "$CYCTOP" -b --format json -e "$TEST_EVENT" -- "$CALLERS" 0.3
expect_rc 0 "-b --format json without -g"
expect_true "$(py "$TMP/out" '"stacks" not in o and all(k not in f for f in o["functions"] for k in ("children", "callers", "callees"))')" \
	"no call-graph fields without -g"

# --- text and csv: the children column ------------------------------------------
run "$CYCTOP" -g -b -e "$EV" -- "$CALLERS" 0.5
expect_rc 0 "-g -b text"
expect_out "children%" "text: children column"
expect_out "  stacks " "text: stacks line"
run "$CYCTOP" -b -e "$TEST_EVENT" -- "$CALLERS" 0.3
grep -q "children" "$TMP/out" && fail "text: a children column without -g"
ok
run "$CYCTOP" -g -b --format csv -e "$EV" -- "$CALLERS" 0.5
expect_rc 0 "-g -b csv"
expect_out "time,function,module,$TEST_EVENT:samples,$TEST_EVENT:percent,$TEST_EVENT:children" "csv header"
expect_true "$(awk -F, '$2 == "\"leaf_work\"" { v = $6 } END { print (v > 95) ? "True" : "False" }' "$TMP/out")" \
	"csv: leaf_work's children share"

# --- folded ------------------------------------------------------------------------
run "$CYCTOP" -g -b --format folded -e "$EV" -- "$CALLERS" 1
expect_rc 0 "-g --format folded"
[ -s "$TMP/out" ] || fail "folded: no output"
ok
# every line "frame;frame;... COUNT", frames without spaces at the ends
bad=$(awk '!/^[^ ;]([^;]*[^ ;])?(;[^ ;]([^;]*[^ ;])?)* [1-9][0-9]*$/' "$TMP/out" | head -n 3)
[ -z "$bad" ] || fail "folded: lines not 'frames count': $bad"
ok
grep -q "main;caller_a;leaf_work [0-9]*$" "$TMP/out" || fail "folded: no main;caller_a;leaf_work path"
ok
grep -q "main;caller_b;leaf_work [0-9]*$" "$TMP/out" || fail "folded: no main;caller_b;leaf_work path"
ok
# printed once (at the end), so no path twice
[ "$(awk '{ $NF = ""; print }' "$TMP/out" | sort | uniq -d | wc -l)" -eq 0 ] ||
	fail "folded: a path printed twice"
ok
# ... also when -n ends the watch before the command
run "$CYCTOP" -g -b -n 2 -d 0.3 --format folded -e "$EV" -- "$CALLERS" 3
expect_rc 0 "folded with -n"
[ "$(awk '{ $NF = ""; print }' "$TMP/out" | sort | uniq -d | wc -l)" -eq 0 ] ||
	fail "folded -n 2: a path printed twice"
ok
grep -q "main;caller_a;leaf_work [0-9]*$" "$TMP/out" || fail "folded -n 2: printed nothing"
ok

# The counts add up to the samples with a stack: the same recorded samples
# read twice, as JSON and folded.
run "$CYCTOP" record -g -e "$EV" -o "$TMP/rec.data" -- "$CALLERS" 1
expect_rc 0 "record -g"
run "$CYCTOP" -b --format json -i "$TMP/rec.data"
expect_rc 0 "-i json"
cp "$TMP/out" "$TMP/rec.json"
run "$CYCTOP" -b --format folded -i "$TMP/rec.data"
expect_rc 0 "-i folded"
sum=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/out")
want=$(py "$TMP/rec.json" 'o["stacks"]["samples"]')
[ "$sum" -gt 0 ] && [ "$sum" -eq "$want" ] || fail "folded counts $sum, stacks.samples $want"
ok
# ... and as perf script reads the same file: as many stacks, and each
# (caller, leaf_work) pair as often, whatever kernel frames lie above
# leaf_work (perf unwinds the same stack copies with its own unwinder: a
# stack or two may end elsewhere, 0.5 % of them)
if command -v perf >/dev/null 2>&1; then
	perf script -i "$TMP/rec.data" -F ip,sym --no-inline 2>/dev/null >"$TMP/rec.script"
	r=$(python3 - "$TMP/rec.script" "$TMP/out" <<'PY'
import sys
from collections import Counter
stacks = [[l.split(None, 1)[1] if len(l.split(None, 1)) > 1 else "?" for l in b.strip().splitlines()]
          for b in open(sys.argv[1]).read().split("\n\n") if b.strip()]
perf = Counter()
for f in stacks:  # callee first
    if "leaf_work" in f[:-1]:
        perf[f[f.index("leaf_work") + 1] + ";leaf_work"] += 1
cy, total = Counter(), 0
for line in open(sys.argv[2]):
    path, n = line.rsplit(None, 1)
    total += int(n)
    frames = path.split(";")  # root first
    if "leaf_work" in frames[1:]:
        j = len(frames) - 1 - frames[::-1].index("leaf_work")
        cy[frames[j - 1] + ";leaf_work"] += int(n)
bad = ["%s: perf %d, cyctop %d" % (k, perf[k], cy[k]) for k in set(perf) | set(cy)
       if abs(perf[k] - cy[k]) > 0.005 * len(stacks) + 1]
if total != len(stacks):
    bad.append("stacks: perf script %d, folded %d" % (len(stacks), total))
print("; ".join(bad) if bad else "same")
PY
)
	[ "$r" = same ] || fail "folded vs perf script on the same file: $r"
	ok
else
	skip_part "perf is not installed: folded not compared with perf script"
fi

# Without stacks there is nothing to fold: an error, promptly (the command
# is terminated, not waited for), exit 2, nothing on stdout.
start=$(date +%s)
run "$CYCTOP" -b --format folded -e "$TEST_EVENT" -- "$CALLERS" "29.1$$"
expect_rc 2 "folded without -g"
expect_err "--format folded needs -g" "folded without -g: message"
[ ! -s "$TMP/out" ] || fail "folded without -g printed: $(head -c 300 "$TMP/out")"
ok
# refused before the launch: far under the command's 29 s even when loaded
[ $(($(date +%s) - start)) -lt 15 ] || fail "folded without -g ran the whole command"
ok
pgrep -f "$CALLERS 29.1$$\$" >/dev/null && fail "folded without -g left the command running"
ok

done_ok

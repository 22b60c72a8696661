#!/bin/sh
# A target that forks and execs all the time (a shell loop of /bin/true, as
# a pyenv shim or a build does): watched live, recorded, and read back from
# cyctop's and perf's files.  Every run ends cleanly (in the ASan build too),
# leaves no process behind, and the file's module shares are perf report's.
. "$SRCDIR/tests/e2e/lib.sh"

TAG=" # cyctop-fork-loop-$$"
LOOP="for i in \$(seq 1 60); do /bin/true; done$TAG"
leftover() {
	pgrep -f "cyctop-fork-loop-$$" >/dev/null && fail "$1: a process of the loop is left"
	ok
}

i=0
while [ $i -lt 6 ]; do
	run "$CYCTOP" -b -e "$TEST_EVENT" -- sh -c "$LOOP"
	expect_rc 0 "live run $i"
	expect_out "exited with status 0" "live run $i ends with the target"
	leftover "live run $i"
	i=$((i + 1))
done

# software events count what perf stat counts, the kernel's part included:
# five sleeps are at least five context switches (0 when the kernel was
# excluded from every event)
run "$CYCTOP" -b --format json -e "$TEST_EVENT",context-switches -- sh -c "for i in 1 2 3 4 5; do sleep 0.01; done$TAG"
expect_rc 0 "context switches"
expect_true "$(json_last "$TMP/out" 'event("context-switches")["count"] >= 5')" \
	"context-switches counted: $(json_last "$TMP/out" 'event("context-switches")["count"]')"

run "$CYCTOP" record -o "$TMP/c.data" -e "$TEST_EVENT" -- sh -c "$LOOP"
expect_rc 0 "cyctop record"
leftover "record"
run "$CYCTOP" -b -i "$TMP/c.data"
expect_rc 0 "cyctop -i its own recording"

# perf's recording of the same loop, longer: processes that come and go,
# each exec's COMM between its mappings
perf record -q -e "$TEST_EVENT" -o "$TMP/p.data" -- sh -c "for i in \$(seq 1 300); do /bin/true; done$TAG" \
	>/dev/null 2>&1 || { echo "SKIP: perf record failed"; exit 77; }
run "$CYCTOP" -b -i "$TMP/p.data" --format json
expect_rc 0 "cyctop -i perf's recording"
# perf report and cyctop read the same file: no sampling noise, so each
# module's period (a frequency-sampled file weighs each sample by its
# period; perf report -F period) is perf's to the nanosecond
perf report -i "$TMP/p.data" --stdio -q -F period,dso 2>/dev/null |
	awk 'NF >= 2 { print $2, $1 }' >"$TMP/p.dso"
[ -s "$TMP/p.dso" ] || fail "perf report printed no modules"
r=$(python3 - "$TMP/p.dso" "$TMP/out" <<'PY'
import json, os, sys
perf = {}
for line in open(sys.argv[1]):
    dso, period = line.split()
    perf[dso] = perf.get(dso, 0) + int(period)
o = json.loads([l for l in open(sys.argv[2]) if l.strip()][-1])
ev = o["events"][0]["name"]
cy = {}
for m in o["modules"]:
    d = os.path.basename(m["module"])
    cy[d] = cy.get(d, 0) + round(m["samples"][ev])
bad = ["%s perf %d cyctop %d" % (d, perf.get(d, 0), cy.get(d, 0))
       for d in sorted(set(perf) | set(cy)) if perf.get(d, 0) != cy.get(d, 0)]
print("; ".join(bad) if bad else "same")
PY
)
[ "$r" = same ] || fail "module periods differ from perf report's: $r"
ok
done_ok

#!/bin/sh
# A perf record -a file opens as the whole machine, as cyctop -a -i does:
# the JSON target is "all CPUs" (pid -1), the processes come with it, and
# perf's dummy:HG event (side-band records only, never a sample) is no
# column.  A per-process recording of the same perf stays the process's,
# and a cyctop record -a file opens as the whole machine too.
. "$SRCDIR/tests/e2e/lib.sh"

if ! command -v perf >/dev/null 2>&1; then
	echo "SKIP: perf is not installed"
	exit 77
fi
BUSY="$WORKLOADS/mix"   # comm "mix"
PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$TMP"' EXIT
"$BUSY" 60 >/dev/null 2>&1 & PIDS=$!

# perf record -a with its default event: perf adds dummy:HG beside it
if ! perf record -q -a -o "$TMP/sw.data" -- sleep 1 >/dev/null 2>"$TMP/rec.err"; then
	echo "SKIP: perf record -a: $(tr -s '\n' ' ' <"$TMP/rec.err")"
	exit 77
fi
perf evlist -i "$TMP/sw.data" 2>/dev/null | grep -q '^dummy' ||
	skip_part "this perf wrote no dummy event with -a: $(perf evlist -i "$TMP/sw.data" | tr '\n' ' ')"

# -i FILE alone: the whole machine
run "$CYCTOP" -b -n 1 --format json -i "$TMP/sw.data"
expect_rc 0 "cyctop -i sw.data"
cp "$TMP/out" "$TMP/sw.json"
expect_true "$(json_last "$TMP/sw.json" "o['target'] == {'pid': -1, 'command': 'all CPUs'}")" \
	"the target of a perf record -a file: $(json_last "$TMP/sw.json" "o['target']")"
expect_true "$(json_last "$TMP/sw.json" "not any(e['name'].startswith('dummy') for e in o['events'])")" \
	"no dummy event: $(json_last "$TMP/sw.json" "[e['name'] for e in o['events']]")"
expect_true "$(json_last "$TMP/sw.json" "any(p['comm'] == 'mix' for p in o.get('processes', []))")" \
	"the busy process among the processes: $(json_last "$TMP/sw.json" "o.get('processes')")"
# the text table: no "count not counted" column, the processes first
run "$CYCTOP" -b -n 1 -i "$TMP/sw.data"
expect_rc 0 "cyctop -i sw.data (text)"
# (an event's line: "  NAME  sav N  samples N  count ..."; functions may be
# named dummy_*)
grep -qE '^ +dummy[^ ]* +sav ' "$TMP/out" && fail "a dummy event in the text output: $(head -5 "$TMP/out")"
grep -q "all CPUs" "$TMP/out" || fail "the text header names no 'all CPUs': $(head -3 "$TMP/out")"
ok
# -a -i reads it alike
run "$CYCTOP" -a -b -n 1 --format json -i "$TMP/sw.data"
expect_rc 0 "cyctop -a -i sw.data"
expect_true "$(json_last "$TMP/out" "o['target']['pid'] == -1 and 'processes' in o")" \
	"-a -i: the whole machine"

# cyctop record -a says so in its own metadata, and its file opens alike
run "$CYCTOP" record -a -e cpu-clock -d 1 -o "$TMP/cy.data"
expect_rc 0 "cyctop record -a"
run "$CYCTOP" -b -n 1 --format json -i "$TMP/cy.data"
expect_rc 0 "cyctop -i cy.data"
expect_true "$(json_last "$TMP/out" "o['target'] == {'pid': -1, 'command': 'all CPUs'} and 'processes' in o")" \
	"the target of a cyctop record -a file: $(json_last "$TMP/out" "o['target']")"

# a per-process recording: its process, no processes list
perf record -q -o "$TMP/p.data" -- "$BUSY" 0.3 >/dev/null 2>&1 || fail "perf record -- mix: $?"
run "$CYCTOP" -b -n 1 --format json -i "$TMP/p.data"
expect_rc 0 "cyctop -i p.data"
expect_true "$(json_last "$TMP/out" "o['target']['command'] == 'mix' and o['target']['pid'] > 0 and 'processes' not in o")" \
	"a per-process recording stays its process: $(json_last "$TMP/out" "o['target']")"
done_ok

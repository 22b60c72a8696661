#!/bin/sh
# A FORK onto a pid whose process exited: a hand-made perf.data
# (tests/e2e/mk-perfdata.py fork) where process 100 runs workloads/mix and
# exits, process 200 runs workloads/callers and forks a new process 100,
# sampled at mix's main (not mapped in the new process) and at callers'
# main (its parent's mapping).  cyctop reads it as perf report does: the dead process's
# mappings are gone, the parent's are there.  (It kept the dead mappings:
# 68 % in mix's main, callers' main [unknown].)
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
python3 "$SRCDIR/tests/e2e/mk-perfdata.py" fork "$TMP/fork.data" "$WORKLOADS/mix" "$WORKLOADS/callers" ||
	fail "writing the file"
perf report -i "$TMP/fork.data" --stdio --sort dso,sym 2>/dev/null |
	awk '$1 ~ /%$/ { sub("%", "", $1); print $1, $2, $4 }' >"$TMP/perf.txt"
[ "$(wc -l <"$TMP/perf.txt")" -eq 3 ] || fail "perf report: $(cat "$TMP/perf.txt")"
ok
run "$CYCTOP" -b -i "$TMP/fork.data" --format json
expect_rc 0 "cyctop -i"
# every perf row: the same share for (module, function); perf's per-address
# rows of unmapped code are cyctop's [unknown]
while read -r pct dso sym; do
	case $sym in 0x*) sym='[unknown]' ;; esac
	got=$(json_last "$TMP/out" "round(sum(f['percent']['cpu-clock'] for f in o['functions'] if f['name'] == '$sym' and f['module'].split('/')[-1] == '$dso'), 2)")
	[ "$got" = "$pct" ] || fail "$dso $sym: $got %, perf report $pct %"
	ok
done <"$TMP/perf.txt"
done_ok

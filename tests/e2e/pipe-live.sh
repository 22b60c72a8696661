#!/bin/sh
# perf record -o - | cyctop -i -: the stream is read as it comes, so the
# views update while it flows (here: batch tables every 0.3 s with samples
# growing before the end), and what cyctop shows at the end is what perf
# report shows of the same stream (kept with tee).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null || { echo "SKIP: no perf"; exit 77; }
{
	perf record -q --no-buffering -e cpu-clock -o - -- "$WORKLOADS/mix" 2 2>/dev/null
	echo $? >"$TMP/perf.rc"
} | tee "$TMP/stream.data" | "$CYCTOP" -i - -b -d 0.3 --format json >"$TMP/out" 2>"$TMP/err"
RC=$?
[ "$(cat "$TMP/perf.rc")" = 0 ] && [ -s "$TMP/stream.data" ] ||
	{ echo "SKIP: perf record -o - failed here (status $(cat "$TMP/perf.rc"))"; exit 77; }
expect_rc 0 "perf record -o - | cyctop -i -"
r=$(python3 - "$TMP/out" <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
n = [sum(e["samples"] for e in o["events"]) for o in objs]
growing = sum(1 for a, b in zip(n, n[1:]) if b > a)
print("ok" if objs and objs[-1].get("ended") and growing >= 2 and
      not objs[0].get("ended") else "tables %s, ended %s" % (n, [o.get("ended") for o in objs]))
PY
)
[ "$r" = ok ] || fail "the view did not update while the stream flowed: $r"
ok
# same_as_perf STREAM JSON DESC: the shares of work_60/30/10 in cyctop's last
# table are perf report's of the same stream (to perf's two decimals)
same_as_perf() {
	perf report -i "$1" --stdio --sort sym -q 2>/dev/null |
		awk '$2 == "[.]" { sub("%", "", $1); print $3, $1 }' >"$TMP/perf.sym"
	r=$(python3 - "$TMP/perf.sym" "$2" <<'PY'
import json, sys
perf = {}
for line in open(sys.argv[1]):
    name, pct = line.split()
    perf[name] = perf.get(name, 0) + float(pct)
o = [json.loads(l) for l in open(sys.argv[2]) if l.strip()][-1]
cy = {}
for f in o["functions"]:
    cy[f["name"]] = cy.get(f["name"], 0) + f["percent"]["cpu-clock"]
bad = ["%s perf %.2f cyctop %.2f" % (k, perf.get(k, -9), cy.get(k, 0))
       for k in ("work_60", "work_30", "work_10") if abs(perf.get(k, -9) - cy.get(k, 0)) > 0.05]
print("; ".join(bad) if bad else "same")
PY
)
	[ "$r" = same ] || fail "$3: the shares are not perf report's: $r"
	ok
}
same_as_perf "$TMP/stream.data" "$TMP/out" "the whole stream"

# a stream cut off: what came is shown (perf report reads the same cut
# stream: the same shares), the view ends, and the exit is 0
head -c 20000 "$TMP/stream.data" >"$TMP/cut.data"
"$CYCTOP" -i - -b --format json <"$TMP/cut.data" >"$TMP/cut" 2>"$TMP/err"
[ $? -eq 0 ] || fail "a cut stream: $(cat "$TMP/err")"
ok
expect_true "$(json_last "$TMP/cut" 'o["ended"] and 0 < pct("work_60", "cpu-clock") < 100')" \
	"the cut stream's table: $(tail -1 "$TMP/cut" | head -c 400)"
same_as_perf "$TMP/cut.data" "$TMP/cut" "the cut stream"
done_ok

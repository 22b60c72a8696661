#!/bin/sh
# cyctop diff (issue 29): two builds of workloads/diffwork, the second
# (workloads/half/diffwork, -DHALF) doing half of work_half's steps and the
# same work_a and work_b, recorded on cpu-clock (a software event: works
# without a PMU).
#
# The statistics, and how often this test fails when nothing is wrong:
# - No bound on a function's delta against 0 or -50% of its base: the same
#   work's cpu-clock time grows under contention (one side recorded at
#   load 17 had work_b 11% above the other; one on a CI machine beside
#   another check, work_a 18%), which no statistic of one side bounds.
#   Shares within a side are checked instead, whatever the load did to
#   both: work_a's share of work_a + work_b is the same on both sides, and
#   work_half's ratio to work_a halves, each within 5 sd (a share p of N
#   samples has sd sqrt(p(1-p)/N) a side; log(h/a) has variance 1/h + 1/a
#   in samples; by chance one failure in 1.7 million).
# - One run a side (sampling): a delta's sd is the product's own (n + 1
#   samples x P^2 a side); work_half must be significant.  "Not
#   significant" itself (|z| < 1.96) would fail 5% of the time: it is not
#   asserted on live data; the three formats must agree on it instead.
# - Three runs a side (runs, Welch): work_half within |t| < 20 of -50%;
#   the Welch df is 2 to 4 here, and P(|T| > 20) is 0.25% at df 2, 3e-4
#   at df 3, 4e-5 at df 4, and each side's spread holds the load's.
# - A tree diff of two counts files (a Core2 example and a copy with fewer
#   cycles and stalls): every node marked additive has parts whose deltas
#   add up to its delta; the ratios (cpi) are not marked.
# - perf diff on the same two files: its Baseline column is cyctop's
#   base_percent, to perf's rounding (0.01).
. "$SRCDIR/tests/e2e/lib.sh"
W="$WORKLOADS"

# record OUT BINARY [--runs N]: diffwork's fixed work (120 million steps)
record() {
	out=$1 bin=$2
	shift 2
	run "$CYCTOP" record "$@" -e cpu-clock -o "$out" -- "$bin" 120
	if [ "$RC" -ne 0 ] && grep -q "perf_event_paranoid\|Permission" "$TMP/err"; then
		echo "SKIP: cannot record here: $(cat "$TMP/err")"
		exit 77
	fi
	expect_rc 0 "record $bin"
}

# field CSVFILE LEVEL NAME COLUMN: the value of COLUMN in row (LEVEL, NAME)
field() {
	awk -F, -v lv="$2" -v nm="\"$3\"" -v col="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == lv && $2 == nm { print $c[col]; exit }' "$1"
}

# check_z CSV NAME WANT_FRACTION BOUND: |delta - WANT_FRACTION * base| < BOUND sd
check_z() {
	b=$(field "$1" function "$2" base) d=$(field "$1" function "$2" delta)
	sd=$(field "$1" function "$2" sd)
	[ -n "$b" ] && [ -n "$sd" ] || fail "$1: no row for $2: $(cat "$1")"
	awk -v b="$b" -v d="$d" -v sd="$sd" -v f="$3" -v k="$4" 'BEGIN {
		z = (d - f * b) / sd; if (z < 0) z = -z; exit !(sd > 0 && z < k) }' ||
		fail "$2: delta $d of base $b, sd $sd: not within $4 sd of $3 x base"
	ok
}

# check_shares JSON: within each side, work_a's share of work_a + work_b
# stays, and work_half's ratio to work_a halves (the load's slowdown of a
# side cancels in both)
check_shares() {
	if ! command -v python3 >/dev/null; then
		skip_part "no python3: the shares of the functions"
		return
	fi
	python3 - "$1" <<'EOF' || fail "a share moved: $(cat "$1")"
import json, math, sys
d = json.load(open(sys.argv[1]))
ev = "cpu-clock"
f = {r["name"]: r["events"][ev] for r in d["functions"] if r["module"] == "diffwork"}
def samples(side, fn):
    runs = d[side]["events"][ev]["runs"]
    return len(runs) * f[fn][side] / runs[0]["period"]   # all runs
def share(side):
    a, b = samples(side, "work_a"), samples(side, "work_b")
    p = a / (a + b)
    return p, p * (1 - p) / (a + b)
def log_ratio(side):
    h, a = samples(side, "work_half"), samples(side, "work_a")
    return math.log(h / a), 1 / h + 1 / a
pb, vb = share("base")
pn, vn = share("new")
z1 = (pn - pb) / math.sqrt(vb + vn)
rb, wb = log_ratio("base")
rn, wn = log_ratio("new")
z2 = (rn - rb - math.log(0.5)) / math.sqrt(wb + wn)
print("work_a's share of work_a + work_b: base %.4f, new %.4f, z %.2f" % (pb, pn, z1))
print("work_half / work_a: base %.4f, new %.4f, z %.2f" % (math.exp(rb), math.exp(rn), z2))
sys.exit(abs(z1) >= 5 or abs(z2) >= 5)
EOF
	ok
}

expect_sig() { # CSV NAME yes|no
	s=$(field "$1" function "$2" significant)
	[ "$s" = "$3" ] || fail "$2: significant '$s', want $3"
	ok
}

# the three formats say the same: each function's significance in text
# ('*') and json equals the csv's
formats_agree() { # ARGS...
	run "$CYCTOP" diff -f csv "$@"
	expect_rc 0 "diff csv $*"
	cp "$TMP/out" "$TMP/agree.csv"
	run "$CYCTOP" diff "$@"
	expect_rc 0 "diff text $*"
	cp "$TMP/out" "$TMP/agree.txt"
	run "$CYCTOP" diff -f json "$@"
	expect_rc 0 "diff json $*"
	cp "$TMP/out" "$TMP/agree.json"
	for fn in work_a work_b work_half; do
		s=$(field "$TMP/agree.csv" function $fn significant)
		# text: the functions block's row of FN (the first), its Sig column
		t=$(awk -v fn=$fn '$0 ~ /^# functions/ { f = 1 } f && $(NF - 1) == fn {
			print (index($0, "] *") ? "yes" : "no"); exit }' "$TMP/agree.txt")
		[ "$s" = "$t" ] || fail "$fn: csv significant $s, text $t: $(cat "$TMP/agree.txt")"
		if command -v python3 >/dev/null; then
			j=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = [r for r in d["functions"] if r["name"] == sys.argv[2] and r["module"] == "diffwork"][0]
print("yes" if f["events"]["cpu-clock"]["significant"] else "no")' "$TMP/agree.json" $fn) ||
				fail "json: $(head -c 1000 "$TMP/agree.json")"
			[ "$s" = "$j" ] || fail "$fn: csv significant $s, json $j"
		fi
		ok
	done
}

# --- one run a side: sampling ---------------------------------------------
record "$TMP/base.data" "$W/diffwork"
record "$TMP/new.data" "$W/half/diffwork"
run "$CYCTOP" diff -f csv "$TMP/base.data" "$TMP/new.data"
expect_rc 0 "diff csv"
cp "$TMP/out" "$TMP/s.csv"
expect_sig "$TMP/s.csv" work_half yes
formats_agree "$TMP/base.data" "$TMP/new.data"
check_shares "$TMP/agree.json"
grep -q '^# method: sampling' "$TMP/agree.txt" || fail "text: no sampling method line"
grep -q '"method": "sampling"' "$TMP/agree.json" || fail "json: method not sampling"
ok
# functions matched by module basename across the two builds: no "only" rows
for fn in work_a work_b work_half; do
	[ -z "$(field "$TMP/s.csv" function $fn only)" ] || fail "$fn seen on one side only"
	ok
done

# -l: source lines of work_half, a second level: they partition its
# samples, so their deltas add up to its delta (exactly: the same counts)
run "$CYCTOP" diff -l -f csv "$TMP/base.data" "$TMP/new.data"
expect_rc 0 "diff -l csv"
fd=$(field "$TMP/out" function work_half delta)
ld=$(awk -F, '$1 == "line" && $2 == "\"work_half\"" { s += $7; n++ }
	END { if (n) printf "%.0f", s }' "$TMP/out")
[ -n "$ld" ] && [ "$ld" = "$(printf '%.0f' "$fd")" ] ||
	fail "work_half: lines' deltas sum to '$ld', function delta $fd: $(grep '^line' "$TMP/out")"
ok
grep -q '^line,"work_half","diffwork","cpu-clock",.*,"diffwork.c:[0-9]*"$' "$TMP/out" ||
	fail "no diffwork.c line of work_half: $(grep '^line' "$TMP/out")"
ok
run "$CYCTOP" diff -l -f json "$TMP/base.data" "$TMP/new.data"
expect_rc 0 "diff -l json"
expect_out '"lines": [{"line": "diffwork.c:'

# perf diff's Baseline is the base's share: cyctop's base_percent
if command -v perf >/dev/null && perf diff -t, "$TMP/base.data" "$TMP/new.data" \
	>"$TMP/perfdiff" 2>/dev/null && grep -q work_half "$TMP/perfdiff"; then
	for fn in work_a work_b work_half; do
		pb=$(awk -F, -v fn="[.] $fn" '{ s = $4; sub(/ +$/, "", s) } s == fn {
			print $1 + 0; exit }' "$TMP/perfdiff")
		cb=$(field "$TMP/s.csv" function $fn base_percent)
		awk -v p="$pb" -v c="$cb" 'BEGIN { d = p - c; exit !(p != "" && d < 0.0051 && d > -0.0051) }' ||
			fail "$fn: perf diff Baseline $pb%, cyctop base_percent $cb"
		ok
	done
else
	skip_part "perf diff not here or cannot read the files"
fi

# --- three runs a side: runs (Welch) --------------------------------------
record "$TMP/b" "$W/diffwork" --runs 3
record "$TMP/n" "$W/half/diffwork" --runs 3
for i in 1 2 3; do
	[ -s "$TMP/b.$i.data" ] && [ -s "$TMP/n.$i.data" ] || fail "record --runs 3: no PREFIX.$i.data"
	ok
done
B="$TMP/b.1.data $TMP/b.2.data $TMP/b.3.data"
N="$TMP/n.1.data $TMP/n.2.data $TMP/n.3.data"
# shellcheck disable=SC2086
run "$CYCTOP" diff -f csv -b $B -- $N
expect_rc 0 "diff -b csv"
cp "$TMP/out" "$TMP/r.csv"
expect_sig "$TMP/r.csv" work_half yes
check_z "$TMP/r.csv" work_half -0.5 20
# shellcheck disable=SC2086
formats_agree -b $B -- $N
grep -q '^# method: runs' "$TMP/agree.txt" || fail "text: no runs method line"
grep -q '"method": "runs"' "$TMP/agree.json" || fail "json: method not runs"
ok
check_shares "$TMP/agree.json"

# one run against several: no honest interval, refused
run "$CYCTOP" diff -b "$TMP/base.data" -- "$TMP/n.1.data" "$TMP/n.2.data"
expect_rc 1 "one run against two"
expect_err "one a side, or two or more a side"
run "$CYCTOP" diff "$TMP/base.data" "$EX/core2-handmade.counts"
expect_rc 2 "a session against a counts file"

# the program is the target's first executable mapping in time: a record
# that came late to a recording's writer is after later ones in the file
lib=$(ldd "$W/mix" 2>/dev/null | awk '$1 ~ /^\// { print $1; exit }')
if [ -n "$lib" ] && command -v nm >/dev/null; then
	python3 "$SRCDIR/tests/e2e/mk-perfdata.py" late-map "$TMP/lm.data" "$W/mix" "$lib" ||
		fail "mk-perfdata.py late-map"
	run "$CYCTOP" diff "$TMP/lm.data" "$TMP/lm.data"
	expect_rc 0 "diff of a file with a late mapping"
	expect_out ", program mix," "the program, not $lib"
else
	skip_part "no dynamic loader named by ldd, or no nm: the late mapping"
fi

# --- a tree diff of two counts files --------------------------------------
sed -e 's/^CPU_CLK_UNHALTED.CORE,.*/CPU_CLK_UNHALTED.CORE,800000000/' \
	-e 's/^RS_UOPS_DISPATCHED.CYCLES_NONE,.*/RS_UOPS_DISPATCHED.CYCLES_NONE,250000000/' \
	-e 's/^MEM_LOAD_RETIRED.L2_LINE_MISS,150,10000/MEM_LOAD_RETIRED.L2_LINE_MISS,90,10000/' \
	"$EX/core2-handmade.counts" >"$TMP/new.counts"
run "$CYCTOP" diff -f csv "$EX/core2-handmade.counts" "$TMP/new.counts"
expect_rc 0 "tree diff"
cp "$TMP/out" "$TMP/t.csv"
[ "$(field "$TMP/t.csv" tree cycles delta)" = "-200000000" ] || fail "cycles delta: $(cat "$TMP/t.csv")"
ok
[ "$(field "$TMP/t.csv" tree cpi additive)" = "no" ] || fail "cpi (a ratio) marked additive"
ok
# every additive node: its parts' deltas add up to its delta (its parts:
# its children in its unit; ilp.mean, in uops/cycle, is not one of ilp's)
n=$(awk -F, 'NR > 1 { d[$2] = $7; u[$2] = $4; pa[$2] = $3; if ($16 == "yes") add[$2] = 1 }
	END { for (id in d) if (u[id] == u[pa[id]]) sum[pa[id]] += d[id]
	      n = 0
	      for (id in add) { n++; e = sum[id] - d[id]; if (e < 0) e = -e
				if (e > 1e-6 * (d[id] < 0 ? -d[id] : d[id]) + 1e-6) { print "BAD " id; exit } }
	      print n }' "$TMP/t.csv")
case "$n" in
BAD*) fail "parts' deltas do not add up: $n: $(cat "$TMP/t.csv")" ;;
esac
[ "$n" -ge 2 ] || fail "only $n additive nodes: $(cat "$TMP/t.csv")"
ok
run "$CYCTOP" diff -f json "$EX/core2-handmade.counts" "$TMP/new.counts"
expect_rc 0 "tree diff json"
expect_out '"method": "none"'
expect_out '{"id": "cycles.stalls", "parent": "cycles"'

done_ok

#!/bin/sh
# Journey: what the user reads means what it says (issue 39, items 10 and
# 12).  A C++ program with two hot overloads of one name (2:1), built here
# with g++, recorded by cyctop record, then:
# - cyctop -b -i, text and JSON: two rows told apart by their parameters,
#   each with perf report's share (perf report -v names them so) of the
#   same file, within 5 binomial sd;
# - cyctop annotate NAME: lists both (parameters, addresses) and exits 2;
#   with one overload's full name it opens it, its samples column summing
#   to the sample count perf annotate gives that overload, its periods
#   named by their unit (ns); --every takes both and says so;
# - cyctop annotate of a name not in the recording: says so, names the
#   closest, exits 2 (no --symfs advice);
# - the pprof of a launched program names the program as its main binary
#   in go tool pprof -top's header.
. "$SRCDIR/tests/e2e/lib.sh"

command -v g++ >/dev/null 2>&1 || { echo "SKIP: no g++"; exit 77; }
command -v perf >/dev/null 2>&1 || { echo "SKIP: perf is not installed"; exit 77; }

cat >"$TMP/ovl.cc" <<'EOF'
#include <cstdio>
#include <cstdlib>
#include <ctime>
namespace work {
__attribute__((noinline)) long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += (i * i) ^ s;
	return s;
}
__attribute__((noinline)) long spin(double x)
{
	long s = 0;
	for (long i = 0; i < (long)x; i++)
		s += (i * i) ^ s;
	return s;
}
}
static double now()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1, t0 = now();
	long s = 0;
	while (now() - t0 < secs) {
		s += work::spin(200000L);
		s += work::spin(100000.0);
	}
	printf("%ld\n", s & 1);
	return 0;
}
EOF
g++ -O2 -g -o "$TMP/ovl" "$TMP/ovl.cc" || fail "g++ ovl.cc"
LONG='work::spin(long)' DOUBLE='work::spin(double)'

# --- record, then the table: two rows -------------------------------------
run "$CYCTOP" record -o "$TMP/f.data" -- "$TMP/ovl" 2
expect_rc 0 "cyctop record"
run "$CYCTOP" -b -i "$TMP/f.data"
expect_rc 0 "cyctop -b -i (text)"
expect_out "$LONG" "text: the long overload's row"
expect_out "$DOUBLE" "text: the double overload's row"
grep -qE ' work::spin +/' "$TMP/out" && fail "text: a row of both overloads: $(cat "$TMP/out")"
ok
run "$CYCTOP" -b -i "$TMP/f.data" --format json
expect_rc 0 "cyctop -b -i --format json"
cp "$TMP/out" "$TMP/f.json"
perf report -v -i "$TMP/f.data" --stdio --sort sym >"$TMP/perf.txt" 2>"$TMP/err" ||
	fail "perf report: $(cat "$TMP/err")"
python3 - "$TMP/f.json" "$TMP/perf.txt" "$LONG" "$DOUBLE" <<'PY' || fail "shares against perf report"
import json, math, re, sys
o = json.loads(open(sys.argv[1]).readline())
ev = o["events"][0]["name"]
n = o["events"][0]["samples"]
mine = {f["name"]: f["percent"][ev] for f in o["functions"]}
perf = {}
for l in open(sys.argv[2]):
    m = re.match(r"\s*([0-9.]+)%.*\[\.\] (.*\S)\s*$", l)
    if m:
        perf[m.group(2)] = perf.get(m.group(2), 0) + float(m.group(1))
bad = []
for name in sys.argv[3:5]:
    if name not in mine or name not in perf:
        bad.append("%s: cyctop %s, perf %s" % (name, mine.get(name), perf.get(name)))
        continue
    p = perf[name] / 100
    sd = 100 * math.sqrt(max(p * (1 - p), 1.0 / n) / n)
    print("%s: cyctop %.2f%%, perf report %.2f%% (5 sd %.2f, %d samples)" %
          (name, mine[name], perf[name], 5 * sd, n), file=sys.stderr)
    if abs(mine[name] - perf[name]) > 5 * sd:
        bad.append("%s: cyctop %.2f%%, perf %.2f%%" % (name, mine[name], perf[name]))
if "work::spin" in mine:
    bad.append("a row 'work::spin' of both")
if mine.get(sys.argv[3], 0) < 1.5 * mine.get(sys.argv[4], 0):
    bad.append("long %.1f%% not about twice double %.1f%%" % (mine.get(sys.argv[3], 0),
                                                             mine.get(sys.argv[4], 0)))
if bad:
    print("; ".join(bad), file=sys.stderr)
    sys.exit(1)
PY
ok

# --- annotate: which one? ------------------------------------------------
run "$CYCTOP" annotate work::spin -i "$TMP/f.data"
expect_rc 2 "annotate of two functions' name"
expect_err "names 2 functions" "annotate says the name is two functions"
expect_err "$LONG" "annotate lists the long overload"
expect_err "$DOUBLE" "annotate lists the double overload"
grep -qE "spin\(long\) .* 0x[0-9a-f]+ " "$TMP/err" || fail "no address in the list: $(cat "$TMP/err")"
ok
[ ! -s "$TMP/out" ] || fail "annotate asking which printed rows: $(head -3 "$TMP/out")"
ok
run "$CYCTOP" annotate work::spin --every -i "$TMP/f.data"
expect_rc 0 "annotate --every"
expect_err "each follows" "--every says it takes both"
[ "$(grep -c '^# work::spin(' "$TMP/out")" -eq 2 ] || fail "--every: not two functions: $(grep '^# work' "$TMP/out")"
ok

# the chosen overload: its samples are perf annotate's
run "$CYCTOP" annotate "$LONG" -i "$TMP/f.data" --format json
expect_rc 0 "annotate $LONG"
cp "$TMP/out" "$TMP/long.json"
perf annotate -i "$TMP/f.data" --stdio -s work::spin >"$TMP/annotate.txt" 2>"$TMP/err" ||
	fail "perf annotate: $(cat "$TMP/err")"
python3 - "$TMP/long.json" "$TMP/annotate.txt" "$LONG" <<'PY' || fail "annotate's samples against perf annotate"
import json, re, sys
o = json.load(open(sys.argv[1]))
ev = o["events"][0]
mine = sum(i["samples"][ev["name"]] for i in o["instructions"])
period = sum(i["period"][ev["name"]] for i in o["instructions"])
count, perf = None, {}
for l in open(sys.argv[2]):
    m = re.search(r"\((\d+) samples, ", l)
    if m:
        count = int(m.group(1))
    m = re.search(r"[0-9a-f]+ <(.*)>:$", l)
    if m and count is not None:
        perf.setdefault(m.group(1), count)
want = perf.get(sys.argv[3])
print("%s: cyctop %d samples (%d %s), perf annotate %s" %
      (sys.argv[3], mine, period, ev["unit"], want), file=sys.stderr)
bad = []
if o["function"] != sys.argv[3]:
    bad.append("opened %s" % o["function"])
if want is None or mine != want or ev["samples"] != want:
    bad.append("samples %d (event %d), perf annotate %s" % (mine, ev["samples"], want))
if ev["unit"] != "ns" or period != ev["period"] or period <= mine:
    bad.append("periods %d %s, event %d" % (period, ev["unit"], ev["period"]))
if bad:
    print("; ".join(bad), file=sys.stderr)
    sys.exit(1)
PY
ok
run "$CYCTOP" annotate "$LONG" -i "$TMP/f.data"
expect_rc 0 "annotate $LONG (text)"
grep -qE '^# [^ ]+: sav [0-9]+, [0-9]+ samples here of [0-9]+ \([0-9]+ ns here of [0-9]+\)' "$TMP/out" ||
	fail "text head: samples and ns apart: $(head -3 "$TMP/out")"
ok

# --- a name not in the recording --------------------------------------
run "$CYCTOP" annotate nosuch -i "$TMP/f.data"
expect_rc 2 "annotate nosuch"
expect_err "no function 'nosuch' in the recording" "annotate nosuch says it is not recorded"
grep -q -- "--symfs" "$TMP/err" && fail "annotate nosuch suggests --symfs: $(cat "$TMP/err")"
ok
run "$CYCTOP" annotate work::spn -i "$TMP/f.data"
expect_rc 2 "annotate of a typo"
expect_err "the closest: '$LONG', '$DOUBLE'" "a typo's closest names"

# --- pprof: the program is the main binary ------------------------------
if command -v go >/dev/null 2>&1; then
	export GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GOFLAGS= GO111MODULE=off GOPROXY=off
	export HOME="$TMP"
	run "$CYCTOP" -b --format pprof -o "$TMP/p.pb.gz" -- "$TMP/ovl" 0.5
	expect_rc 0 "cyctop -b --format pprof -- ovl"
	go tool pprof -top "$TMP/p.pb.gz" >"$TMP/top.txt" 2>"$TMP/err" ||
		fail "go tool pprof -top: $(cat "$TMP/err")"
	[ "$(head -n 1 "$TMP/top.txt")" = "File: ovl" ] ||
		fail "pprof's main binary: '$(head -n 1 "$TMP/top.txt")', want 'File: ovl'"
	ok
else
	skip_part "pprof's main binary: no go (build.sh deps installs golang-go)"
fi
done_ok

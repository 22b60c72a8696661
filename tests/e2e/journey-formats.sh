#!/bin/sh
# Journey: every machine format on stdout, with a launched program that
# prints to its stdout and stderr, read by the format's real consumer:
# json by python3's json module line by line, csv by its csv module, the
# folded stacks by FlameGraph's rules (frame;frame;... COUNT, no other
# lines), pprof by gzip -t and go tool pprof -top, the SVG by xml.etree and
# by Chromium headless; cyctop annotate's json and csv the same.  The
# program's lines must all be on stderr, none in the format (cyctop(1),
# --child-output).  Text keeps the program's stdout on stdout, as before.
. "$SRCDIR/tests/e2e/lib.sh"

SPIN="$WORKLOADS/spin"
# a program that talks: two lines on stdout around the work, one on stderr
PROG="echo PROGRAM-SAYS-HELLO; \"$SPIN\" 6000; echo PROGRAM-SAYS-BYE; echo PROGRAM-ERR >&2"

# watch FORMAT [OPTIONS...]: cyctop -b on the talking program
watch() {
	_f=$1
	shift
	run "$CYCTOP" -b -d 0.3 -e "$TEST_EVENT" --format "$_f" "$@" -- sh -c "$PROG"
	expect_rc 0 "--format $_f"
	cp "$TMP/out" "$TMP/out.$_f"
}

# the program's three lines on stderr, none on stdout
apart() { # WHAT
	for l in PROGRAM-SAYS-HELLO PROGRAM-SAYS-BYE PROGRAM-ERR; do
		grep -qx "$l" "$TMP/err" || fail "$1: the program's '$l' not on stderr: $(cat "$TMP/err")"
	done
	if grep -a -q PROGRAM- "$TMP/out"; then
		fail "$1: the program's output is in stdout: $(grep -a -n PROGRAM- "$TMP/out")"
	fi
	ok
}

# json: every line one JSON document, as python3 -m json.tool reads it
json_lines() { # FILE WHAT
	[ -s "$1" ] || fail "$2: empty"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' "$line" | python3 -m json.tool >/dev/null 2>"$TMP/jt.err" ||
			fail "$2: line $n is no JSON ($(cat "$TMP/jt.err")): $(printf '%s' "$line" | head -c 200)"
	done <"$1"
	ok
}

# csv: Python's reader, every row as wide as the header, numbers numbers
csv_table() { # FILE WHAT FUNCTION
	python3 - "$1" "$3" <<'PY' || fail "$2: not a CSV table: $(head -c 400 "$1")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert body, "no rows"
for r in body:
    if r == head:
        continue  # a table per refresh may repeat the header
    assert len(r) == len(head), (head, r)
assert any(sys.argv[2] in r for r in body), "no row of " + sys.argv[2]
PY
	ok
}

watch json
apart "json"
json_lines "$TMP/out.json" "json"
expect_true "$(json_last "$TMP/out.json" 'o["functions"][0]["name"].startswith("spin_")')" \
	"json: the program's hottest function: $(tail -n 1 "$TMP/out.json" | head -c 300)"

watch csv
apart "csv"
csv_table "$TMP/out.csv" "csv" spin_hot

# folded: FlameGraph's stackcollapse output, which flamegraph.pl reads:
# each line frames joined by ';', a space, a whole count; nothing else
watch folded -g
apart "folded"
python3 - "$TMP/out.folded" <<'PY' || fail "folded: not FlameGraph's format"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[-1] == "", "no final newline"
lines = lines[:-1]
assert lines, "no stacks"
for i, l in enumerate(lines, 1):
    m = re.fullmatch(r"([^\n]+) (\d+)", l)
    assert m and all(f for f in m.group(1).split(";")), "line %d: %r" % (i, l)
assert any("spin_hot" in l for l in lines), "no stack of spin_hot"
PY
ok

# pprof: a gzip stream go tool pprof reads (offline: no network, no cache)
watch pprof
apart "pprof"
gzip -t "$TMP/out.pprof" 2>"$TMP/gz.err" || fail "pprof: gzip -t: $(cat "$TMP/gz.err")"
ok
if command -v go >/dev/null 2>&1; then
	export GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" GOFLAGS= GO111MODULE=off GOPROXY=off
	HOME="$TMP" go tool pprof -top "$TMP/out.pprof" >"$TMP/top.txt" 2>"$TMP/go.err" ||
		fail "go tool pprof -top: $(tail -n 3 "$TMP/go.err")"
	grep -q "spin_hot" "$TMP/top.txt" || fail "go tool pprof -top: no spin_hot: $(cat "$TMP/top.txt")"
	ok
else
	skip_part "go tool pprof: no go (build.sh deps installs golang-go)"
fi

# flame: an SVG document an XML parser takes whole, and a browser draws
watch flame -g
apart "flame"
python3 - "$TMP/out.flame" <<'PY' || fail "flame: not an SVG document"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
assert "spin_hot" in open(sys.argv[1]).read(), "no frame of spin_hot"
PY
ok
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$BROWSER" ]; then
	cp "$TMP/out.flame" "$TMP/flame.svg"
	# --no-sandbox: the tests may run as root, where Chromium's sandbox refuses
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$TMP/flame.svg" \
		>"$TMP/dom.txt" 2>"$TMP/chromium.err" || fail "chromium: $(tail -n 3 "$TMP/chromium.err")"
	grep -q "parsererror" "$TMP/dom.txt" && fail "chromium: the SVG does not parse: $(head -c 500 "$TMP/dom.txt")"
	grep -q "spin_hot" "$TMP/dom.txt" || fail "chromium: no frame in the DOM"
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP/chromium" --window-size=1200,800 \
		--screenshot="$TMP/flame.png" "file://$TMP/flame.svg" >/dev/null 2>"$TMP/chromium.err" ||
		fail "chromium --screenshot: $(tail -n 3 "$TMP/chromium.err")"
	[ -s "$TMP/flame.png" ] || fail "chromium --screenshot wrote no picture"
	ok
else
	skip_part "the SVG in a browser: no chromium (apt-get install chromium)"
fi

# --child-output still says otherwise: the program's output in a file
run "$CYCTOP" -b -d 0.3 -e "$TEST_EVENT" --format json --child-output "$TMP/prog.out" \
	-- sh -c "$PROG"
expect_rc 0 "--child-output FILE"
grep -q PROGRAM- "$TMP/out" "$TMP/err" && fail "--child-output FILE: the program's lines not in FILE"
[ "$(grep -c PROGRAM- "$TMP/prog.out")" -eq 3 ] || fail "--child-output FILE: $(cat "$TMP/prog.out")"
ok

# cyctop annotate's machine formats: the same
for f in json csv; do
	run "$CYCTOP" annotate spin_hot -e "$TEST_EVENT" --format $f -- sh -c "$PROG"
	expect_rc 0 "annotate --format $f"
	apart "annotate --format $f"
	cp "$TMP/out" "$TMP/ann.$f"
done
json_lines "$TMP/ann.json" "annotate json"
python3 - "$TMP/ann.csv" <<'PY' || fail "annotate csv: not a CSV table: $(head -c 400 "$TMP/ann.csv")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) > 1 and all(len(r) == len(rows[0]) for r in rows), rows[:3]
PY
ok

# text is for people: the program's stdout stays where a shell puts it
run "$CYCTOP" -b -d 0.3 -e "$TEST_EVENT" -- sh -c "$PROG"
expect_rc 0 "text"
expect_out "PROGRAM-SAYS-HELLO" "text: the program's stdout on stdout"
expect_err "PROGRAM-ERR" "text: the program's stderr on stderr"

done_ok

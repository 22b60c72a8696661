#!/bin/sh
# The flame graph under tmux (tests/e2e/tui.sh's way) and --format flame:
#  1. a hand-made Core2 session with stacks (tests/e2e/mk-session -s with
#     callers) on workloads/callers' functions: main calls caller_a (200
#     cycles samples, 400 instructions samples) and caller_b (100, 50), both
#     call leaf_work; the periods make CPI 5 under caller_a and 20 under
#     caller_b.  f opens the icicle; the boxes' widths are exact (floor of
#     samples x columns / total); the two callers get different colour
#     pairs under CPI (total) and the same under CPI (self), where neither
#     has a value; the legend; arrows, Enter zooms and Backspace zooms out;
#     / sums the matches' share; Enter on a leaf opens its asm view; the
#     mono theme shades.  Its SVG: CPI in the titles, two colours.  A
#     session without stacks: f and --format flame say so.
#  2. a recording of the 2:1 callers workload (cyctop record -g): caller_a's
#     box twice caller_b's within one cell plus the statistics' tolerance,
#     each as wide as its samples say; the SVG of --format flame is
#     well-formed XML whose frames' titles and widths match the folded
#     stacks and the JSON's children shares.
#  3. a live -g watch: the zoom and the selected frame stay across
#     refreshes while the samples grow; B marks a baseline and m then
#     offers baseline-delta.
#  1b (between 1 and 2): hand-made sessions for tree-node-fraction (Core2
#     stall cycles: exact shares) and baseline-delta (-i NEW --baseline
#     BASE: exact deltas), in the view and the SVG; FLAME_SHOTS=DIR keeps
#     pictures of them (doc/figures).
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

CALLERS="$WORKLOADS/callers"
MK="$(dirname "$CYCTOP")/tests/e2e/mk-session"
BOXES="$SRCDIR/tests/e2e/flame-boxes.py"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is required"; exit 77; }

# boxes: the pane's boxes (ROW X WIDTH NAME STYLE), the escapes read
boxes() { T capture-pane -p -e -N -t main | python3 "$BOXES"; }
# box NAME FIELD [N]: field FIELD (2 x, 3 width, 5 style) of the Nth box named NAME
box() { boxes | awk -v n="$1" -v f="$2" -v k="${3:-1}" '$4 == n && ++i == k { print $f }'; }
# the footer: the selected frame's line (above the status line)
foot() { screen | tail -n 2 | head -n 1; }
expect_eq() { # GOT WANT DESC
	[ "$1" = "$2" ] || { screen_dump >&2; boxes >&2; fail "$3: '$1', want '$2'"; }
	ok
}

# --- 1. a hand-made session: exact widths, colours by metric ------------
cat >"$TMP/h.counts" <<EOF
CPU_CLK_UNHALTED.CORE,300000000
INST_RETIRED.ANY_P,45000000
EOF
cat >"$TMP/h.samples" <<EOF
# EVENT,FUNCTION+0xOFF,COUNT,CALLERS (innermost first)
CPU_CLK_UNHALTED.CORE,leaf_work,200,caller_a;main
CPU_CLK_UNHALTED.CORE,leaf_work,100,caller_b;main
INST_RETIRED.ANY_P,leaf_work,400,caller_a;main
INST_RETIRED.ANY_P,leaf_work,50,caller_b;main
EOF
run "$MK" -s "$TMP/h.samples" "$TMP/h.data" core "GenuineIntel,6,23,10" "$TMP/h.counts" "$CALLERS"
expect_rc 0 "mk-session with stacks"
run "$CYCTOP" -b -i "$TMP/h.data" --format folded
expect_rc 0 "folded stacks of the hand-made session"
expect_out "main;caller_a;leaf_work 200" "caller_a's stack"
expect_out "main;caller_b;leaf_work 100" "caller_b's stack"

# the SVG of the same session: CPI in the titles, two colours
run "$CYCTOP" -b -i "$TMP/h.data" --format flame --flame-metric CPI
expect_rc 0 "--format flame --flame-metric CPI"
python3 - "$TMP/out" <<'PY' || fail "the hand-made session's SVG"
import sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
fill = {}
for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g"):
    title = g.find(NS + "title").text
    fill[title] = g.find(NS + "rect").get("fill")
a = "caller_a (200 samples, 66.67%, CPI CPU_CLK_UNHALTED.CORE/INST_RETIRED.ANY_P (total) 5)"
b = "caller_b (100 samples, 33.33%, CPI CPU_CLK_UNHALTED.CORE/INST_RETIRED.ANY_P (total) 20)"
assert a in fill and b in fill, list(fill)
assert fill[a] != fill[b], fill
PY
ok
# without stacks: the view and the SVG say so
printf 'CPU_CLK_UNHALTED.CORE,leaf_work,10\nINST_RETIRED.ANY_P,leaf_work,10\n' >"$TMP/nostack.samples"
run "$MK" -s "$TMP/nostack.samples" "$TMP/nostack.data" core "GenuineIntel,6,23,10" "$TMP/h.counts" "$CALLERS"
expect_rc 0 "mk-session without stacks"
run "$CYCTOP" -b -i "$TMP/nostack.data" --format flame
expect_rc 2 "--format flame of a session without stacks"
expect_err "--format flame: no call stacks in this session" "said"
run "$CYCTOP" -b --format flame -e cpu-clock -- "$CALLERS" 1
expect_rc 2 "--format flame without -g"
expect_err "--format flame needs -g" "said"

start 120 24
type_line "'$CYCTOP' -i '$TMP/nostack.data'; echo NOSTACK-\$?"
wait_screen "leaf_work" "hotspots without stacks"
T send-keys -t main f
wait_screen "flame: no call stacks: run with -g" "f without stacks"
T send-keys -t main q
wait_screen "NOSTACK-0" "q quits"

type_line "clear; '$CYCTOP' -i '$TMP/h.data'; echo EXIT-\$?"
wait_screen "leaf_work" "hotspots of the hand-made session"
T send-keys -t main f
wait_screen "flame graph of CPU_CLK_UNHALTED.CORE: 300 samples" "f opens the flame graph"
wait_screen "colour: CPI CPU_CLK_UNHALTED.CORE/INST_RETIRED.ANY_P (total)" "CPI by default"
# 200 and 100 of 300 samples in 120 columns: 80 and 40
expect_eq "$(box caller_a 3)" 80 "caller_a's width"
expect_eq "$(box caller_b 2)" 80 "caller_b's x"
expect_eq "$(box caller_b 3)" 40 "caller_b's width"
expect_eq "$(box main 3)" 120 "main's width"
A=$(box caller_a 5)
B=$(box caller_b 5)
[ -n "$A" ] && [ "$A" != "$B" ] || { boxes >&2; fail "CPI 5 and 20 in one colour pair: '$A' '$B'"; }
ok
expect_eq "$(box leaf_work 5 1)" "$A" "leaf_work under caller_a coloured as caller_a"
expect_eq "$(box leaf_work 5 2)" "$B" "leaf_work under caller_b coloured as caller_b"
# the legend: from CPI 5 to 20
screen | grep -q "colour: CPI.* 5 .*to 20" || { screen_dump >&2; fail "legend 5 .. 20"; }
ok
# the value of the selected frame: down to main, caller_a; right: caller_b
T send-keys -t main Down Down
wait_for 'foot | grep -q "^caller_a  200 samples .*  colour 5  "' 10 "caller_a selected, CPI 5"
ok
T send-keys -t main Right
wait_for 'foot | grep -q "^caller_b  100 samples  33.33% of all.*  colour 20  "' 10 "Right: caller_b, CPI 20"
ok
# m: CPI (self): neither caller has self samples, one colour for both
T send-keys -t main m
wait_screen "colour: CPI CPU_CLK_UNHALTED.CORE/INST_RETIRED.ANY_P (self)" "m: CPI (self)"
T send-keys -t main Left
wait_for 'foot | grep -q "^caller_a "' 10 "Left: caller_a"
ok
expect_eq "$(box caller_b 5)" "$(box main 5)" "no value: caller_b as main"
[ "$(box leaf_work 5 1)" != "$(box leaf_work 5 2)" ] || { boxes >&2; fail "self CPI 5 and 20 of the leaves in one pair"; }
ok
# m cycles back to none (by name) after the per-1000 metrics
T send-keys -t main m m m
wait_screen "colour: none (by name)" "m cycles to by name"
T send-keys -t main m
wait_screen "colour: CPI CPU_CLK_UNHALTED.CORE/INST_RETIRED.ANY_P (total)" "and round"

# Enter zooms into caller_b: full width, caller_a gone; Backspace back
T send-keys -t main Right Enter
wait_screen "zoomed: caller_b" "Enter zooms into caller_b"
expect_eq "$(box caller_b 3)" 120 "caller_b full width"
expect_eq "$(box leaf_work 3)" 120 "its leaf full width"
[ -z "$(box caller_a 3)" ] || { boxes >&2; fail "caller_a shown in caller_b's zoom"; }
ok
T send-keys -t main BSpace
wait_for '! screen | grep -q zoomed' 10 "Backspace zooms out"
ok
expect_eq "$(box caller_a 3)" 80 "caller_a back"
foot | grep -q "^caller_b " || { screen_dump >&2; fail "caller_b still selected after zooming out"; }
ok

# / leaf_work: both leaves highlighted, their share 100%
T send-keys -t main / l e a f _ w o r k Enter
wait_for 'foot | grep -q "/leaf_work: 100.00%"' 10 "search sums leaf_work's share"
ok
[ "$(box leaf_work 5 1)" = "$(box leaf_work 5 2)" ] &&
	[ "$(box leaf_work 5 1)" != "$A" ] || { boxes >&2; fail "matches highlighted alike"; }
ok
T send-keys -t main / c a l l e r _ b Enter
wait_for 'foot | grep -q "/caller_b: 33.33%"' 10 "search caller_b: 33.33%"
ok

# Enter on a leaf: its asm view; back to the flame graph
T send-keys -t main Down Enter
wait_for '! screen | grep -q "flame graph of"' 10 "Enter on leaf_work leaves the flame graph"
ok
screen | grep -q "leaf_work" || { screen_dump >&2; fail "asm view of leaf_work"; }
ok
T send-keys -t main BSpace
wait_screen "flame graph of" "back from asm to the flame graph"

# the mono theme: the top of the scale shaded (leaf_work under caller_b,
# CPI 20), the bottom blank (caller_a, CPI 5)
T send-keys -t main T T
wait_screen "theme mono" "mono theme"
T send-keys -t main Up
wait_for 'foot | grep -q "^caller_b "' 10 "Up: caller_b"
ok
screen | grep -q "leaf_work *▏leaf_work▓▓▓" || { screen_dump >&2; fail "mono: shading at the top of the scale"; }
ok
T send-keys -t main q q
wait_screen "EXIT-0" "q q quits"

# --- 1b. the tree's and the baseline's colours, hand-made ----------------
# t.data: Core2 stall cycles (RS_UOPS_DISPATCHED.CYCLES_NONE) beside the
# cycles, 100 of 200 under caller_a, 75 of 100 under caller_b: the tree's
# cycles.stalls is 50% and 75% of the frames' cycles.  n.data against
# b.data (the baseline): caller_a 100 cycles samples (was 200), caller_b
# 150 (was 100), 1e6 cycles a sample: caller_a shrank by 1e8 cycles,
# caller_b grew by 5e7, main shrank by 5e7.
printf 'CPU_CLK_UNHALTED.CORE,300000000\nRS_UOPS_DISPATCHED.CYCLES_NONE,175000000\n' >"$TMP/t.counts"
cat >"$TMP/t.samples" <<EOF
CPU_CLK_UNHALTED.CORE,leaf_work,200,caller_a;main
CPU_CLK_UNHALTED.CORE,leaf_work,100,caller_b;main
RS_UOPS_DISPATCHED.CYCLES_NONE,leaf_work,100,caller_a;main
RS_UOPS_DISPATCHED.CYCLES_NONE,leaf_work,75,caller_b;main
EOF
printf 'CPU_CLK_UNHALTED.CORE,300000000\n' >"$TMP/b.counts"
printf 'CPU_CLK_UNHALTED.CORE,leaf_work,200,caller_a;main\nCPU_CLK_UNHALTED.CORE,leaf_work,100,caller_b;main\n' >"$TMP/b.samples"
printf 'CPU_CLK_UNHALTED.CORE,250000000\n' >"$TMP/n.counts"
printf 'CPU_CLK_UNHALTED.CORE,leaf_work,100,caller_a;main\nCPU_CLK_UNHALTED.CORE,leaf_work,150,caller_b;main\n' >"$TMP/n.samples"
for s in t b n; do
	run "$MK" -s "$TMP/$s.samples" "$TMP/$s.data" core "GenuineIntel,6,23,10" "$TMP/$s.counts" "$CALLERS"
	expect_rc 0 "mk-session $s"
done
# svg_frames SVG: "TITLE<tab>FILL" a frame
svg_frames() {
	python3 -c 'import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g"):
    if g.get("class") == "f":
        print(g.find(NS + "title").text + "\t" + g.find(NS + "rect").get("fill"))' "$1"
}
# fill TITLE-START: the fill of the first frame of $TMP/out whose title starts so
fill() { svg_frames "$TMP/out" | awk -F'\t' -v t="$1" 'index($1, t) == 1 && !n++ { print $2 }'; }
# pictures for people (not compared), with FLAME_SHOTS=DIR (doc/figures):
# the pane as text and, with Chromium, as a PNG (tests/e2e/pane-html.py); an
# SVG and its rendering
BROWSER=$(command -v chromium || command -v chromium-browser || true)
screenshot() { # URL PNG WIDTH HEIGHT
	[ -n "$BROWSER" ] || return 0
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP/chromium" --window-size="$3,$4" --screenshot="$2" "$1" \
		>/dev/null 2>&1 || true
}
shot_pane() { # NAME WIDTH HEIGHT
	[ -n "${FLAME_SHOTS:-}" ] || return 0
	T capture-pane -p -t main >"$FLAME_SHOTS/$1.txt"
	T capture-pane -p -e -N -t main | python3 "$SRCDIR/tests/e2e/pane-html.py" >"$TMP/$1.html"
	screenshot "file://$TMP/$1.html" "$FLAME_SHOTS/$1.png" "$2" "$3"
}
shot_svg() { # SVG NAME
	[ -n "${FLAME_SHOTS:-}" ] || return 0
	cp "$1" "$FLAME_SHOTS/$2.svg"
	# on the SVG's background: Chromium draws a short window's lower part
	# blank, so the window is taller than the picture
	printf '<html><body style="margin:0;background:rgb(250,250,240)"><img src="%s"></body></html>' \
		"file://$FLAME_SHOTS/$2.svg" >"$TMP/$2.html"
	screenshot "file://$TMP/$2.html" "$FLAME_SHOTS/$2.png" 1200 \
		$(($(sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$1") + 100))
}
run "$CYCTOP" -b -i "$TMP/t.data" --format flame --flame-metric tree-node-fraction
expect_rc 0 "--flame-metric tree-node-fraction"
cp "$TMP/out" "$TMP/tree.svg"
shot_svg "$TMP/tree.svg" flame-svg-tree
expect_out "caller_a (200 samples, 66.67%, tree-node-fraction cycles.stalls / cycles [core2] (total) 50)" "caller_a's stall share 50%"
expect_out "caller_b (100 samples, 33.33%, tree-node-fraction cycles.stalls / cycles [core2] (total) 75)" "caller_b's stall share 75%"
expect_out "main (300 samples, 100.00%, tree-node-fraction cycles.stalls / cycles [core2] (total) 58.33)" "main's 175 of 300"
[ "$(fill "caller_a (")" != "$(fill "caller_b (")" ] || { svg_frames "$TMP/out" >&2; fail "50% and 75% in one colour"; }
ok
run "$CYCTOP" -b -i "$TMP/n.data" --format flame --flame-metric baseline-delta
expect_rc 2 "baseline-delta without --baseline"
expect_err "--flame-metric baseline-delta: not one of" "said"
run "$CYCTOP" -b -i "$TMP/n.data" --baseline "$TMP/b.data" --format json
expect_rc 2 "--baseline in batch outside --format flame"
expect_err "in batch: cyctop diff BASE NEW" "said"
run "$CYCTOP" -b -i "$TMP/n.data" --baseline "$TMP/b.data" --format flame --flame-metric baseline-delta
expect_rc 0 "--format flame --baseline --flame-metric baseline-delta"
cp "$TMP/out" "$TMP/delta.svg"
expect_out "caller_a (100 samples, 40.00%, baseline-delta CPU_CLK_UNHALTED.CORE (total) -1e+08)" "caller_a shrank by 1e8 cycles"
expect_out "caller_b (150 samples, 60.00%, baseline-delta CPU_CLK_UNHALTED.CORE (total) 5e+07)" "caller_b grew by 5e7"
expect_out "main (250 samples, 100.00%, baseline-delta CPU_CLK_UNHALTED.CORE (total) -5e+07)" "main shrank by 5e7"
# red grew, blue shrank, on the largest |delta| (1e8): caller_a full
# blue, caller_b half red
expect_eq "$(fill "caller_a (")" "rgb(55,55,255)" "caller_a: blue, the largest shrink"
expect_eq "$(fill "caller_b (")" "rgb(255,155,155)" "caller_b: red, half the largest"
shot_svg "$TMP/delta.svg" flame-svg-delta
run "$CYCTOP" -b -i "$TMP/n.data" --baseline "$TMP/nosuch.data" --format flame
expect_rc 1 "--baseline a missing file"
expect_err "nosuch.data" "the file named"

start 120 24
type_line "clear; '$CYCTOP' -i '$TMP/t.data'; echo EXIT-\$?"
wait_screen "leaf_work" "hotspots of t.data"
T send-keys -t main f
wait_screen "colour: RS_UOPS_DISPATCHED.CYCLES_NONE per 1000" "the first metric"
T send-keys -t main m m
wait_screen "colour: tree-node-fraction cycles.stalls / cycles [core2] (total)" "m m: the tree's stall share"
screen | grep -q "colour: tree-node-fraction.* 50 .*to 75" || { screen_dump >&2; fail "legend 50 .. 75"; }
ok
A=$(box caller_a 5)
B=$(box caller_b 5)
[ -n "$A" ] && [ "$A" != "$B" ] || { boxes >&2; fail "stall shares 50% and 75% in one colour pair: '$A' '$B'"; }
ok
T send-keys -t main Down Down
wait_for 'foot | grep -q "^caller_a  200 samples .*  colour 50  "' 10 "caller_a: 50%"
ok
T send-keys -t main Right
wait_for 'foot | grep -q "^caller_b  100 samples .*  colour 75  "' 10 "caller_b: 75%"
ok
shot_pane flame-view-tree 960 390
T send-keys -t main q q
wait_screen "EXIT-0" "q q quits t.data"

start 150 24   # the whole metric's name beside the delta scale
type_line "clear; '$CYCTOP' -i '$TMP/n.data' --baseline '$TMP/b.data'; echo EXIT-\$?"
wait_screen "leaf_work" "hotspots of n.data against b.data"
T send-keys -t main f
wait_screen "colour: baseline-delta CPU_CLK_UNHALTED.CORE (total)" "baseline-delta by default with a baseline"
# the legend's buckets, a third of the largest |delta| each: caller_a's
# -1e8 in the first (shrank the most), caller_b's +5e7 in the fifth
screen | grep -q -- "-1e+08 .*-6.7e+07 .*-3.3e+07 .*+0 .*+3.3e+07 .*+6.7e+07 .*to +1e+08" ||
	{ screen_dump >&2; fail "the delta legend"; }
ok
expect_eq "$(box caller_a 5)" "$(box -1e+08 5)" "caller_a in the legend's most-shrunk colour"
expect_eq "$(box caller_b 5)" "$(box +3.3e+07 5)" "caller_b in the legend's grew-by-a-third colour"
# caller_b, now the wider, comes first
T send-keys -t main Down Down
wait_for 'foot | grep -q "^caller_b  150 samples .*  colour +5e+07  "' 10 "caller_b: +5e+07"
ok
T send-keys -t main Right
wait_for 'foot | grep -q "^caller_a  100 samples .*  colour -1e+08  "' 10 "caller_a: -1e+08"
ok
shot_pane flame-view-delta 1200 390
T send-keys -t main q q
wait_screen "EXIT-0" "q q quits n.data"

# --- 2. a recording of the 2:1 workload, its SVG --------------------------
run "$CYCTOP" record -g -e cpu-clock/250000 -o "$TMP/rec.data" -- "$CALLERS" 1
expect_rc 0 "cyctop record -g"
run "$CYCTOP" -b -i "$TMP/rec.data" --format folded
expect_rc 0 "folded stacks of the recording"
cp "$TMP/out" "$TMP/rec.folded"
run "$CYCTOP" -b -i "$TMP/rec.data" --format json
expect_rc 0 "json of the recording"
cp "$TMP/out" "$TMP/rec.json"
run "$CYCTOP" -b -i "$TMP/rec.data" --format flame -o "$TMP/rec.svg"
expect_rc 0 "--format flame -o"
[ ! -s "$TMP/out" ] || fail "--format flame -o wrote to stdout"
ok
run "$CYCTOP" -b -i "$TMP/rec.data" --format flame
expect_rc 0 "--format flame to stdout"
cmp -s "$TMP/out" "$TMP/rec.svg" || fail "stdout and -o differ"
ok
run "$CYCTOP" -b -i "$TMP/rec.data" --format flame --flame-metric CPI
expect_rc 2 "--flame-metric a metric the events do not give"
expect_err "not one of 'none (by name)'" "the choices named"
run "$CYCTOP" -b -i "$TMP/rec.data" --flame-metric none
expect_rc 2 "--flame-metric without --format flame"
python3 - "$TMP/rec.svg" "$TMP/rec.folded" "$TMP/rec.json" <<'PY' || fail "SVG against folded and JSON"
import json, re, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
frames = []
for g in root.iter(NS + "g"):
    if g.get("class") != "f":
        continue
    title, rect = g.find(NS + "title").text, g.find(NS + "rect")
    m = re.match(r"^(.*) \((\d+) samples, ([0-9.]+)%\)$", title)
    assert m, title
    frames.append(dict(name=m.group(1), n=int(m.group(2)), pct=float(m.group(3)),
                       x=float(rect.get("x")), w=float(rect.get("width")),
                       y=float(rect.get("y"))))
# each frame's path by containment: the frame one row up over its x
rows = sorted({f["y"] for f in frames})
def path(f):
    p = [f["name"]]
    d = rows.index(f["y"])
    while d > 1:
        d -= 1
        up = [u for u in frames if u["y"] == rows[d] and u["x"] <= f["x"] + 1e-6
              and f["x"] + f["w"] <= u["x"] + u["w"] + 0.02]
        assert len(up) == 1, (f, up)
        p.insert(0, up[0]["name"])
        f = up[0]
    return ";".join(p)
want, total = {}, 0
for line in open(sys.argv[2]):
    stack, n = line.rsplit(" ", 1)
    total += int(n)
    names = stack.split(";")
    for k in range(1, len(names) + 1):
        key = ";".join(names[:k])
        want[key] = want.get(key, 0) + int(n)
assert frames[0]["name"] == "all" and frames[0]["n"] == total, (frames[0], total)
span = frames[0]["w"]
seen = 0
for f in frames[1:]:
    p = path(f)
    assert want.get(p) == f["n"], (p, f["n"], want.get(p))
    assert abs(f["w"] - f["n"] / total * span) < 0.011, (p, f)
    seen += 1
# every path at least 0.1 pixel wide is drawn
assert seen == sum(1 for v in want.values() if v / total * span >= 0.1), seen
# the JSON's children shares: a function's frames (outermost ones) over all
o = json.load(open(sys.argv[3]))
for fn in o["functions"]:
    if fn["name"] not in ("caller_a", "caller_b", "leaf_work"):
        continue
    n = sum(v for k, v in want.items() if k.split(";")[-1] == fn["name"]
            and fn["name"] not in k.split(";")[:-1])
    got = 100.0 * n / total
    assert abs(got - fn["children"]["cpu-clock"]) < 0.01, (fn["name"], got, fn["children"])
print("svg ok", seen, "frames")
PY
ok

# the SVG in a browser: Chromium (Debian's, headless) lays it out; a probe
# appended to a copy writes each frame's title and rendered width into the
# DOM it dumps, and the widths are the samples' share of the root's.
if [ -z "$BROWSER" ]; then
	skip_part "the SVG in a browser: no chromium (apt-get install chromium)"
else
	# run where it stands, the document's last element (every frame is
	# parsed; getBBox lays out): not on "load", whose moment against
	# --dump-dom's a loaded machine moves
	cat >"$TMP/probe.js" <<'JS'
(function () {
var out = [], gs = document.getElementsByClassName("f");
for (var i = 0; i < gs.length; i++)
  out.push(gs[i].firstChild.textContent + "\t" + gs[i].getElementsByTagName("rect")[0].getBBox().width.toFixed(3));
var d = document.createElementNS("http://www.w3.org/2000/svg", "desc");
d.setAttribute("id", "probe"); d.textContent = out.join("\n"); document.documentElement.appendChild(d);
})();
JS
	python3 -c 'import sys; s = open(sys.argv[1]).read(); p = open(sys.argv[2]).read()
print(s.replace("</svg>", "<script><![CDATA[" + p + "]]></script></svg>"), end="")' \
		"$TMP/rec.svg" "$TMP/probe.js" >"$TMP/probe.svg"
	# --no-sandbox: the tests may run as root, where Chromium's sandbox refuses
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 \
		--user-data-dir="$TMP/chromium" --dump-dom "file://$TMP/probe.svg" \
		>"$TMP/dom.txt" 2>"$TMP/chromium.err" || fail "chromium: $(tail -n 3 "$TMP/chromium.err")"
	python3 - "$TMP/dom.txt" "$TMP/rec.svg" <<'PY' || fail "the SVG as Chromium lays it out"
import re, sys
dom = open(sys.argv[1]).read()
assert "parsererror" not in dom, dom[:500]
m = re.search(r'<desc id="probe">(.*?)</desc>', dom, re.S)
assert m, "no probe output: the script did not run"
rows = [l.rsplit("\t", 1) for l in m.group(1).strip().split("\n")]
titles = re.findall(r"<title>(.*?)</title>", open(sys.argv[2]).read())
assert [t for t, _ in rows] == titles[:len(rows)] and len(rows) == len(titles), "titles differ"
total = int(re.match(r".* \((\d+) samples", rows[0][0]).group(1))
span = float(rows[0][1])
for t, w in rows:
    n = int(re.match(r".* \((\d+) samples", t).group(1))
    assert abs(float(w) - n / total * span) < 0.01, (t, w)
print("chromium ok", len(rows), "frames")
PY
	ok
	# a picture for people (not compared): FLAME_SHOTS=DIR keeps it
	shot_svg "$TMP/rec.svg" flame-svg-callers
fi

# the view of the recording: caller_a twice caller_b within a cell and the
# statistics (a share p of N samples has sigma sqrt(p (1 - p) / N); 5 sigma
# of 120 columns), each as wide as its samples
start 120 30
type_line "'$CYCTOP' -i '$TMP/rec.data'; echo EXIT-\$?"
wait_screen "leaf_work" "hotspots of the recording"
T send-keys -t main f
wait_screen "flame graph of cpu-clock" "f on the recording"
WA=$(box caller_a 3)
WB=$(box caller_b 3)
N=$(awk '{ n += $NF } END { print n }' "$TMP/rec.folded")
NA=$(grep ";caller_a" "$TMP/rec.folded" | awk '{ n += $NF } END { print n + 0 }')
NB=$(grep ";caller_b" "$TMP/rec.folded" | awk '{ n += $NF } END { print n + 0 }')
awk -v a="$WA" -v b="$WB" -v n="$N" -v na="$NA" -v nb="$NB" 'BEGIN {
	# a - 2b = 120 / n (3 na - 2 (na + nb)): sigma 120 / n 3 sqrt(2 / 9 (na + nb));
	# 2 columns for the floors of the three edges
	tol = 2 + 5 * 120 / n * 3 * sqrt(2 / 9 * (na + nb))
	d = a - 2 * b; if (d < 0) d = -d
	ea = na * 120 / n - a; eb = nb * 120 / n - b
	exit !(d <= tol && ea > -1 && ea < 1 && eb > -1 && eb < 1) }' ||
	{ boxes >&2; fail "widths: caller_a $WA caller_b $WB of $N (samples $NA, $NB)"; }
ok
T send-keys -t main q q
wait_screen "EXIT-0" "q q quits the recording"

# --- 3. live: the zoom and the selection kept across refreshes -----------
# samples shown in the header
samples_now() {
	screen | sed -n 's/.*: \([0-9][0-9]*\) samples with a stack.*/\1/p' | head -n 1 | grep . || echo 0
}
type_line "clear; '$CYCTOP' -g -d 0.3 -e cpu-clock/250000 -- '$CALLERS' 30; echo LIVE-\$?"
wait_for 'screen | grep -q "leaf_work"' 20 "live hotspots"
ok
T send-keys -t main f
wait_for '[ "$(samples_now)" -ge 500 ] && screen | grep -q "caller_b"' 30 "live flame graph with caller_b"
ok
# select main (down the widest callees), zoom, then caller_b; each Down
# waits for the bottom line to name the next frame
for _ in 1 2 3 4 5 6 7 8; do
	foot | grep -q "^main " && break
	_was=$(foot | cut -d' ' -f1)
	T send-keys -t main Down
	wait_for '[ "$(foot | cut -d" " -f1)" != "$_was" ]' 10 "Down from $_was"
done
foot | grep -q "^main " || { screen_dump >&2; fail "could not select main"; }
ok
T send-keys -t main Enter Down Right
wait_for 'foot | grep -q "^caller_b "' 10 "caller_b selected in main's zoom"
ok
before=$(samples_now)
wait_for '[ "$(samples_now)" -ge $((before + 800)) ]' 30 "refreshes with more samples"
ok
screen | grep -q "zoomed: main" || { screen_dump >&2; fail "zoom lost across refreshes"; }
ok
foot | grep -q "^caller_b " || { screen_dump >&2; fail "selection lost across refreshes"; }
ok
# B marks the profile: from the next refresh baseline-delta is a metric
# (one event: none, then its total and self), each frame a rate's delta
screen | grep -q "colour: none (by name)" || { screen_dump >&2; fail "one event: by name"; }
ok
T send-keys -t main B
wait_screen "baseline marked at" "B in the flame graph"
before=$(samples_now)
wait_for '[ "$(samples_now)" -gt "$before" ]' 30 "a refresh after the mark"
ok
T send-keys -t main m
wait_screen "colour: baseline-delta cpu-clock (total)" "m: baseline-delta after B"
wait_for 'foot | grep -q "^caller_b .*  colour [-+][0-9]"' 10 "caller_b has a delta"
ok
T send-keys -t main q q
wait_screen "LIVE-" "the live watch ends"

done_ok

#!/bin/sh
# The interactive views on recorded sessions (cyctop -i FILE.data) under tmux:
# a hand-made Core2 file's hotspots (60/30/10), its tree and ILP histogram
# with the values of `cyctop tree` on the counts file it was made from, and
# the tree toggle; a hand-made AMD file's tree; a file of cyctop record with
# the asm view of work_60 (its percentages those of cyctop annotate), q and
# the terminal restored; and a file cut in half refused in one line before
# the screen starts.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

MIX="$WORKLOADS/mix"
MK="$(dirname "$CYCTOP")/tests/e2e/mk-session"

# wait_view TEXT DESC: as wait_screen, while cyctop's view is up: cyctop
# leaving it (the shell's "EXIT-<status>" line) fails at once, rather than
# finding TEXT in the table printed at the exit
wait_view() {
	_want=$1 _desc=$2
	wait_for 'in_view && screen | grep -qF -- "$_want"' 20 "$_desc"
	ok
}
in_view() {
	if screen | grep -q 'EXIT-[0-9]'; then
		screen_dump >&2
		fail "cyctop left the interactive view by itself (waiting for: $_desc)"
	fi
}
# open FILE: cyctop -i FILE in the pane, its status after EXIT-
open_session() {
	type_line "clear"
	wait_for '! screen | grep -q "EXIT-[0-9]"' 20 "screen cleared"
	type_line "'$CYCTOP' -i '$1'; echo EXIT-\$?"
}
# quit: q, the shell's prompt again, cyctop's status 0
quit() {
	T send-keys -t main q
	wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "exit after q"
	screen | grep -q "^EXIT-0" || { screen_dump >&2; fail "cyctop exit status after q"; }
	ok
}
# screen_value ID: the value after tree row ID on the screen (the row's
# fields: [+-] ID VALUE UNIT ...)
screen_value() {
	screen | awk -v id="$1" '$1 == id { print $2; exit }
		($1 == "-" || $1 == "+") && $2 == id { print $3; exit }'
}
# tree_value ID: the value of ID in $TMP/tree.txt (cyctop tree --format text)
tree_value() {
	awk -v id="$1" '$1 == id { print $2; exit }' "$TMP/tree.txt"
}
# same_values ID...: each tree row on the screen as cyctop tree prints it
same_values() {
	for id in "$@"; do
		want=$(tree_value "$id")
		[ -n "$want" ] && [ "$want" != "-" ] || fail "cyctop tree has no value for $id"
		wait_for '[ "$(screen_value "$id")" = "$want" ]' 20 "$id = $want on the screen"
		ok
	done
}
# pct_of FUNC: the first column of FUNC's hotspot row, without the %
pct_of() {
	screen | awk -v f="$1" '{ for (i = 2; i <= NF; i++) if ($i == f) { sub("%", "", $1); print $1; exit } }'
}
# in_range V LO HI
in_range() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'
}

# --- the sessions ---------------------------------------------------------
run "$MK" -c CPU_CLK_UNHALTED.BUS -c BUS_DRDY_CLOCKS.ALL_AGENTS "$TMP/core2-handmade.data" core \
	"GenuineIntel,6,23,10" "$EX/core2-handmade.counts" "$MIX" work_60:6 work_30:3 work_10:1
expect_rc 0 "mk-session core2"
run "$MK" "$TMP/amd-handmade.data" amd64_k8 "AuthenticAMD,15,65,2" "$EX/amd-matmul-dc.counts" \
	"$MIX" work_60:1
expect_rc 0 "mk-session amd"
run "$CYCTOP" record -o "$TMP/rec.data" -e cpu-clock -- "$MIX" 2
expect_rc 0 "cyctop record"

# --- 1. hand-made Core2 file: hotspots, tree, ILP, the tree toggle ---------
start 130 45
open_session "$TMP/core2-handmade.data"
wait_view "< > sort  m module" "hotspots view of the core2 file"
# a recording does not refresh and has no live window: neither is offered
screen | tail -n 1 | grep -q "space pause\|w window" &&
	{ screen_dump >&2; fail "a recording offers pause or window"; }
ok
wait_view "PMU core (recorded)" "the file's model in the header"
wait_view "work_10" "work_10 in the table"
for fw in work_60:60 work_30:30 work_10:10; do
	f=${fw%:*} w=${fw#*:}
	p=$(pct_of "$f")
	in_range "$p" $((w - 1)) $((w + 1)) || { screen_dump >&2; fail "$f at '$p'%, want ~$w"; }
	ok
done
first=$(screen | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^work_/) { print $i; exit } }')
[ "$first" = work_60 ] || fail "first hotspot row $first, want work_60"
ok

run "$CYCTOP" tree --arch core2 --format text "$EX/core2-handmade.counts"
expect_rc 0 "cyctop tree core2"
cp "$TMP/out" "$TMP/tree.txt"
run "$CYCTOP" tree --arch core2 --format csv "$EX/core2-handmade.counts"
cp "$TMP/out" "$TMP/tree.csv"
T send-keys -t main t
wait_view "Core2 cycle accounting" "t: the Core2 tree"
same_values cycles cycles.stalls cycles.stalls.l2_miss cycles.stalls.unaccounted cpi fsb.utilization ilp.3
# the toggle: a Core2's trees only (no IA-64, no AMD): Core2 -> software
# (the session's duration) -> Core2
T send-keys -t main t
wait_view "Software events (no hardware PMU)  (model core" "t: the software tree"
T send-keys -t main t
wait_view "Core2 cycle accounting" "t cycles back to Core2"
same_values cycles.stalls.l2_hit

# ILP: the whole process's bins are the tree's ilp.k; the selected
# function (work_60, 60% of every sampled sweep event) has 60% of each
T send-keys -t main i
wait_view "ILP: cycles by uops dispatched" "i: the ILP view"
wait_view "mean " "ILP histogram drawn"
screen | grep -q "^whole process" || { screen_dump >&2; fail "no whole-process histogram"; }
ok
k=0
while [ $k -le 6 ]; do
	want=$(awk -F, -v id="ilp.$k" '$1 == id { print $2 }' "$TMP/tree.csv")
	got=$(screen | awk -v k=$k '$1 == k && $2 == "uops" { gsub(",", "", $3); print $3; exit }')
	[ -n "$want" ] && [ "$got" = "$want" ] || { screen_dump >&2; fail "ILP bin $k: '$got', cyctop tree ilp.$k '$want'"; }
	ok
	k=$((k + 1))
done
awk -F, '$1 ~ /^ilp\.[0-9]$/ && $2 > 0 { n++ } END { exit !(n >= 2) }' "$TMP/tree.csv" ||
	fail "the ILP bins are empty"
ok
mean=$(awk -F, '$1 == "ilp.mean" { printf "%.3f", $2 }' "$TMP/tree.csv")
screen | grep -qF "mean $mean uops/cycle over " ||
	{ screen_dump >&2; fail "ILP mean $mean"; }
ok
screen | grep -q "^function work_60" || { screen_dump >&2; fail "no histogram of work_60"; }
ok
got=$(screen | awk '/^function work_60/ { on = 1 } on && $1 == "0" && $2 == "uops" { gsub(",", "", $3); print $3; exit }')
want=$(awk -F, '$1 == "ilp.0" { print $2 * 0.6 }' "$TMP/tree.csv")
in_range "$got" "$(awk -v w="$want" 'BEGIN { print w * 0.99 }')" "$(awk -v w="$want" 'BEGIN { print w * 1.01 }')" ||
	fail "work_60's bin 0: $got, want ~$want"
ok
T send-keys -t main Escape
wait_view "< > sort  m module" "Esc back to hotspots"
quit

# --- 1b. the Core2 tree's derived columns, per function -------------------
# Samples placed so that work_60 has CPI 2.00 and stall% 50.00, work_30 CPI
# 0.80 and stall% 30.00 (Core2 paper eq. 2 and the slides' CPI).
printf 'CPU_CLK_UNHALTED.CORE,1000000000\nINST_RETIRED.ANY_P,800000000\nRS_UOPS_DISPATCHED.CYCLES_NONE,420000000\n' >"$TMP/small.counts"
printf '%s\n' 'CPU_CLK_UNHALTED.CORE,work_60+0x0,600' 'CPU_CLK_UNHALTED.CORE,work_30+0x0,400' \
	'INST_RETIRED.ANY_P,work_60+0x0,300' 'INST_RETIRED.ANY_P,work_30+0x0,500' \
	'RS_UOPS_DISPATCHED.CYCLES_NONE,work_60+0x0,300' \
	'RS_UOPS_DISPATCHED.CYCLES_NONE,work_30+0x0,120' >"$TMP/small.samples"
run "$MK" -s "$TMP/small.samples" "$TMP/derived-handmade.data" core "GenuineIntel,6,23,10" \
	"$TMP/small.counts" "$MIX"
expect_rc 0 "mk-session with placed samples"
open_session "$TMP/derived-handmade.data"
wait_view "stall%" "the derived columns of the Core2 tree"
wait_view "CPI" "the CPI column"
for want in "work_60:50.00:2.00" "work_30:30.00:0.80"; do
	f=${want%%:*} rest=${want#*:}
	row=$(screen | awk -v f="$f" '$0 ~ " " f " " { print $4, $5 }')
	[ "$row" = "${rest%%:*} ${rest#*:}" ] || { screen_dump >&2; fail "$f: stall% CPI '$row', want ${rest%%:*} ${rest#*:}"; }
	ok
done
quit

# --- 2. hand-made AMD file: the AMD tree, dc.* as cyctop tree prints them ---
open_session "$TMP/amd-handmade.data"
wait_view "PMU amd64_k8 (recorded)" "hotspots of the AMD file"
wait_view "work_60" "work_60 in the AMD table"
run "$CYCTOP" tree --arch amd --format text "$EX/amd-matmul-dc.counts"
expect_rc 0 "cyctop tree amd"
cp "$TMP/out" "$TMP/tree.txt"
T send-keys -t main t
wait_view "AMD basic measurements  (model amd64_k8" "t: the AMD tree first"
same_values dc.request_rate dc.miss_rate dc.miss_ratio dc.sys_fraction dtlb.l1_request_rate
quit

# --- 3. cyctop record's file: Enter on work_60, the asm view; q restores ---
type_line "stty -g >'$TMP/stty.before'"
wait_for '[ -s "$TMP/stty.before" ]' 20 "stty settings saved"
open_session "$TMP/rec.data"
wait_view "PMU perf (recorded)" "hotspots of the recorded file"
wait_view "work_10" "the recorded functions"
# perf report reads the same file: the same share, to its two decimals
p=$(pct_of work_60)
want=$(perf_pct "$TMP/rec.data" work_60)
in_range "$p" "$(awk -v w="$want" 'BEGIN { print w - 0.011 }')" "$(awk -v w="$want" 'BEGIN { print w + 0.011 }')" ||
	{ screen_dump >&2; fail "work_60 at '$p'% in the recorded file, perf report says $want%"; }
ok
[ "$(T display -p -t main '#{alternate_on}')" = 1 ] || fail "the view is not on the alternate screen"
ok
T send-keys -t main / w o r k _ 6 0 Enter
_desc="filter to work_60"
wait_for 'in_view && ! screen | grep -q "work_30"' 20 "filter to work_60"
ok
T send-keys -t main Enter
wait_view " insns" "asm view of work_60"
screen | grep -q "^work_60  .*mix" || { screen_dump >&2; fail "asm header names work_60"; }
ok
# the hottest instruction (cyctop annotate's samples) and its percentage of
# the function, as the view prints it
run "$CYCTOP" annotate work_60 -i "$TMP/rec.data" --format csv
expect_rc 0 "annotate -i rec.data"
hot=$(awk -F, 'NR > 1 { sum += $2; if ($2 > max) { max = $2; a = $1 } }
	END { if (sum > 0) printf "%s %.2f", substr(a, 3), 100 * max / sum }' "$TMP/out")
[ -n "$hot" ] || fail "annotate: no samples in work_60"
addr=${hot% *} hpct=${hot#* }
wait_for 'in_view && screen | grep -Eq "^ +$hpct% .*[^0-9a-f]$addr:  "' 20 "hottest instruction $addr at $hpct%"
ok
# every instruction row on the screen shows annotate's share of the same
# file's samples at that address (its percentage of the function)
screen | awk '/^ +[0-9.]+% .*[0-9a-f]+:  / { a = $0; sub(/:  .*/, "", a);
	sub(/.*[^0-9a-f]/, "", a); sub("%", "", $1); print a, $1 }' >"$TMP/asm.rows"
[ -s "$TMP/asm.rows" ] || { screen_dump >&2; fail "no instruction rows with a share"; }
bad=$(awk -F, 'NR == FNR { if (FNR > 1) { sum += $2; n[substr($1, 3)] = $2 } next }
	FNR == 1 { for (k in n) pct[k] = 100 * n[k] / sum }
	{ w = ($1 in pct) ? pct[$1] : 0; d = $2 - w; if (d < 0) d = -d;
	  if (d > 0.006) printf "%s screen %s annotate %.3f; ", $1, $2, w }' \
	"$TMP/out" FS=' ' "$TMP/asm.rows")
[ -z "$bad" ] || { screen_dump >&2; fail "asm rows differ from cyctop annotate: $bad"; }
ok
T send-keys -t main Escape
wait_view "< > sort  m module" "Esc back to hotspots"
quit
wait_for '[ "$(T display -p -t main "#{alternate_on}")" = 0 ]' 20 "alternate screen left"
ok
# the marker is printed, not typed: the typed line would match at once,
# before stty has written its file
type_line "stty -g >'$TMP/stty.after'; echo AFTER-\$((6 * 7))"
wait_screen "AFTER-42" "shell usable after q"
cmp -s "$TMP/stty.before" "$TMP/stty.after" ||
	fail "terminal modes not restored: $(cat "$TMP/stty.before") -> $(cat "$TMP/stty.after")"
ok
T kill-server 2>/dev/null || true

# --- 4. a file cut in half: one line, an offset, no screen ----------------
# On a terminal (a pty of its own, outside tmux), so that the file is what
# cyctop refuses, not the missing terminal; the pty receives nothing.
size=$(stat -c %s "$TMP/rec.data")
head -c $((size / 2)) "$TMP/rec.data" >"$TMP/half.data"
RC=0
python3 - "$TMP/pty.out" "$TMP/err" "$CYCTOP" -i "$TMP/half.data" <<'PY' || RC=$?
import os, pty, select, sys, time
out, err, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    e = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(e, 2)
    os.execv(argv[0], argv)
data, deadline = b"", time.time() + 20
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.5)
    if r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    elif os.waitpid(pid, os.WNOHANG)[0]:
        break
else:
    os.kill(pid, 9)
    sys.exit(124)
open(out, "wb").write(data)
_, st = os.waitpid(pid, 0)
sys.exit(os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))
PY
[ "$RC" -ne 124 ] || fail "cyctop -i half.data still running after 20 s"
[ "$RC" -ne 0 ] || fail "a file cut in half was accepted"
ok
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "half.data: not one line on stderr: $(cat "$TMP/err")"
ok
expect_err "half.data" "the error names the file"
grep -Eq "offset [0-9]+" "$TMP/err" || fail "no offset in: $(cat "$TMP/err")"
ok
grep -q "terminal" "$TMP/err" && fail "refused for the terminal, not the file: $(cat "$TMP/err")"
[ ! -s "$TMP/pty.out" ] || fail "the screen was started: $(od -c "$TMP/pty.out" | head -n 5)"
ok

done_ok

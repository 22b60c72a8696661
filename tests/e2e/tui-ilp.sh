#!/bin/sh
# The ILP view (i) under tmux on every sweep form: the skl, icl, spr and
# zen4 example counts files (UOPS_EXECUTED.THREAD:c=1..8/10/12, Zen 4's
# ex_ret_ops:c=1..8) and Core2's; each bin the `cyctop tree --format csv`
# ilp.k of the same file, the model's unit in the title; a hand-made
# Skylake and a Zen 4 recording per process, per thread (H) and per
# function; and, on a host without a PMU, the one line saying so and where
# a histogram comes from.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

MK="$(dirname "$CYCTOP")/tests/e2e/mk-session"

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
open_view() { # ARGS...: cyctop ARGS in the pane, then the ILP view
	type_line "clear"
	wait_for '! screen | grep -q "EXIT-[0-9]"' 20 "screen cleared"
	type_line "'$CYCTOP' $*; echo EXIT-\$?"
	wait_view "q quit" "cyctop $*"
	T send-keys -t main i
	wait_view "ILP" "i: the ILP view"
}
quit() {
	T send-keys -t main q
	wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "exit after q"
	screen | grep -q "^EXIT-0" || { screen_dump >&2; fail "cyctop exit status after q"; }
	ok
}
# bins HEADER: "k value" per bin of the histogram under the line HEADER
bins() {
	screen | awk -v hd="$1" '$0 == hd { on = 1; next }
		on && /^mean / { exit }
		on && $4 == "cycles" { gsub(",", "", $3); print $1, $3 }'
}
# tree_bins FILE: "k value" per ilp.k of cyctop tree on FILE
tree_bins() {
	"$CYCTOP" tree --format csv "$1" |
		awk -F, '$1 ~ /^ilp\.[0-9]+$/ { sub("ilp.", "", $1); print $1, $2 }'
}

start 120 60
# --- counts files: each bin is the tree's --------------------------------
for spec in "skl-handmade:skl:uops executed:8" "icl-ilp-handmade:icl:uops executed:10" \
	    "spr-ilp-handmade:spr:uops executed:12" \
	    "zen4-handmade:amd64_fam19h_zen4:ops retired:8" \
	    "core2-handmade:core:uops dispatched:6"; do
	f=${spec%%:*} rest=${spec#*:}
	model=${rest%%:*} rest=${rest#*:}
	unit=${rest%%:*} width=${rest#*:}
	open_view -i "'$EX/$f.counts'"
	wait_view "ILP: cycles by $unit (" "$f: the title names $unit"
	wait_view "model $model)" "$f: model $model"
	wait_view "mean " "$f: histogram drawn"
	tree_bins "$EX/$f.counts" >"$TMP/want"
	bins "whole process" >"$TMP/got"
	[ "$(wc -l <"$TMP/want")" -eq $((width + 1)) ] ||
		fail "$f: cyctop tree has $(wc -l <"$TMP/want") ilp bins, want $((width + 1))"
	ok
	cmp -s "$TMP/want" "$TMP/got" ||
		{ screen_dump >&2; diff "$TMP/want" "$TMP/got" >&2; fail "$f: ILP bins differ from cyctop tree's"; }
	ok
	mean=$("$CYCTOP" tree --format csv "$EX/$f.counts" |
		awk -F, '$1 == "ilp.mean" { printf "%.3f", $2 }')
	screen | grep -qF "mean $mean ${unit%% *}/cycle over " ||
		{ screen_dump >&2; fail "$f: mean $mean"; }
	ok
	quit
done

# --- recordings: the process, its thread (H), the selected function -----
# recording COUNTS MODEL CPUID TITLE: a hand-made recording of COUNTS
# (tests/e2e/mk-session: samples over work_60:6 work_30:3 work_10:1)
recording() {
	run "$MK" "$TMP/rec.data" "$2" "$3" "$1" "$WORKLOADS/mix" work_60:6 work_30:3 work_10:1
	expect_rc 0 "mk-session $2"
	tree_bins "$1" >"$TMP/want"
	[ "$(wc -l <"$TMP/want")" -ge 7 ] || fail "$2: cyctop tree gives no ILP bins of $1"
	ok
	open_view -i "'$TMP/rec.data'"
	wait_view "$4" "$2 recording's title"
	wait_view "function work_60" "$2: the selected function's histogram"
	bins "whole process" >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || { screen_dump >&2; fail "$2 recording: bins differ from the tree's"; }
	ok
	T send-keys -t main H
	wait_view "thread 4242 (mix)" "$2: H, the thread"
	bins "thread 4242 (mix)" >"$TMP/got"
	cmp -s "$TMP/want" "$TMP/got" || { screen_dump >&2; fail "$2 thread 4242: bins differ from the tree's"; }
	ok
	# work_60 holds 6 of every 10 samples of each event: 60% of each bin,
	# to the rounding of at most 2000 samples per event (mk-session), 1%
	bins "function work_60" >"$TMP/got"
	[ "$(wc -l <"$TMP/got")" -eq "$(wc -l <"$TMP/want")" ] ||
		{ screen_dump >&2; fail "$2 work_60: not as many bins as the tree's"; }
	ok
	while read -r k w; do
		g=$(awk -v k="$k" '$1 == k { print $2 }' "$TMP/got")
		awk -v g="$g" -v w="$w" 'BEGIN { d = g - 0.6 * w; if (d < 0) d = -d; exit !(g != "" && d <= 0.01 * w + 1) }' ||
			{ screen_dump >&2; fail "$2 work_60 bin $k: $g, want ~0.6 x $w"; }
		ok
	done <"$TMP/want"
	T send-keys -t main H
	wait_for '! screen | grep -q "^thread 4242"' 20 "$2: H again, the process alone"
	ok
	quit
}
recording "$EX/skl-handmade.counts" skl "GenuineIntel,6,94,3" \
	"ILP: cycles by uops executed (UOPS_EXECUTED.THREAD:c=1..8, model skl)"
# Zen 4: the sweep's rows only (mk-session encodes what the model's tables
# name; the example has rows they do not)
grep -E "ex_ret_ops|ls_not_halted" "$EX/zen4-handmade.counts" >"$TMP/zen4-sweep.counts"
recording "$TMP/zen4-sweep.counts" amd64_fam19h_zen4 "AuthenticAMD,25,17,1" \
	"ILP: cycles by ops retired (ex_ret_ops:c=1..8, model amd64_fam19h_zen4)"

# --- an Arm core without a counter threshold: one line saying why --------
open_view -i "$EX/neoverse-n1-handmade.counts"
wait_view "no ILP histogram on this CPU: its PMU has no counter threshold (Armv8 before FEAT_PMUv3_TH) (model arm_n1)" \
	"the Armv8 no-threshold line"
quit

# --- an Arm core with one (FEAT_PMUv3_TH): the sweep OP_RETIRED:th=1..8 --
# hand-made steps 800e6 ... 100e6 of 1e9 cycles (as cli-tree.sh): each bin
# the tree's, mean 3.600, no no-threshold line
cp "$EX/neoverse-v2-handmade.counts" "$TMP/v2-th.counts"
for k in 1 2 3 4 5 6 7 8; do
	echo "$(( (9 - k) * 100000000 )),,OP_RETIRED:th=$k,1000000000,100.00,," >>"$TMP/v2-th.counts"
done
open_view -i "'$TMP/v2-th.counts'"
wait_view "mean 3.600 ops/cycle over " "the Arm threshold sweep's histogram"
tree_bins "$TMP/v2-th.counts" >"$TMP/want"
bins "whole process" >"$TMP/got"
[ "$(wc -l <"$TMP/want")" -eq 9 ] || fail "arm: cyctop tree has $(wc -l <"$TMP/want") ilp bins, want 9"
cmp -s "$TMP/want" "$TMP/got" ||
	{ screen_dump >&2; diff "$TMP/want" "$TMP/got" >&2; fail "arm: ILP bins differ from cyctop tree's"; }
screen | grep -q "FEAT_PMUv3_TH" && { screen_dump >&2; fail "arm: a sweep, yet the no-threshold line"; }
ok
quit

# --- a host without a PMU: one line saying so and where to get one -------
if host_has_pmu; then
	skip_part "the no-PMU line: this host has a PMU"
else
	open_view -- sleep 30
	wait_view "this host has no hardware counters: cyctop -i a counts file or recording of -e @ilp from a machine with a PMU" \
		"the no-PMU line"
	screen | grep -q "RS_UOPS_DISPATCHED\|model core" && { screen_dump >&2; fail "Core2's sweep named on a host without a PMU"; }
	ok
	T send-keys -t main q
	wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "exit after q"
fi
done_ok

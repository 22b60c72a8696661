#!/bin/sh
# A newcomer's journey through the trees, on the real binary under tmux at
# 80x24: -A topdown on this host, t through every tree and back to the
# first, every title naming the host's (or the file's) model and never
# another vendor's, the picker (A) opening a tree by name, no line of a
# tree cut at the right edge, unmeasured rows folded into one line; then
# batch cyctop tree marking the bottleneck with <== and writing TopDown's
# fractions as percents.  The other hosts are the hand-made counts files of
# a Zen 4 and a Skylake: LIBPFM_FORCE_PMU names the CPU for encodings, but
# on a kernel without a PMU the live model stays the software one.
. "$SRCDIR/tests/e2e/lib.sh"
. "$SRCDIR/tests/e2e/tmux-lib.sh"

# title: the tree view's first line
title() { screen | head -n 1; }

# no_edge DESC: no line of the tree (all but the status line) reaches the
# 80th column: a line that does was cut there, perhaps inside a word
no_edge() {
	screen | sed '$d' | awk -v d="$1" 'length($0) >= 80 && substr($0, 80, 1) != " " {
		print d ": cut at the right edge: " $0; bad = 1 } END { exit bad }' >&2 ||
		{ screen_dump >&2; fail "$1: a line runs into the right edge"; }
	ok
}

# trees_here: how many trees the picker offers for this model (its rows
# without a note saying why not)
trees_here() {
	T send-keys -t main A
	wait_screen "Pick a tree (model" "A opens the picker"
	no_edge "the picker"
	NTREES=$(screen | sed '1d;$d' | grep -cE '^  [a-z0-9]+ +[^ (]')
	T send-keys -t main Escape
	wait_for '! screen | grep -q "Pick a tree"' 20 "Esc closes the picker"
}

# walk WANT-MODEL DESC: t through every tree the model has and back to the
# first; each title names WANT-MODEL; TITLES gets them
walk() {
	trees_here
	first=$(title)
	TITLES="$first"
	i=1
	while [ $i -le "$NTREES" ]; do
		prev=$(title)
		T send-keys -t main t
		[ "$NTREES" -gt 1 ] && wait_for '[ "$(title)" != "$prev" ]' 20 "$2: t changes the tree"
		cur=$(title)
		case "$cur" in *"(model $1"*) ;; *) screen_dump >&2; fail "$2: '$cur' does not name model $1" ;; esac
		ok
		no_edge "$2: $cur"
		[ $i -lt "$NTREES" ] && TITLES="$TITLES
$cur"
		i=$((i + 1))
	done
	[ "$cur" = "$first" ] || fail "$2: $NTREES trees, then '$cur', not the first again; titles:
$TITLES"
	ok
}

# --- 1. this host, live: -A topdown picks the host's own method ---------
start 80 24
type_line "'$CYCTOP' -A topdown -- '$WORKLOADS/spin' 0; echo EXIT-\$?"
wait_screen "FUNCTION" "the hotspots of the watch"
T send-keys -t main t
if host_has_pmu; then
	vendor=$(awk -F: '/^vendor_id/ { gsub(/ /, "", $2); print $2; exit }' /proc/cpuinfo)
	case "$vendor" in
	GenuineIntel) want="perf tma_" ;;
	AuthenticAMD) want="AMD Zen" ;;
	*) want="Neoverse" ;;
	esac
	wait_screen "$want" "-A topdown: the $vendor host's TopDown"
	model=$(title | sed -n 's/.*(model \([^;)]*\).*/\1/p')
else
	# no PMU: the software tree is the host's; one line says TopDown is not
	wait_screen "no topdown tree for model perf (this host has no hardware PMU)" \
		"-A topdown on a host without a PMU says why not"
	wait_screen "Software events" "the software tree instead"
	model=perf
fi
title | grep -q "Neoverse\|IA-64\|amd64_k8" && { screen_dump >&2; fail "another vendor's tree on this host"; }
ok
walk "$model" "this host"
T send-keys -t main q
# the command line shows "EXIT-$?" too: wait for echo's own line
wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "cyctop ends on q"
ok
screen | grep -q "EXIT-0" || { screen_dump >&2; fail "exit status after q"; }
ok

# --- 2. a Zen 4's counts: its three trees, the picker, folded rows -------
start 80 24
type_line "clear; '$CYCTOP' -A topdown -i '$EX/zen4-handmade.counts'; echo EXIT-\$?"
wait_screen "TopDown (perf pipeline utilization, AMD Zen 4)  (model amd64_fam19h_zen4" \
	"-A topdown on a Zen 4 file: AMD's TopDown for Zen 4"
no_edge "Zen 4 topdown"
walk amd64_fam19h_zen4 "Zen 4"
for want in "Core2 cycle accounting on AMD Zen" "AMD basic measurements" "TopDown (perf pipeline"; do
	printf '%s\n' "$TITLES" | grep -qF "$want" || fail "Zen 4: t never showed '$want': $TITLES"
	ok
done
[ "$(printf '%s\n' "$TITLES" | wc -l)" -eq 3 ] || fail "Zen 4: not three trees: $TITLES"
ok
# the picker: a letter and Enter open the AMD tree by name
T send-keys -t main A
wait_screen "Pick a tree (model amd64_fam19h_zen4)" "A opens the picker"
T send-keys -t main a Enter
wait_screen "AMD basic measurements  (model amd64_fam19h_zen4" "A a Enter: the AMD tree, Zen 4's"
no_edge "Zen 4 amd"
# its unmeasured rows: runs folded into a line saying how many and which
screen | grep -qE "^ *\+ [0-9]+ rows? not measured: needs [A-Za-z_]" ||
	{ screen_dump >&2; fail "no folded line of unmeasured rows"; }
ok
screen | grep -q "not measured: [A-Za-z_|]* \[" &&
	{ screen_dump >&2; fail "an unmeasured row on its own line"; }
ok
# Enter on a folded line opens it: its rows, each saying what it misses
row=$(screen | grep -nE "^ *\+ [0-9]+ rows? not measured" | head -n 1 | cut -d: -f1)
k=2
while [ "$k" -lt "$row" ]; do
	T send-keys -t main Down
	k=$((k + 1))
done
T send-keys -t main Enter
wait_screen "not measured: " "Enter opens the folded rows"
no_edge "opened rows"
T send-keys -t main q
wait_screen "EXIT-0" "q ends the counts file's view"

# --- 3. a Skylake's counts: Intel's trees; a method it has no variant of --
start 80 24
type_line "clear; '$CYCTOP' -A topdown -i '$EX/skl-handmade.counts'; echo EXIT-\$?"
wait_screen "TopDown (perf tma_*, Skylake)  (model skl" "-A topdown on a Skylake file: Intel's"
walk skl "Skylake"
[ "$(printf '%s\n' "$TITLES" | wc -l)" -eq 2 ] || fail "Skylake: not two trees: $TITLES"
ok
T send-keys -t main q
wait_screen "EXIT-0" "q ends the Skylake view"
type_line "clear; '$CYCTOP' -A zen -i '$EX/skl-handmade.counts'; echo EXIT-\$?"
wait_screen "no zen tree for model skl" "-A zen on a Skylake says it has none"
wait_screen "Core2 cycle accounting on Intel (8 ports)  (model skl" "and shows Skylake's own tree"
T send-keys -t main q
wait_screen "EXIT-0" "q ends that view"

# --- 4. batch cyctop tree: toplev's <== and percents ---------------------
run "$CYCTOP" tree "$EX/skl-handmade.counts"
expect_rc 0 "cyctop tree skl"
[ "$(grep -c '<==' "$TMP/out")" -eq 1 ] || fail "skl: not one <== line: $(cat "$TMP/out")"
ok
grep -q '^    cycles.stalls.memory .*<==$' "$TMP/out" || fail "skl: <== not on cycles.stalls.memory: $(cat "$TMP/out")"
ok
run "$CYCTOP" tree -A topdown "$EX/skl-handmade.counts"
expect_rc 0 "cyctop tree -A topdown skl"
grep -qE '^  topdown.frontend_bound +20\.0% +20\.0%' "$TMP/out" ||
	fail "frontend_bound not as 20.0%: $(cat "$TMP/out")"
ok
grep -qE '^    topdown.frontend_bound.fetch_latency +12\.0% +60\.0% .*<==$' "$TMP/out" ||
	fail "fetch_latency not the bottleneck at 12.0%: $(cat "$TMP/out")"
ok
# the machine formats keep their values
run "$CYCTOP" tree -A topdown --format csv "$EX/skl-handmade.counts"
expect_out "topdown.frontend_bound,0.2,ratio" "csv keeps the ratio"
grep -q '<==\|%' "$TMP/out" && fail "csv holds a mark or a percent"
ok
done_ok

#!/bin/sh
# On a host without a PMU the software tree is the one tree there is: its
# page faults, context switches and CPU migrations are counted by default,
# beside the sampled cpu-clock (counting only: no column, no samples), in
# batch (text and JSON "counted") and in the tree view under tmux.  The
# faults workload takes exactly PAGES minor faults in touch_pages on top of
# what starting a program takes: the difference of two runs.
. "$SRCDIR/tests/e2e/lib.sh"

FAULTS="$WORKLOADS/faults"
if ! "$CYCTOP" -b -n 1 -- true 2>&1 | grep -q "no hardware PMU on this host"; then
	echo "SKIP: this host has a hardware PMU (the side counters are for hosts without one)"
	exit 77
fi

# faults_of PAGES: page-faults counted in the last JSON object of a run
faults_of() {
	run "$CYCTOP" -b -d 5 --format json -- "$FAULTS" "$1" 0.2
	expect_rc 0 "cyctop -b -- faults $1"
	json_last "$TMP/out" 'o["counted"]["page-faults"]'
}
base=$(faults_of 0)
got=$(faults_of 3000)
# the events: cpu-clock alone, sampled; the counters beside it, not events
n=$(json_last "$TMP/out" 'len(o["events"])')
[ "$n" = 1 ] || fail "the side counters became events: $n events"
ok
for k in page-faults minor-faults major-faults context-switches cpu-migrations; do
	v=$(json_last "$TMP/out" "o['counted']['$k']")
	awk -v v="$v" 'BEGIN { exit !(v != "" && v >= 0) }' || fail "counted $k: '$v'"
	ok
done
minor=$(json_last "$TMP/out" 'o["counted"]["minor-faults"]')
major=$(json_last "$TMP/out" 'o["counted"]["major-faults"]')
awk -v p="$got" -v mi="$minor" -v ma="$major" 'BEGIN { exit !(p == mi + ma) }' ||
	fail "page-faults $got != minor $minor + major $major"
ok
# 3000 pages touched: 3000 more faults than the run touching none, give or
# take what one start of a program differs from another (a few dozen)
d=$(awk -v a="$got" -v b="$base" 'BEGIN { print a - b }')
awk -v d="$d" 'BEGIN { exit !(d >= 2950 && d <= 3100) }' ||
	fail "3000 pages: $got faults, $base without them (difference $d)"
ok
# batch text: one line of them
run "$CYCTOP" -b -d 5 -- "$FAULTS" 100 0.2
expect_rc 0 "cyctop -b text"
grep -q "^  counted  page-faults [0-9]*  minor-faults [0-9]*  major-faults [0-9]*  context-switches [0-9]*  cpu-migrations [0-9]*$" "$TMP/out" ||
	fail "no counted line in the batch text: $(head -5 "$TMP/out")"
ok

# the tree view: every software node measured, none "add it with -e"
. "$SRCDIR/tests/e2e/tmux-lib.sh"
start 120 40
# 4000 faults spread over 16 s of CPU: 1000 of them within about 4 s
type_line "'$CYCTOP' -A sw -- '$FAULTS' 4000 16 spread; echo EXIT-\$?"
wait_screen "q quit" "cyctop started"
T send-keys -t main t
wait_screen "Software events" "the software tree"
wait_for 'screen | awk '"'"'$1 == "-" && $2 == "page_faults" { gsub(",", "", $3); if ($3 >= 1000) f = 1 } END { exit !f }'"'"'' 20 \
	"page_faults >= 1000 in the tree"
ok
for id in page_faults.minor page_faults.major context_switches cpu_migrations; do
	screen | grep -E "^[ +-]* $id +[0-9]" >/dev/null || { screen_dump >&2; fail "tree row $id has no value"; }
	ok
done
screen | grep -q "add it with -e" && { screen_dump >&2; fail "a software node is still 'not measured'"; }
ok
T send-keys -t main q
wait_for 'screen | grep -q "^EXIT-[0-9]"' 20 "exit after q"
done_ok

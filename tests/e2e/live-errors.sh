#!/bin/sh
# Bad input for the live commands: one clear line, non-zero exit, no process
# left behind.
. "$SRCDIR/tests/e2e/lib.sh"

one_line() {
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$1: stderr is not one line: $(cat "$TMP/err")"
	ok
}

run "$CYCTOP" -b -p 2147483648
expect_rc 2 "pid out of range"
run "$CYCTOP" -b -p 4000000
expect_rc 1 "nonexistent pid"
expect_err "no process with pid 4000000" "pid named"
one_line "nonexistent pid"

run "$CYCTOP" -b -e no_such_event -- true
expect_rc 1 "unknown event"
expect_err "event 'no_such_event': unknown event" "event named"
one_line "unknown event"

run "$CYCTOP" -b -e MEM_LOAD_RETIRED.L2_LINE_MISS -- true
expect_rc 1 "hardware event without PMU"
expect_err "'MEM_LOAD_RETIRED.L2_LINE_MISS' is a hardware event of the core model" "hw event"
one_line "hardware event"

run "$CYCTOP" -b -e cpu-clock/0 -- true
expect_rc 1 "zero SAV"

run "$CYCTOP" -b --
expect_rc 2 "empty command"
expect_err "no command given after --" "empty command named"

run "$CYCTOP" -b -- "$TMP/no-such-command-$$"
expect_rc 1 "missing command"
expect_err "cannot run '$TMP/no-such-command-$$': No such file or directory" "command named as given"
one_line "missing command"
pgrep -f "no-such-command-$$" >/dev/null && fail "leaked process"
ok

run "$CYCTOP" -b
expect_rc 2 "nothing to watch"
run "$CYCTOP" -b -p 1 -- true
expect_rc 2 "both pid and command"
run "$CYCTOP" -b -d 0 -- true
expect_rc 2 "delay 0"
run "$CYCTOP" -b -m 3 -- true
expect_rc 2 "mmap pages not a power of two"

# A process we may not watch: as an unprivileged user, another user's process.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	sleep 30 &
	VICTIM=$!
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$CYCTOP" -b -n 1 -p $VICTIM
	kill $VICTIM 2>/dev/null
	wait $VICTIM 2>/dev/null || true
	expect_rc 1 "another user's process"
	expect_err "cannot watch pid $VICTIM: permission denied" "permission named"
	# the first cause is ptrace access, not perf_event_paranoid (issue 19)
	expect_err "it runs as uid 0, cyctop as uid 65534" "the users named"
	expect_err "CAP_SYS_PTRACE" "what grants it"
	grep -q "perf_event_paranoid" "$TMP/err" && fail "paranoid blamed: $(cat "$TMP/err")"
	ok
	one_line "permission"
fi

done_ok

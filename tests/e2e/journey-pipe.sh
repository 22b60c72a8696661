#!/bin/sh
# Journey: a user watches a shell pipeline whose reader quits early,
# `cyctop -b -- sh -c 'yes | head -1'`.  The command starts with the
# signals a shell gives it (engine/target.c), not cyctop's own (cyctop
# ignores SIGPIPE): yes dies of SIGPIPE at once, silently, as it does
# without cyctop; the pipeline's line lands on stdout and cyctop leaves
# with the command's status 0.  Before, yes inherited SIGPIPE ignored,
# wrote "yes: standard output: Broken pipe" and exited 1.
. "$SRCDIR/tests/e2e/lib.sh"

command -v yes >/dev/null && command -v timeout >/dev/null ||
	{ echo "SKIP: no yes or timeout"; exit 77; }

run timeout 60 "$CYCTOP" -b -e cpu-clock -- sh -c 'yes | head -1'
expect_rc 0 "yes | head -1 under cyctop"
[ "$(head -n 1 "$TMP/out")" = y ] || fail "first line of stdout: $(head -n 3 "$TMP/out")"
ok
expect_out "exited with status 0" "the end in the batch report"
! grep -q "Broken pipe" "$TMP/err" || fail "yes did not die of SIGPIPE: $(cat "$TMP/err")"
ok

# yes's own status: killed by SIGPIPE (128 + 13)
run timeout 60 "$CYCTOP" -b -e cpu-clock -- sh -c '(yes; echo "yes: $?" >&2) | head -1'
expect_rc 0 "the pipeline's status"
expect_err "yes: 141" "yes killed by SIGPIPE"

# nothing ignored, nothing blocked, as the command's /proc status shows
run timeout 60 "$CYCTOP" -b -e cpu-clock -- grep -E '^Sig(Blk|Ign)' /proc/self/status
expect_rc 0 "grep of its own status"
grep -q '^SigBlk:[[:space:]]*0000000000000000$' "$TMP/out" ||
	fail "signals blocked: $(grep Sig "$TMP/out")"
ok
# but signals 32 and 33 (bits 31 and 32), glibc's own, which its
# sigaction refuses to set (make check's environment ignores them)
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$TMP/out")
[ -n "$ign" ] && [ $(( 0x$ign & ~0x180000000 )) -eq 0 ] ||
	fail "signals ignored: $(grep Sig "$TMP/out")"
ok
done_ok

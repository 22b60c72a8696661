#!/bin/sh
# Names that would drive a terminal (workloads/hostile: ESC [2J, BEL, CR, a
# C1 CSI and a byte that is not UTF-8 in its symbol, ESC ]0;pwned BEL as its
# process name) are printed escaped in every text output: batch text and
# csv, annotate text and csv, error messages; JSON keeps its own escapes.
# `od` on each output finds no ESC (033), BEL (007), CR (015) or CSI (233).
. "$SRCDIR/tests/e2e/lib.sh"

HOSTILE="$WORKLOADS/hostile"
SYM=$(printf 'evil\033[2J\007bel\r\302\233\377name')
SHOWN='evil\x1b[2J\x07bel\r\xc2\x9b\xffname'

# no_control FILE DESC [PATTERN]: not one terminal control byte in FILE
# (od -c: ESC, BEL, CR, and the C1 CSI's UTF-8 and single-byte forms)
no_control() {
	bad=$(od -An -c "$1" | grep -E "${3:-033|\\\\a|\\\\r|233}" | head -n 3)
	[ -z "$bad" ] || fail "$2: control bytes in the output: $bad"
	ok
}

run "$CYCTOP" -b -d 0.5 -- "$HOSTILE" 1
expect_rc 0 "-b text"
expect_out "$SHOWN" "the symbol, escaped"
no_control "$TMP/out" "-b text"
no_control "$TMP/err" "-b text stderr"

run "$CYCTOP" -b -d 0.5 --format csv -- "$HOSTILE" 1
expect_rc 0 "-b csv"
expect_out "\"$SHOWN\"" "the symbol, escaped, quoted"
no_control "$TMP/out" "-b csv"

run "$CYCTOP" -b -d 0.5 --format json -- "$HOSTILE" 1
expect_rc 0 "-b json"
# JSON keeps U+009B as UTF-8, as JSON allows (the contract is unchanged)
no_control "$TMP/out" "-b json" '033|\\a|\\r'
# JSON is unchanged: its own escapes, the name read back intact but for
# the byte that is not UTF-8 (U+FFFD, as documented)
expect_true "$(json_last "$TMP/out" \
	'any(f["name"] == "evil\x1b[2J\x07bel\r\x9b\ufffdname" for f in o["functions"])')" \
	"json name"

run "$CYCTOP" -b -g --format folded -- "$HOSTILE" 1
expect_rc 0 "-b --format folded"
expect_out "name " "the hot stacks"
no_control "$TMP/out" "folded stacks"

# threads and the process name (-p reads them from /proc: the renamed comm)
"$HOSTILE" 30 &
victim=$!
ON_EXIT="kill $victim 2>/dev/null"
wait_for "grep -q pwned /proc/$victim/comm" 20 "hostile renamed itself"
run "$CYCTOP" -b -d 0.5 -n 1 -p "$victim"
expect_rc 0 "-b -p"
expect_out '(\x1b]0;pwned\x07)' "the process name, escaped"
no_control "$TMP/out" "-b -p text"
run "$CYCTOP" -b -d 0.5 -n 1 --format json -p "$victim"
expect_true "$(json_last "$TMP/out" \
	'sorted(t["comm"] for t in o["threads"]) == ["\x1b[2Jthr\x07", "\x1b]0;pwned\x07"]')" \
	"json thread names unchanged"
kill "$victim"
wait "$victim" 2>/dev/null || true

run "$CYCTOP" annotate "$SYM" -- "$HOSTILE" 1
expect_rc 0 "annotate text"
expect_out "# $SHOWN in " "annotate header, escaped"
no_control "$TMP/out" "annotate text"
run "$CYCTOP" annotate "$SYM" --format csv -- "$HOSTILE" 1
expect_rc 0 "annotate csv"
no_control "$TMP/out" "annotate csv"

# error messages quote names: escaped too, still one line
run "$CYCTOP" -b -- "$(printf 'no\033]0;pwned\007such')"
[ "$RC" -ne 0 ] || fail "a command that does not exist ran"
expect_err 'no\x1b]0;pwned\x07such' "the command named, escaped"
no_control "$TMP/err" "error message"
run "$CYCTOP" annotate "$(printf 'missing\033[2J')" -- "$HOSTILE" 0.2
[ "$RC" -ne 0 ] || fail "annotate of a function that does not exist"
no_control "$TMP/err" "annotate error message"
run "$CYCTOP" --theme "$(printf 'x\033[2J')" -i "$EX/core2-handmade.counts" </dev/null
no_control "$TMP/err" "theme error message"
done_ok

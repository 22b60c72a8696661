# Shared by the end-to-end shell tests.  $CYCTOP and $SRCDIR come from make.
set -u
: "${CYCTOP:?run through make check}"
: "${SRCDIR:?run through make check}"
FIX="$SRCDIR/tests/fixtures"
EX="$SRCDIR/examples"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
CHECKS=0

fail() {
	printf 'FAIL: %s\n' "$*" >&2
	exit 1
}

ok() {
	CHECKS=$((CHECKS + 1))
}

# run CMD...: stdout in $TMP/out, stderr in $TMP/err, status in $RC
run() {
	RC=0
	"$@" >"$TMP/out" 2>"$TMP/err" || RC=$?
}

expect_rc() { # WANT DESC
	[ "$RC" -eq "$1" ] || fail "$2: exit $RC, want $1; stderr: $(cat "$TMP/err")"
	ok
}

expect_out() { # FIXED-STRING DESC
	grep -qF -- "$1" "$TMP/out" || fail "$2: '$1' not in output: $(head -c 2000 "$TMP/out")"
	ok
}

expect_err() { # FIXED-STRING DESC
	grep -qF -- "$1" "$TMP/err" || fail "$2: '$1' not in stderr: $(cat "$TMP/err")"
	ok
}

# csv_value ID: the value column of row ID in $TMP/out
csv_value() {
	awk -F, -v id="$1" '$1 == id { print $2 }' "$TMP/out"
}

# expect_near ID WANT REL: |value - WANT| <= REL * |WANT|
expect_near() {
	got=$(csv_value "$1")
	[ -n "$got" ] || fail "no row $1"
	awk -v g="$got" -v w="$2" -v r="$3" 'BEGIN {
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
		exit !(d <= r * a + 1e-12) }' || fail "$1 = $got, want $2 (rel $3)"
	ok
}

done_ok() {
	printf 'PASS: %s (%d checks)\n' "$(basename "$0")" "$CHECKS"
	exit 0
}

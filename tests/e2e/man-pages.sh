#!/bin/sh
# The man pages: each renders with man -l without a warning (MANWIDTH=80 man
# --warnings, as lintian checks them), and every long option a command's
# --help lists appears in that command's page (doc/cyctop-CMD.1, else
# cyctop.1, whose page is the watch's).
. "$SRCDIR/tests/e2e/lib.sh"

command -v man >/dev/null || { echo "SKIP: man is not installed"; exit 77; }
for page in "$SRCDIR"/doc/*.[1-8]; do
	MANWIDTH=80 man --warnings -l "$page" >"$TMP/page.txt" 2>"$TMP/man.err" ||
		fail "man -l $(basename "$page"): $(cat "$TMP/man.err")"
	[ ! -s "$TMP/man.err" ] || fail "man -l $(basename "$page") warns: $(cat "$TMP/man.err")"
	[ -s "$TMP/page.txt" ] || fail "$(basename "$page") renders empty"
	ok
done

# options CMD...: the long options `cyctop CMD... --help` lists
options() {
	"$CYCTOP" "$@" --help 2>/dev/null | grep -oE '(^|[ ,])--[a-z][a-z0-9-]*' | tr -d ' ,' | sort -u
}
for cmd in watch demo record annotate tree list encode diff selftest serve; do
	case $cmd in
	watch) args=-b ;;
	*) args=$cmd ;;
	esac
	# a command this build does not have prints no options: nothing to check
	opts=$(options $args)
	[ -n "$opts" ] || continue
	page="$SRCDIR/doc/cyctop-$cmd.1"
	[ -f "$page" ] || page="$SRCDIR/doc/cyctop.1"
	# roff writes a dash as \- (and may break a word with \%)
	sed -e 's/\\-/-/g' -e 's/\\%//g' "$page" >"$TMP/page.src"
	for o in $opts; do
		grep -qE -- "$o([^a-z0-9-]|$)" "$TMP/page.src" ||
			fail "cyctop $cmd: $o is in --help but not in $(basename "$page")"
	done
	ok
done
done_ok

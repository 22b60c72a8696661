#!/bin/sh
# One source for the keys: the help view's table (tui/view-help.c help_lines[])
# is the list; cyctop.1's KEYS section holds each of its key lines (spaces
# squeezed), so that the page cannot drift from what ? shows.
. "$SRCDIR/tests/e2e/lib.sh"

command -v man >/dev/null || { echo "SKIP: man is not installed"; exit 77; }
# the C strings of help_lines[], from the title to the asm view's lines
sed -n '/help_lines\[\] = {/,/^};/p' "$SRCDIR/tui/view-help.c" |
	sed -n 's/^[[:space:]]*"\(.*\)",[[:space:]]*$/\1/p' |
	sed -e 's/\\"/"/g' -e 's/\\\\/\\/g' >"$TMP/help.txt"
[ "$(wc -l <"$TMP/help.txt")" -ge 20 ] || fail "read $(wc -l <"$TMP/help.txt") lines of help_lines[]"
# the key lines: after the title, up to the blank line before the tree's prose
sed -n '3,/^$/p' "$TMP/help.txt" | sed '/^$/d' | tr -s ' ' | sed 's/^ //;s/ $//' >"$TMP/keys.txt"
# the rendered KEYS section up to its first subsection (its own lines only),
# wide enough that no key line wraps
MANWIDTH=200 man -l "$SRCDIR/doc/cyctop.1" 2>/dev/null | sed 's/\x08.//g' |
	sed -n '/^KEYS$/,/^ \{0,3\}[A-Za-z]/p' | sed '$d' | tr -s ' ' | sed 's/^ //;s/ $//' >"$TMP/page.txt"
[ -s "$TMP/page.txt" ] || fail "cyctop.1 has no KEYS section"
n=0
while IFS= read -r line; do
	grep -qxF -- "$line" "$TMP/page.txt" ||
		fail "help key line not in cyctop.1's KEYS: '$line' (regenerate the section from tui/view-help.c)"
	n=$((n + 1))
done <"$TMP/keys.txt"
[ "$n" -ge 20 ] || fail "only $n key lines compared"
ok
done_ok

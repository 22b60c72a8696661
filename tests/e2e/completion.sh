#!/bin/sh
# bash completion (completion/cyctop.bash): commands, each command's options
# as its --help lists them, event names and presets after -e (also after a
# comma), models, trees and themes, and the watched command after --.  Run
# in bash with and without the bash-completion package's helpers.
. "$SRCDIR/tests/e2e/lib.sh"

command -v bash >/dev/null || { echo "SKIP: no bash"; exit 77; }
# complete WORDS...: the candidates bash would offer for the last word
cat >"$TMP/complete.bash" <<'B'
[ -n "${WITH_BC:-}" ] && . "$WITH_BC"
. "$SRCDIR/completion/cyctop.bash"
mapfile -t COMP_WORDS <"$WORDS"
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="${COMP_WORDS[*]}" COMP_POINT=${#COMP_LINE}
_cyctop
printf '%s\n' "${COMPREPLY[@]}"
B
# the cyctop under test, by the name the user types
mkdir "$TMP/bin"
ln -s "$CYCTOP" "$TMP/bin/cyctop"
# offers WORDS... :: WANT...: each WANT among the candidates for the last
# word of "cyctop WORDS..." (an empty last word: the TAB after a space)
offers() {
	echo cyctop >"$TMP/words"
	_args=""
	while [ "$1" != "::" ]; do printf "%s\n" "$1" >>"$TMP/words"; _args="$_args $1"; shift; done
	shift
	PATH="$TMP/bin:$PATH" WORDS="$TMP/words" bash "$TMP/complete.bash" >"$TMP/got" 2>"$TMP/got.err" ||
		fail "completion of '$_args' failed: $(cat "$TMP/got.err")"
	for w in "$@"; do
		grep -qxF -- "$w" "$TMP/got" || fail "'cyctop$_args' does not offer $w: $(tr '\n' ' ' <"$TMP/got")"
	done
	ok
}

for bc in "" /usr/share/bash-completion/bash_completion; do
	if [ -n "$bc" ] && [ ! -r "$bc" ]; then
		skip_part "with the bash-completion package's helpers: $bc not installed"
		continue
	fi
	export WITH_BC="$bc"
	offers rec :: record
	offers "" :: record annotate tree list encode demo diff report help
	offers help rec :: record
	offers list cpu-c :: cpu-clock
	offers list mod :: models
	offers record --cal :: --call-graph
	offers -e cpu-c :: cpu-clock
	offers -e cpu-clock,page-f :: cpu-clock,page-faults
	offers -e @ :: @big4
	offers --model arm_n :: arm_n1 arm_n2
	offers tree --arch z :: zen
	offers --theme high :: high-contrast
	offers list "" :: models events presets trees metrics groups
	offers --call-graph "" :: dwarf fp
	offers --flame-metric "" :: none CPI tree-node-fraction baseline-delta
	offers -b --format flame --flame-metric base :: baseline-delta
	offers -b --form :: --format
	offers annotate --chi :: --child-output
	offers -- ech :: echo
done
done_ok

#!/bin/sh
# Libraries loaded on first use (engine/lib-load.c): reading a recording
# that names its CPU, and --version, map none of libmicrohttpd (with gnutls
# and the rest it needs), libpfm4, Zydis, libunwind and libzstd; cyctop
# serve maps libmicrohttpd, cyctop list libpfm4, cyctop annotate Zydis, a
# --call-graph dwarf recording libunwind and a perf record -z one libzstd
# (the check can fail); a library that cannot be loaded is one line naming
# it and exit 1, and does not stop a command that does not need it.  The
# dynamic linker says what it maps (LD_DEBUG=files: a "file=NAME" line
# each library, linked or dlopened).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }

# the libraries mapped by CMD..., one soname a line, in $TMP/maps
maps() {
	LD_DEBUG=files "$@" >"$TMP/out" 2>"$TMP/ld" || fail "$*: exit $?: $(grep -v '^ *[0-9]*:' "$TMP/ld")"
	sed -n 's/^ *[0-9]*:[[:space:]]*file=\([^ ]*\) .*/\1/p' "$TMP/ld" | sort -u >"$TMP/maps"
	grep -q '^libc\.so\.6$' "$TMP/maps" || fail "$*: LD_DEBUG=files names no libc: $(head -5 "$TMP/ld")"
}
LAZY='^lib(microhttpd|gnutls|pfm|Zydis|unwind|zstd)[.-]'
# expect_unmapped CMD...: none of the lazy libraries mapped
expect_unmapped() {
	maps "$@"
	if grep -E "$LAZY" "$TMP/maps"; then
		fail "$*: maps $(grep -E "$LAZY" "$TMP/maps" | tr '\n' ' ')"
	fi
	ok
}
# expect_mapped PATTERN CMD...: a library matching PATTERN mapped; its
# soname in $SONAME
expect_mapped() {
	_pat=$1
	shift
	maps "$@"
	SONAME=$(grep -E "$_pat" "$TMP/maps" | head -n 1) || fail "$*: maps no $_pat"
	ok
}

perf record -q -e "$TEST_EVENT" -c 100000 -o "$TMP/small.data" -- "$WORKLOADS/mix" 0.05 \
	>/dev/null 2>&1 || { echo "SKIP: perf record -e $TEST_EVENT failed"; exit 77; }
keep_on_fail "$TMP/small.data"

expect_unmapped "$CYCTOP" --version
expect_unmapped "$CYCTOP" -b -i "$TMP/small.data" --format json
cp "$TMP/out" "$TMP/small.json"
grep -q '"work_60"' "$TMP/small.json" || fail "the recording read: $(head -c 500 "$TMP/small.json")"
ok
expect_unmapped "$CYCTOP" -b -i "$TMP/small.data"

maps "$CYCTOP" list models
pfm=$(grep '^libpfm\.so\.' "$TMP/maps") || fail "cyctop list models does not map libpfm4"
ok
maps "$CYCTOP" serve --listen 127.0.0.1:0 -e "$TEST_EVENT" -- "$WORKLOADS/mix" 0.05
mhd=$(grep '^libmicrohttpd\.so\.' "$TMP/maps") || fail "cyctop serve does not map libmicrohttpd"
ok

# Zydis: the first x86-64 code decoded (annotate, the asm view)
zydis=
if [ "$(uname -m)" = x86_64 ]; then
	expect_mapped '^libZydis\.so\.' "$CYCTOP" annotate work_60 -i "$TMP/small.data"
	zydis=$SONAME
	cp "$TMP/out" "$TMP/annotate.txt"
	grep -q 'work_60' "$TMP/annotate.txt" || fail "annotate: $(head -5 "$TMP/annotate.txt")"
	ok
fi
# libunwind: the first dwarf stack (a file's, a live watch's)
unwind=
if perf record -q -e "$TEST_EVENT" -c 100000 --call-graph dwarf -o "$TMP/dwarf.data" -- \
	"$WORKLOADS/mix" 0.05 >/dev/null 2>&1; then
	keep_on_fail "$TMP/dwarf.data"
	expect_mapped '^libunwind-[a-z0-9_]*\.so\.' "$CYCTOP" -b -i "$TMP/dwarf.data" --format folded
	unwind=$SONAME
	cp "$TMP/out" "$TMP/dwarf.folded"
	grep -q 'main;' "$TMP/dwarf.folded" || fail "dwarf stacks: $(head -3 "$TMP/dwarf.folded")"
	ok
else
	skip_part "perf record --call-graph dwarf failed"
fi
# libzstd: the first COMPRESSED record (perf record -z, the fuzz corpus's)
zfile=$SRCDIR/tests/fuzz/corpus/perfdata/perf-z.data
expect_mapped '^libzstd\.so\.' "$CYCTOP" -b -i "$zfile" --format json
zstd=$SONAME
cp "$TMP/out" "$TMP/z.json"
grep -q '"samples": [1-9]' "$TMP/z.json" || fail "perf record -z file: $(head -c 300 "$TMP/z.json")"
ok

# A library that cannot be loaded: /dev/null bound over its file in a mount
# namespace of its own (the dynamic linker finds the file and reads nothing).
# lib_file SONAME: its file, as ldconfig's cache names it
lib_file() {
	ldconfig -p 2>/dev/null | awk -v so="$1" '$1 == so { print $NF; exit }'
}
hide_run() { # FILE CMD...: CMD with FILE empty, its status in $RC
	_f=$(readlink -f "$1")
	shift
	RC=0
	unshare -m sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$_f" "$@" \
		>"$TMP/out" 2>"$TMP/err" || RC=$?
}
mhd=$(lib_file "$mhd")
pfm=$(lib_file "$pfm")
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1 || [ -z "$mhd" ] || [ -z "$pfm" ] ||
   ! unshare -m sh -c "mount --bind /dev/null '$(readlink -f "$pfm")'" 2>/dev/null; then
	skip_part "hiding a library needs root, unshare, a mount namespace and ldconfig's cache"
	done_ok
fi
hide_run "$mhd" "$CYCTOP" serve --listen 127.0.0.1:0 -- "$WORKLOADS/mix" 0.05
expect_rc 1 "cyctop serve without libmicrohttpd"
expect_err "cyctop: serve: " "serve's error"
expect_err "$(basename "$mhd")" "the library named"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "serve: more than one line: $(cat "$TMP/err")"
ok

hide_run "$pfm" "$CYCTOP" -b -i "$TMP/small.data" --format json
expect_rc 0 "cyctop -b -i without libpfm4"
cmp -s "$TMP/out" "$TMP/small.json" || fail "-i without libpfm4: another output"
ok
[ ! -s "$TMP/err" ] || fail "-i without libpfm4 says: $(cat "$TMP/err")"
ok
hide_run "$pfm" "$CYCTOP" encode cycles
expect_rc 1 "cyctop encode without libpfm4"
expect_err "$(basename "$pfm")" "the library named"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "encode: more than one line: $(cat "$TMP/err")"
ok

# hide_fails SONAME DESC CMD...: without SONAME's file CMD says one line
# naming it and exits 1; a plain -i reads as before, silent
hide_fails() {
	_file=$(lib_file "$1")
	_desc=$2
	shift 2
	[ -n "$_file" ] || fail "$1: not in ldconfig's cache"
	hide_run "$_file" "$@"
	expect_rc 1 "$_desc without $(basename "$_file")"
	expect_err "$(basename "$_file")" "$_desc: the library named"
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || fail "$_desc: more than one line: $(cat "$TMP/err")"
	ok
	hide_run "$_file" "$CYCTOP" -b -i "$TMP/small.data" --format json
	expect_rc 0 "cyctop -b -i without $(basename "$_file")"
	cmp -s "$TMP/out" "$TMP/small.json" || fail "-i without $(basename "$_file"): another output"
	[ ! -s "$TMP/err" ] || fail "-i without $(basename "$_file") says: $(cat "$TMP/err")"
	ok
}
[ -z "$zydis" ] || hide_fails "$zydis" annotate "$CYCTOP" annotate work_60 -i "$TMP/small.data"
[ -z "$unwind" ] || hide_fails "$unwind" "a dwarf file" "$CYCTOP" -b -i "$TMP/dwarf.data"
hide_fails "$zstd" "a perf record -z file" "$CYCTOP" -b -i "$zfile"
done_ok

#!/bin/sh
# Code without a symbol: a library built here with its work in two static
# functions (2:1) and stripped (.dynsym only, as Debian ships libraries).
# perf report lists each sampled address of theirs on its own row (0x...);
# cyctop gives each the function its .eh_frame FDE covers, a row named
# [libfoo.so.1+0xSTART] with START what nm of the unstripped copy says,
# whose share is the sum of perf's rows in [START, START + size), and which
# cyctop annotate (the asm view's data) opens over the function's range.
# Code no FDE covers either has a row per address, as perf's (below).
. "$SRCDIR/tests/e2e/lib.sh"

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf"; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
command -v strip >/dev/null 2>&1 && command -v nm >/dev/null 2>&1 ||
	{ echo "SKIP: no binutils (strip, nm)"; exit 77; }
cat >"$TMP/foo.c" <<'C'
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void spin_two(long n)
{
	double x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 0.5;
	sink = x;
}

__attribute__((noinline)) static void spin_one(long n)
{
	double x = 2.0;
	for (long i = 0; i < n; i++)
		x = x * 0.9999999 + 0.25;
	sink = x;
}

void foo_run(double seconds)
{
	double end = now() + seconds;
	while (now() < end) {
		spin_two(2000000);
		spin_one(1000000);
	}
}
C
cat >"$TMP/main.c" <<'C'
#include <stdlib.h>
void foo_run(double seconds);
int main(int argc, char **argv)
{
	foo_run(argc > 1 ? atof(argv[1]) : 1.0);
	return 0;
}
C
cd "$TMP" || fail "cd $TMP"
cc -O2 -fPIC -shared -Wl,-soname,libfoo.so.1 -o libfoo.so.1.full foo.c &&
	cp libfoo.so.1.full libfoo.so.1 && strip --strip-unneeded libfoo.so.1 &&
	cc -O2 -o main main.c ./libfoo.so.1 || fail "building the library"
[ -z "$(nm libfoo.so.1 2>/dev/null | grep spin_)" ] || fail "the library kept its static symbols"
ok
LD_LIBRARY_PATH="$TMP" perf record -q -e cpu-clock -o s.data -- ./main 1 >/dev/null 2>&1 ||
	{ echo "SKIP: perf record -e cpu-clock failed"; exit 77; }
perf report -i s.data --stdio --sort dso,sym 2>/dev/null |
	awk '$1 ~ /%$/ && $2 == "libfoo.so.1" { sub("%", "", $1); print $1, $4 }' >perf.txt
run "$CYCTOP" -b -i s.data --format json
expect_rc 0 "cyctop -i"
cp out s.json
# each static function (nm of the unstripped copy: address, size)
nm -S libfoo.so.1.full | awk '$3 ~ /^[tT]$/ && $4 ~ /^spin_/ { print $1, $2, $4 }' >funcs.txt
[ "$(wc -l <funcs.txt)" -eq 2 ] || fail "nm: $(cat funcs.txt)"
while read -r start size fn; do
	row=$(printf '[libfoo.so.1+0x%x]' "0x$start")
	end=$(printf '%d' $((0x$start + 0x$size)))
	want=$(while read -r pct addr; do
		case $addr in 0x*) ;; *) continue ;; esac  # foo_run: named
		a=$(printf '%d' "$addr")
		[ "$a" -ge $((0x$start)) ] && [ "$a" -lt "$end" ] && echo "$pct"
	done <perf.txt | awk '{ t += $1 } END { printf "%.2f", t }')
	got=$(json_last s.json "round(sum(f['percent']['cpu-clock'] for f in o['functions'] if f['name'] == '$row' and f['module'].endswith('/libfoo.so.1')), 2)")
	awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 20 && d <= 0.03) }' ||
		fail "$fn: $row $got %, perf report's addresses in it $want % ($(cat perf.txt))"
	ok
	run "$CYCTOP" annotate "$row" -i s.data
	expect_rc 0 "cyctop annotate $row"
	expect_out "$(printf '# %s in %s/libfoo.so.1 [0x%x, 0x%x)' "$row" "$TMP" "0x$start" "$end")" \
		"$fn's code, its range as nm says"
done <funcs.txt

# Code no symbol and no FDE covers: the same library and a non-PIE
# executable with a hot loop of its own, built without unwind tables and
# stripped.  perf report lists each sampled address on a row of its own,
# named by its address in the file (0x%016x: the mapping's file offset plus
# the distance from its start, which in the executable is not the ELF
# address 0x401...); cyctop must list the same rows, named alike, with the
# same shares (the same file: exact, up to one step of the two decimals
# both print; compared in hundredths, since 2.64 - 2.63 is a hair over
# 0.01 in floating point and failed a row one rounding step apart).
cat >"$TMP/exe.c" <<'C'
#include <stdlib.h>
static volatile double sink;
void foo_run(double seconds);
__attribute__((noinline)) static void spin_exe(long n)
{
	double x = 3.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000002 + 0.125;
	sink = x;
}
int main(int argc, char **argv)
{
	for (int i = 0; i < 4; i++) {
		spin_exe(20000000);
		foo_run(argc > 1 ? atof(argv[1]) / 4 : 0.25);
	}
	return 0;
}
C
nocfi="-fno-asynchronous-unwind-tables -fno-unwind-tables"
mkdir nocfi && cd nocfi || fail "mkdir nocfi"
# shellcheck disable=SC2086 # nocfi: several flags
cc -O2 $nocfi -fPIC -shared -Wl,-soname,libfoo.so.1 -o libfoo.so.1 ../foo.c &&
	strip --strip-unneeded libfoo.so.1 &&
	cc -O2 $nocfi -no-pie -o exe ../exe.c ./libfoo.so.1 && strip exe ||
	fail "building the library and executable without unwind tables"
ok
LD_LIBRARY_PATH="$TMP/nocfi" perf record -q -e cpu-clock -c 250000 -o n.data -- ./exe 1 \
	>/dev/null 2>&1 || fail "perf record -e cpu-clock -c 250000 ./exe"
perf report -i n.data --stdio --sort dso,sym 2>/dev/null |
	awk '$1 ~ /%$/ && ($2 == "libfoo.so.1" || $2 == "exe") {
		sub("%", "", $1); print $2, $4, $1 }' | sort >perf.txt
grep -q '^exe 0x0000000000001' perf.txt && grep -q '^libfoo.so.1 0x' perf.txt ||
	fail "perf report names no address of exe and libfoo.so.1 by itself: $(cat perf.txt)"
ok
# The C runtime's objects linked in keep their FDEs (_start's, crt1.o's):
# a sample there is a function of cyctop's ([exe+0x4010a0]) and an
# address of perf's.  Both are left out: this compares code no FDE covers.
for m in exe libfoo.so.1; do
	readelf -lW $m | awk -v m=$m '$1 == "LOAD" && /E/ { print m, "load", $2, $3 }'
	readelf --debug-dump=frames $m 2>/dev/null |
		sed -n "s/.* pc=\([0-9a-f]*\)\.\.\([0-9a-f]*\).*/$m fde 0x\1 0x\2/p"
done >layout.txt
python3 - perf.txt layout.txt >perf-nofde.txt <<'PY' || fail "leaving out the rows in FDEs"
import sys
load, fde = {}, {}
for m, kind, a, b in (l.split() for l in open(sys.argv[2])):
	(load if kind == "load" else fde).setdefault(m, []).append((int(a, 16), int(b, 16)))
for line in open(sys.argv[1]):
	m, addr, pct = line.split()
	if not addr.startswith("0x"):  # a named row (foo_run): no address
		print(line, end="")
		continue
	va = int(addr, 16) - load[m][0][0] + load[m][0][1]  # file offset to ELF address
	if not any(lo <= va < hi for lo, hi in fde.get(m, [])):
		print(line, end="")
PY
run "$CYCTOP" -b -i n.data --format json
expect_rc 0 "cyctop -i n.data"
cp "$TMP/out" n.json
json_last n.json "'\\n'.join('%s %s %.2f' % (f['module'].rsplit('/', 1)[1], f['name'], f['percent']['cpu-clock']) for f in o['functions'] if f['module'].endswith(('/libfoo.so.1', '/exe')) and not f['name'].startswith('['))" |
	sort >cyctop.txt
join -j1 -a1 -a2 -e none -o 0,1.2,2.2 \
	"$(sed 's/ /:/' perf-nofde.txt >p.j && echo p.j)" "$(sed 's/ /:/' cyctop.txt >c.j && echo c.j)" |
	awk '{ d = ($2 - $3) * 100; if ($2 == "none" || $3 == "none" || d > 1.5 || d < -1.5) {
		print "  " $1 ": perf " $2 " %, cyctop " $3 " %"; bad = 1 } } END { exit bad }' >diff.txt ||
	fail "rows of code without symbol or FDE differ from perf report's:
$(cat diff.txt)"
ok
# the asm view of such a row: the instruction at its address
addr=$(awk '$1 == "exe" { print $2; exit }' perf.txt)
run "$CYCTOP" annotate "$addr" -i n.data
expect_rc 0 "cyctop annotate $addr"
expect_out "# $addr in $TMP/nocfi/exe [0x40" "$addr's instruction at its ELF address"
done_ok

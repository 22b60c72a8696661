#!/bin/sh
# Code without a symbol: a library built here with its work in two static
# functions (2:1) and stripped (.dynsym only, as Debian ships libraries).
# perf report lists each sampled address of theirs on its own row (0x...);
# cyctop gives each the function its .eh_frame FDE covers, a row named
# [libfoo.so.1+0xSTART] with START what nm of the unstripped copy says,
# whose share is the sum of perf's rows in [START, START + size), and which
# cyctop annotate (the asm view's data) opens over the function's range.
. "$SRCDIR/tests/lib.sh"

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
done_ok

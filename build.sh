#!/bin/sh
# cyctop's single entry point on a Debian machine.
#   ./build.sh demo    install what is missing, build, run cyctop on its demo
#   ./build.sh check   install what is missing, build, run every test
#                      (warnings as errors, then again under ASan + UBSan,
#                      then make distcheck)
#   ./build.sh build | deps | bench
set -eu

top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Debian packages the build and the tests need.
PACKAGES="build-essential autoconf automake pkg-config libncurses-dev libpfm4-dev
libunwind-dev libdw-dev libelf-dev libzydis-dev libcmocka-dev libiberty-dev libzstd-dev
tmux gawk python3 procps util-linux clang valgrind libc6-dbg libprotobuf-c-dev
protobuf-c-compiler zlib1g-dev golang-github-google-pprof-dev golang-go sqlite3 bzip2 xz-utils"

say() { printf 'build.sh: %s\n' "$*"; }

# apt-get install PACKAGES... as root (sudo if there is one).
install_packages() {
	say "installing:$*"
	if [ "$(id -u)" -eq 0 ]; then
		SUDO=""
	elif command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		say "need root to install:$*"
		exit 1
	fi
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# The same names on Debian 12 (bookworm) and 13 (trixie); what differs is
# looked up: the compiler-rt of the clang installed (libFuzzer, for the
# fuzz step), which clang-14 depends on but clang-19 only recommends.
deps() {
	missing=""
	arch=$(dpkg --print-architecture)
	for p in $PACKAGES; do  # NAME:ARCH where another architecture's is installed too
		dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$arch" >/dev/null 2>&1 ||
			missing="$missing $p"
	done
	command -v perf >/dev/null 2>&1 || missing="$missing linux-perf"
	# shellcheck disable=SC2086
	[ -z "$missing" ] || install_packages $missing
	v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
	if [ -n "$v" ] && ! dpkg -s "libclang-rt-$v-dev" >/dev/null 2>&1; then
		install_packages "libclang-rt-$v-dev"
	fi
}

configure_in() { # DIR [configure options]
	dir=$1
	shift
	[ -x configure ] && [ configure -nt configure.ac ] && [ configure -nt Makefile.am ] ||
		autoreconf -fi >/dev/null 2>&1
	mkdir -p "$dir"
	if [ ! -f "$dir/Makefile" ] || [ "$dir/config.status" -ot configure ]; then
		(cd "$dir" && ../configure -q "$@")
	fi
}

build() {
	configure_in build --enable-werror
	make -s -C build -j"$JOBS"
}

# Runs make check in DIR, prints failed tests' logs and a summary line.
run_tests() { # DIR LABEL
	dir=$1 label=$2
	rc=0
	log="$dir/test-suite.log"
	rm -f "$log"
	make -s -C "$dir" -j"$JOBS" check >"$dir/check.out" 2>&1 || rc=$?
	if [ -f "$log" ]; then
		pass=$(awk '/^# PASS:/ {print $3}' "$log")
		fail=$(awk '/^# (FAIL|ERROR|XPASS):/ {s += $3} END {print s + 0}' "$log")
		skip=$(awk '/^# SKIP:/ {print $3}' "$log")
	else
		pass=0 fail=1 skip=0
	fi
	if [ "$rc" -ne 0 ]; then
		tail -n 60 "$dir/check.out"
		[ -f "$log" ] && cat "$log"
		[ "$fail" -gt 0 ] || fail=1
	fi
	printf '%s: %s passed, %s failed, %s skipped\n' "$label" "${pass:-0}" "$fail" "${skip:-0}"
	TOTAL_PASS=$((TOTAL_PASS + ${pass:-0}))
	TOTAL_FAIL=$((TOTAL_FAIL + fail))
}

# libFuzzer targets, each from a copy of its seed corpus for FUZZ_SECONDS
# (30) -- tests/fuzz-NAME.c on tests/corpus/DIR/:
#   perfdata  the perf.data reader and the record decoder (engine/)
#   counts    the counts-file parser, event matching, the trees (arch/)
#   theme     the theme-file parser (tui/theme.c's theme_parse)
#   record    the record decoder alone, any format and record (engine/record.c)
#   pprof     the pprof reader: gunzip, protobuf-c, the reference checks
#             (engine/pprof-read.c with the profile.pb-c.c built into build/)
# clang brings compiler-rt's libFuzzer (Debian 12: clang-14 ->
# libclang-common-14-dev -> libclang-rt-14-dev).  A crash, leak, UB or
# timeout fails the check; the input that did it stays in the temporary
# directory named.
fuzz_one() {
	name=$1 corpus=$2
	shift 2
	fdir=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-fuzz-$name.XXXXXX")
	if ! clang -std=gnu11 -g -O1 -D_GNU_SOURCE -I. -DCYCTOP_LIBFUZZER \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o "$fdir/fuzz-$name" "tests/fuzz-$name.c" "$@" >"$fdir/build.log" 2>&1; then
		cat "$fdir/build.log"
		say "fuzz: $name: building the libFuzzer target FAILED"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		return 0
	fi
	mkdir "$fdir/corpus"
	cp "tests/corpus/$corpus"/* "$fdir/corpus/"
	if "$fdir/fuzz-$name" -max_total_time="${FUZZ_SECONDS:-30}" -timeout=10 \
		-print_final_stats=1 -artifact_prefix="$fdir/" "$fdir/corpus" >"$fdir/fuzz.log" 2>&1; then
		say "fuzz: $name: $(awk '/^stat::number_of_executed_units/ { r = $2 }
			/^stat::average_exec_per_sec/ { e = $2 }
			END { printf "%s runs, %s exec/s, no finding", r, e }' "$fdir/fuzz.log")"
		TOTAL_PASS=$((TOTAL_PASS + 1))
		rm -rf "$fdir"
	else
		tail -n 60 "$fdir/fuzz.log"
		say "fuzz: $name: FINDING (input and log in $fdir)"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
	fi
}

fuzz() {
	if ! command -v clang >/dev/null 2>&1; then
		say "fuzz: no clang, skipped"
		return 0
	fi
	fuzz_one perfdata perfdata engine/perfdata.c engine/record.c arch/hashtab.c -lzstd
	fuzz_one counts counts arch/*.c -lm
	fuzz_one theme themes -DTHEMESDIR='"themes"' -DBUILDDIR='"."' -DSRCTHEMESDIR='"themes"' \
		tui/theme.c arch/lines.c
	fuzz_one record record engine/record.c
	fuzz_one pprof pprof -Ibuild engine/pprof-read.c build/engine/profile.pb-c.c arch/hashtab.c \
		engine/callgraph.c -lprotobuf-c -lz
}

check() {
	TOTAL_PASS=0 TOTAL_FAIL=0
	build
	run_tests build "tests (-Werror)"
	configure_in build-san --enable-werror --enable-sanitizers
	make -s -C build-san -j"$JOBS"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		run_tests build-san "tests (ASan+UBSan)"
	if [ "${SKIP_DISTCHECK:-0}" != 1 ]; then
		if make -s -C build distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror \
			>build/distcheck.out 2>&1; then
			say "make distcheck: ok"
		else
			tail -n 60 build/distcheck.out
			say "make distcheck: FAILED"
			TOTAL_FAIL=$((TOTAL_FAIL + 1))
		fi
	fi
	[ "${SKIP_FUZZ:-0}" = 1 ] || fuzz
	printf 'all: %s passed, %s failed\n' "$TOTAL_PASS" "$TOTAL_FAIL"
	[ "$TOTAL_FAIL" -eq 0 ]
}

demo() {
	build
	say "cyctop demo: the bundled workloads, watched live (12 s)"
	./build/cyctop demo
	for f in examples/*.counts; do
		say "cyctop tree $f"
		./build/cyctop tree --clock-hz 2.2e9 "$f"
		echo
	done
}

cmd=${1:-demo}
case "$cmd" in
deps) deps ;;
build) deps && build ;;
demo) deps && demo ;;
check) deps && check ;;
bench) deps && build && ./bench/run ;;
*)
	echo "usage: ./build.sh [demo|check|build|deps|bench]" >&2
	exit 2
	;;
esac

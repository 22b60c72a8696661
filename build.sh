#!/bin/sh
# cyctop's single entry point on a Debian machine.
#   ./build.sh demo    install what is missing, build, run cyctop on its demo
#   ./build.sh check   install what is missing, build, run every test
#                      (warnings as errors, then again under ASan + UBSan,
#                      then make distcheck, the fuzzers, the Debian package
#                      (tests/package.sh), and the arm64
#                      build's checks in an emulated arm64 guest with a
#                      real PMU driver: tests/arm64/guest.sh)
#   ./build.sh arm64   install what is missing (cross compiler, the :arm64
#                      libraries, QEMU, an arm64 kernel, busybox and perf for
#                      the guest), cross-build into build-arm64/
#   ./build.sh build | deps | bench
set -eu

top=$(cd "$(dirname "$0")" && pwd)
cd "$top"
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Debian packages the build and the tests need.
PACKAGES="build-essential autoconf automake pkg-config libncurses-dev libpfm4-dev
libunwind-dev libdw-dev libelf-dev libzydis-dev libcmocka-dev libiberty-dev libzstd-dev
tmux gawk python3 procps util-linux clang valgrind libc6-dbg libprotobuf-c-dev
protobuf-c-compiler zlib1g-dev golang-github-google-pprof-dev golang-go sqlite3 bzip2 xz-utils
libcapstone-dev man-db bash-completion debhelper lintian chromium libmicrohttpd-dev prometheus"

# The arm64 build (./build.sh arm64): one list, Debian 12 bookworm and 13
# trixie names (apt-cache policy on both: the same names there).
#   ARM64_TOOLS  amd64 packages: the cross compiler, QEMU, cpio for the
#                guest's initramfs
#   ARM64_LIBS   installed as :arm64 beside the amd64 ones (multiarch):
#                what cyctop links, capstone for AArch64 and Zydis for x86
#                disassembly
#   ARM64_GUEST  downloaded and unpacked into build-arm64/guest/, never
#                installed: the stock kernel (whose armv8_pmuv3 driver
#                tests/arm64/guest.sh exercises), busybox, perf with the
#                libraries it needs (the reference figures), python3 with
#                its standard library (the end-to-end scripts' JSON checks)
ARM64_TOOLS="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
qemu-system-arm cpio"
ARM64_LIBS="libncurses-dev libpfm4-dev libunwind-dev libdw-dev libelf-dev libiberty-dev
libzstd-dev libprotobuf-c-dev zlib1g-dev libcmocka-dev libcapstone-dev libzydis-dev"
ARM64_GUEST="linux-image-cloud-arm64 busybox-static linux-perf python3-minimal libpython3-stdlib"
ARM64_PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig

say() { printf 'build.sh: %s\n' "$*"; }

need_root() { # what for
	if [ "$(id -u)" -eq 0 ]; then
		SUDO=""
	elif command -v sudo >/dev/null 2>&1; then
		SUDO="sudo"
	else
		say "need root to install:$1"
		exit 1
	fi
}

# Installs the packages named that dpkg does not have ("name" or
# "name:arm64").  A plain name is also looked up as NAME:ARCH: once another
# architecture's copy is installed (the arm64 build's), dpkg -s NAME is
# ambiguous and fails, and every run would reinstall it.
install_missing() { # packages...
	missing=""
	arch=$(dpkg --print-architecture)
	for p in "$@"; do
		dpkg -s "$p" >/dev/null 2>&1 || dpkg -s "$p:$arch" >/dev/null 2>&1 ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing:$missing"
	need_root "$missing"
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
}

# The same names on Debian 12 (bookworm) and 13 (trixie); what differs is
# looked up: the compiler-rt of the clang installed (libFuzzer, for the
# fuzz step), which clang-14 depends on but clang-19 only recommends.
deps() {
	# shellcheck disable=SC2086
	install_missing $PACKAGES
	command -v perf >/dev/null 2>&1 || install_missing linux-perf
	v=$(clang --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
	[ -z "$v" ] || install_missing "libclang-rt-$v-dev"
}

# The arm64 build's packages, and the guest's files in build-arm64/guest/:
# vmlinuz, and root/ with busybox, perf and the libraries of the packages
# named (dpkg-deb -x of each .deb).  Downloaded once (guest/ok names the
# packages: another list downloads again).
arm64_deps() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		need_root "the arm64 architecture"
		$SUDO dpkg --add-architecture arm64
		$SUDO apt-get update -qq
	fi
	# shellcheck disable=SC2086
	install_missing $ARM64_TOOLS $(printf '%s:arm64 ' $ARM64_LIBS)
	g=$top/build-arm64/guest
	[ "$(cat "$g/ok" 2>/dev/null)" = "$ARM64_GUEST" ] && return 0
	rm -rf "$g"
	mkdir -p "$g/debs" "$g/root"
	# The guest packages and the libraries they need (perf's: libpython,
	# libperl...; python3's standard library), not perl's modules.
	# shellcheck disable=SC2086
	pk=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $(printf '%s:arm64 ' $ARM64_GUEST) |
		grep -E '^(lib|zlib|linux-perf|linux-image|busybox|python3).*:arm64$' |
		grep -vE -- '-dbg|firmware' | sort -u)
	# shellcheck disable=SC2086
	(cd "$g/debs" && apt-get download -q $pk >/dev/null 2>"$g/download.log") || {
		cat "$g/download.log"
		say "arm64: downloading the guest's packages FAILED"
		return 1
	}
	for d in "$g"/debs/*.deb; do
		dpkg-deb -x "$d" "$g/root"
	done
	# Debian 13's packages install under usr/ only (the merged /usr):
	# the guest's /bin and /lib are usr's there, as base-files makes them
	for d in bin lib; do
		[ -e "$g/root/$d" ] || [ ! -d "$g/root/usr/$d" ] || ln -s "usr/$d" "$g/root/$d"
	done
	cp "$g"/root/boot/vmlinuz-*-arm64 "$g/vmlinuz"
	rm -rf "$g/root/lib/modules" "$g/root/usr/lib/modules" "$g/root/boot" "$g/debs"
	[ -x "$g/root/bin/busybox" ] && [ -x "$g/root/usr/bin/perf" ] || {
		say "arm64: busybox or perf missing from the guest's packages"
		return 1
	}
	echo "$ARM64_GUEST" >"$g/ok"
}

# Cross-builds cyctop and its workloads into build-arm64/ from the same
# autotools files (no sanitizers: the guest runs the plain build), and the
# test helper the guest's end-to-end scripts call (tests/e2e/mk-session).
arm64() {
	arm64_deps
	configure_in build-arm64 --host=aarch64-linux-gnu --enable-werror \
		PKG_CONFIG_LIBDIR="$ARM64_PKG_CONFIG_LIBDIR"
	# one goal a make: two goals of one -j make raced on the archives they
	# share (two ARs of libtui.a) when the Makefile had been regenerated
	make -s -C build-arm64 -j"$JOBS" all
	make -s -C build-arm64 -j"$JOBS" tests/e2e/mk-session
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

# The parts of passing tests that did not run: a script's skip_part line
# (tests/e2e/lib.sh) or a cmocka case's skip() (its reason is printed just
# before it in the test's log).  Lists them; sets PARTS.
skipped_parts() { # DIR
	list=$1/skipped-parts.txt
	: >"$list"
	# the logs of tests/style-checks.sh and of tests/unit/, e2e/ and fuzz/
	for t in "$1"/tests/*.log "$1"/tests/*/*.log; do
		if grep -q '^:test-result: SKIP' "${t%.log}.trs" 2>/dev/null; then
			printf '  skipped whole: %s: %s\n' "$(basename "${t%.log}")" \
				"$(grep -m1 'SKIP' "$t")"
			continue
		fi
		grep -q '^:test-result: PASS' "${t%.log}.trs" 2>/dev/null || continue
		{
			grep -h '^SKIP-PART:' "$t"
			grep -h '^\[  SKIPPED \] [A-Za-z_]' "$t" | sort -u
		} | sed "s|^|  in $(basename "${t%.log}"): |" >>"$list"
	done
	cat "$list"
	PARTS=$(wc -l <"$list")
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
	skipped_parts "$dir"
	printf '%s: %s passed, %s failed, %s skipped (%s whole tests, %s parts of passing ones: listed above)\n' \
		"$label" "${pass:-0}" "$fail" $((${skip:-0} + PARTS)) "${skip:-0}" "$PARTS"
	TOTAL_PASS=$((TOTAL_PASS + ${pass:-0}))
	TOTAL_FAIL=$((TOTAL_FAIL + fail))
	TOTAL_SKIP=$((TOTAL_SKIP + ${skip:-0} + PARTS))
}

# libFuzzer targets, each from a copy of its seed corpus for FUZZ_SECONDS
# (30) -- tests/fuzz/fuzz-NAME.c on tests/fuzz/corpus/DIR/:
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
		-o "$fdir/fuzz-$name" "tests/fuzz/fuzz-$name.c" "$@" >"$fdir/build.log" 2>&1; then
		cat "$fdir/build.log"
		say "fuzz: $name: building the libFuzzer target FAILED"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		return 0
	fi
	mkdir "$fdir/corpus"
	cp "tests/fuzz/corpus/$corpus"/* "$fdir/corpus/"
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
	fuzz_one perfdata perfdata engine/perfdata-*.c engine/record.c lib/hashtab.c -lzstd
	fuzz_one counts counts arch/*.c lib/hashtab.c -lm
	fuzz_one theme themes -DTHEMESDIR='"themes"' -DBUILDDIR='"."' -DSRCTHEMESDIR='"themes"' \
		tui/theme.c arch/lines.c
	fuzz_one record record engine/record.c
	fuzz_one pprof pprof -Ibuild engine/pprof-read.c build/engine/profile.pb-c.c lib/hashtab.c \
		engine/callgraph.c engine/callgraph-snapshot.c -lprotobuf-c -lz
}

# The arm64 stage of check: ./build.sh arm64's build (a failure to install
# or build is a FAIL, not a skip), then tests/arm64/guest.sh's checks in the
# emulated guest, whose PASS/FAIL lines and counts join the totals.
arm64_check() {
	t0=$(date +%s)
	mkdir -p build
	if ! (arm64) >build/arm64.out 2>&1; then
		tail -n 40 build/arm64.out
		say "arm64: installing or cross-building FAILED (build/arm64.out)"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
		return 0
	fi
	rc=0
	sh tests/arm64/guest.sh build-arm64 >build/arm64-guest.out 2>&1 || rc=$?
	grep -E '^(PASS|FAIL|SKIP):' build/arm64-guest.out || true
	pass=$(grep -c '^PASS:' build/arm64-guest.out || true)
	fail=$(grep -c '^FAIL:' build/arm64-guest.out || true)
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		tail -n 20 build/arm64-guest.out
		fail=1   # no verdicts (or a skip: the build said it had everything)
	fi
	skip=$(grep -c '^SKIP:' build/arm64-guest.out || true)
	# the end-to-end scripts of tests/e2e/ run in the guest, each by its verdict
	e2e=$(sed -n 's/^\(PASS\|FAIL\|SKIP\): [^ ]*\/e2e-\([^ ]*\)\( (.*\)\{0,1\}$/\2 \1/p' \
		build/arm64-guest.out | paste -sd, - | sed 's/,/, /g')
	printf 'arm64 guest: %s passed, %s failed, %s skipped (%s s with the build); e2e scripts: %s\n' \
		"$pass" "$fail" "$skip" "$(($(date +%s) - t0))" "${e2e:-none}"
	TOTAL_PASS=$((TOTAL_PASS + pass))
	TOTAL_FAIL=$((TOTAL_FAIL + fail))
	TOTAL_SKIP=$((TOTAL_SKIP + skip))
}

# The Debian package built from the dist tarball and installed into a root
# of its own (tests/package.sh): one test in the totals.
package_check() {
	if sh tests/package.sh build >build/package.out 2>&1; then
		grep '^package:' build/package.out
		TOTAL_PASS=$((TOTAL_PASS + 1))
	else
		tail -n 40 build/package.out
		say "package: FAILED (build/package.out)"
		TOTAL_FAIL=$((TOTAL_FAIL + 1))
	fi
}

check() {
	TOTAL_PASS=0 TOTAL_FAIL=0 TOTAL_SKIP=0
	# the arm64 packages first: make check's tests/e2e/annotate-arm64.sh decodes
	# the arm64 glibc (a failure here fails the arm64 stage below)
	[ "${SKIP_ARM64:-0}" = 1 ] || (arm64_deps) >/dev/null 2>&1 || true
	build
	run_tests build "tests (-Werror)"
	configure_in build-san --enable-werror --enable-sanitizers
	make -s -C build-san -j"$JOBS"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		run_tests build-san "tests (ASan+UBSan)"
	if [ "${SKIP_DISTCHECK:-0}" != 1 ]; then
		# VERBOSE: a failing test's log is printed (the tree is removed)
		if make -s -C build distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror \
			VERBOSE=yes >build/distcheck.out 2>&1; then
			say "make distcheck: ok"
		else
			tail -n 150 build/distcheck.out
			say "make distcheck: FAILED"
			TOTAL_FAIL=$((TOTAL_FAIL + 1))
		fi
	fi
	[ "${SKIP_FUZZ:-0}" = 1 ] || fuzz
	[ "${SKIP_PACKAGE:-0}" = 1 ] || package_check
	[ "${SKIP_ARM64:-0}" = 1 ] || arm64_check
	printf 'all: %s passed, %s failed, %s skipped\n' "$TOTAL_PASS" "$TOTAL_FAIL" "$TOTAL_SKIP"
	[ "$TOTAL_FAIL" -eq 0 ]
}

# After the live part, one tree per method, measured rows only (each run of
# rows without a value folded into one line naming the events that would
# fill it): the Core2 master equation, IA-64's back-end bubbles, the AMD
# paper's basic measurements and perf's TopDown.  About 75 lines.
DEMO_TREES="examples/core2-handmade.counts examples/ia64-handmade.counts
examples/amd-matmul-dc.counts examples/icl-topdown-handmade.counts"

demo() {
	build
	say "cyctop demo: the bundled workloads, watched live (12 s)"
	./build/cyctop demo
	for f in $DEMO_TREES; do
		echo
		say "cyctop tree --measured $f"
		./build/cyctop tree --measured --clock-hz 2.2e9 "$f"
	done
	echo
	say "every tree (Intel, Zen, Arm...): cyctop list trees; the examples: cyctop tree examples/*.counts"
}

cmd=${1:-demo}
case "$cmd" in
deps) deps ;;
arm64) deps && arm64 ;;
build) deps && build ;;
demo) deps && demo ;;
check) deps && check ;;
bench) deps && build && ./bench/run ;;
*)
	echo "usage: ./build.sh [demo|check|build|deps|bench|arm64]" >&2
	exit 2
	;;
esac

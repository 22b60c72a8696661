#!/bin/sh
# cyctop's front door on a Debian machine (12 bookworm or 13 trixie):
#   ./build.sh demo    install what is missing, build, run cyctop on its demo
#   ./build.sh check   install what is missing, build, run every test: make
#                      check with warnings as errors, again under ASan +
#                      UBSan, make distcheck, the fuzzers (make fuzz), the
#                      Debian package (tests/package.sh) and the arm64
#                      build's checks in an emulated guest (tests/arm64/)
#   ./build.sh arm64   the arm64 cross-build into build-arm64/ (its
#                      packages, QEMU and the guest's files installed)
#   ./build.sh build | deps | bench
# check prints each stage's time, and last `all: N passed, N failed, N
# skipped`; SKIP_DISTCHECK, SKIP_FUZZ, SKIP_PACKAGE, SKIP_ARM64=1 leave a
# stage out.
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

# Configures DIR, again once configure is newer than it (and runs
# autoreconf once configure.ac or Makefile.am is newer; dash has -nt).
# shellcheck disable=SC2015,SC3013
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

# The stages' bodies: tests/stages.sh (make check twice, distcheck, the
# fuzzers, the package) and tests/arm64/stage.sh (the arm64 build and guest).
. "$top/tests/stages.sh"
. "$top/tests/arm64/stage.sh"

# Runs one stage of check (a function) and says how long it took.
stage() { # NAME FUNCTION
	stage_t0=$(date +%s)
	"$2"
	say "stage $1: $(($(date +%s) - stage_t0)) s"
}

add_totals() { # PASSED FAILED SKIPPED
	TOTAL_PASS=$((TOTAL_PASS + $1))
	TOTAL_FAIL=$((TOTAL_FAIL + $2))
	TOTAL_SKIP=$((TOTAL_SKIP + $3))
}

# Each stage prints its verdict and adds its counts to the totals; the
# failed tests' complaints come after them, where a cut log's reader looks.
check() {
	TOTAL_PASS=0 TOTAL_FAIL=0 TOTAL_SKIP=0
	check_t0=$(date +%s)
	FAILED=$(mktemp)  # the failed tests' complaints, printed last
	# the arm64 packages first: make check's tests/e2e/annotate-arm64.sh decodes
	# the arm64 glibc (a failure here fails the arm64 stage below)
	[ "${SKIP_ARM64:-0}" = 1 ] || (arm64_deps) >/dev/null 2>&1 || true
	# the stages in order: NAME, FUNCTION
	stage "tests (-Werror)" tests_werror
	stage "tests (ASan+UBSan)" tests_sanitized
	[ "${SKIP_DISTCHECK:-0}" = 1 ] || stage distcheck distcheck
	[ "${SKIP_FUZZ:-0}" = 1 ]      || stage fuzz fuzz
	[ "${SKIP_PACKAGE:-0}" = 1 ]   || stage package package_check
	[ "${SKIP_ARM64:-0}" = 1 ]     || stage arm64 arm64_check
	say "total: $(($(date +%s) - check_t0)) s"
	printf 'all: %s passed, %s failed, %s skipped\n' "$TOTAL_PASS" "$TOTAL_FAIL" "$TOTAL_SKIP"
	[ ! -s "$FAILED" ] || { echo "failed:"; cat "$FAILED"; }
	rm -f "$FAILED"
	[ "$TOTAL_FAIL" -eq 0 ]
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

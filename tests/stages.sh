# shellcheck shell=sh
# The stages of ./build.sh check but the arm64 one (tests/arm64/stage.sh),
# sourced by build.sh; their functions use its say, configure_in, build,
# JOBS and add_totals, and check's FAILED (the failed tests' complaints,
# printed last).  Each prints its verdict and adds its counts to the totals:
#   tests_werror     make check in build/ with warnings as errors
#   tests_sanitized  the same in build-san/ under ASan + UBSan
#   distcheck        make distcheck, then every tracked file in its tarball
#   fuzz             the libFuzzer targets (make fuzz)
#   package_check    the Debian package (tests/package.sh)
# Their files: check.out, summary.out and failed.txt in build/ and
# build-san/ (each make check's), and build/distcheck.out, dist-files.txt,
# fuzz.out and package.out.

# Runs make check in DIR; tests/summary.sh prints failed tests' logs, the
# skipped parts and a summary line, and its last line the three counts.
run_tests() { # DIR LABEL
	rm -f "$1/test-suite.log"
	rc=0
	make -s -C "$1" -j"$JOBS" check >"$1/check.out" 2>&1 || rc=$?
	sh tests/summary.sh "$1" "$2" "$rc" >"$1/summary.out"
	sed '$d' "$1/summary.out"
	cat "$1/failed.txt" >>"$FAILED" 2>/dev/null || true
	# shellcheck disable=SC2046
	add_totals $(tail -n 1 "$1/summary.out")
}

tests_werror() {
	build
	run_tests build "tests (-Werror)"
}

tests_sanitized() {
	configure_in build-san --enable-werror --enable-sanitizers
	make -s -C build-san -j"$JOBS"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		run_tests build-san "tests (ASan+UBSan)"
}

# make distcheck with Makefile.am's DISTCHECK_TESTS (the whole suite ran
# twice already), and every file git tracks in the tarball it made.
distcheck() {
	# VERBOSE: a failing test's log is printed (the tree is removed)
	# shellcheck disable=SC2016 # make expands $(DISTCHECK_TESTS)
	if make -s -C build distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror \
		TESTS='$(DISTCHECK_TESTS)' VERBOSE=yes >build/distcheck.out 2>&1 &&
		dist_holds_tracked_files; then
		say "make distcheck: ok"
	else
		tail -n 150 build/distcheck.out
		say "make distcheck: FAILED"
		add_totals 0 1 0
	fi
}

# The files git tracks that the tarball lacks, into build/distcheck.out
# (none but .gitignore and m4/.keep); true without git.
dist_holds_tracked_files() {
	git rev-parse --git-dir >/dev/null 2>&1 || return 0
	# shellcheck disable=SC2012 # make dist names it cyctop-VERSION.tar.gz
	tgz=$(ls build/cyctop-*.tar.gz 2>/dev/null | head -n 1)
	[ -n "$tgz" ] || { echo "distcheck: no tarball in build/" >>build/distcheck.out; return 1; }
	tar tzf "$tgz" | sed 's|^[^/]*/||' | sort >build/dist-files.txt
	missing=$(git ls-files | grep -vx '.gitignore\|m4/.keep' | sort | comm -23 - build/dist-files.txt)
	[ -z "$missing" ] && return 0
	printf 'distcheck: tracked files not in %s:\n%s\n' "$tgz" "$missing" >>build/distcheck.out
	return 1
}

# The libFuzzer targets (Makefile.am's `make fuzz`: each target from a copy
# of its seed corpus for FUZZ_SECONDS, 15 here, make fuzz's default 30),
# with clang's libFuzzer (Debian 12: clang-14 -> libclang-common-14-dev ->
# libclang-rt-14-dev).
fuzz() {
	if ! command -v clang >/dev/null 2>&1; then
		say "fuzz: no clang, skipped"
		return 0
	fi
	FUZZ_SECONDS=${FUZZ_SECONDS:-15} make -s -C build fuzz >build/fuzz.out 2>&1 || true
	grep -v '^fuzz: [0-9]* passed' build/fuzz.out | grep -E '^fuzz: ' || true
	p=$(sed -n 's/^fuzz: \([0-9]*\) passed, [0-9]* failed$/\1/p' build/fuzz.out)
	f=$(sed -n 's/^fuzz: [0-9]* passed, \([0-9]*\) failed$/\1/p' build/fuzz.out)
	if [ -z "$p" ]; then
		tail -n 40 build/fuzz.out
		say "fuzz: make fuzz FAILED (build/fuzz.out)"
		p=0 f=1
	fi
	add_totals "$p" "$f" 0
}

# The Debian package built from the dist tarball and installed into a root
# of its own (tests/package.sh): one test in the totals.
package_check() {
	if sh tests/package.sh build >build/package.out 2>&1; then
		grep '^package:' build/package.out
		add_totals 1 0 0
	else
		tail -n 40 build/package.out
		say "package: FAILED (build/package.out)"
		add_totals 0 1 0
	fi
}

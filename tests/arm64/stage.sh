# The arm64 stage of ./build.sh, sourced by it (its functions use build.sh's
# say, need_root, install_missing, configure_in, JOBS and add_totals):
#   arm64_deps   the cross compiler, the :arm64 libraries, QEMU, and the
#                guest's files in build-arm64/guest/
#   arm64        the cross-build into build-arm64/ (./build.sh arm64)
#   arm64_check  that build, then tests/arm64/guest.sh's checks in the
#                emulated guest (./build.sh check's last stage)

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
libzstd-dev libprotobuf-c-dev zlib1g-dev libcmocka-dev libcapstone-dev libzydis-dev
libmicrohttpd-dev"
ARM64_GUEST="linux-image-cloud-arm64 busybox-static linux-perf python3-minimal libpython3-stdlib"
ARM64_PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig

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

# The arm64 stage of check: ./build.sh arm64's build (a failure to install
# or build is a FAIL, not a skip), then tests/arm64/guest.sh's checks in the
# emulated guest, whose PASS/FAIL lines and counts join the totals.
arm64_check() {
	t0=$(date +%s)
	mkdir -p build
	if ! (arm64) >build/arm64.out 2>&1; then
		tail -n 40 build/arm64.out
		say "arm64: installing or cross-building FAILED (build/arm64.out)"
		add_totals 0 1 0
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
	add_totals "$pass" "$fail" "$skip"
}

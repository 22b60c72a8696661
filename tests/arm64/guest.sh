#!/bin/sh
# cyctop's live hardware path on a real kernel PMU driver: boots the arm64
# build (./build.sh arm64) under QEMU's TCG emulation of arm64, whose PMU
# the stock Debian arm64 kernel drives with its armv8_pmuv3 driver, and
# checks what cyctop counts, samples, multiplexes and unwinds there against
# perf in the same guest (tests/arm64/run.sh runs the commands,
# tests/arm64/checks.py asserts on their output).
#
#   tests/arm64/guest.sh [BUILD_DIR]      (default: build-arm64)
#
# One boot per CPU model: neoverse-n1 (libpfm4 arm_n1), cortex-a57
# (arm_ac57) and max (a CPU libpfm4 does not know), one vCPU each (two make
# counts depend on how QEMU interleaves them), neoverse-n1-smp2 (two
# vCPUs) for -a, neoverse-n1-selftest for cyctop selftest and
# neoverse-n1-e2e for the end-to-end scripts of tests/e2e/
# (ARM64_E2E: their names, "" none).  With
# -icount shift=0,sleep=off every instruction is one nanosecond of virtual
# time and every count is exact and the same each run.  Prints one line
# "PASS: name", "FAIL: name (why)" or "SKIP: name (why)" per check and
# "N passed, N failed"; exits 0 when nothing failed, 1 otherwise, 77 when
# there is nothing to run (no build, no guest kernel, no QEMU).
# Env: ARM64_CPUS (the boots, default "neoverse-n1 neoverse-n1-smp2
#      cortex-a57 max neoverse-n1-selftest neoverse-n1-e2e"),
#      ARM64_TIMEOUT (seconds per boot, default 480; the self-test's boot's
#      is ARM64_SELFTEST_TIMEOUT, default 900; the e2e boot's is
#      ARM64_E2E_TIMEOUT, default 600), ARM64_JOBS (boots side by side,
#      default the host's CPUs), ARM64_KEEP=1 (keep the
#      work directory, named on stderr).
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
b=$(cd "${1:-$src/build-arm64}" 2>/dev/null && pwd) || {
	echo "SKIP: arm64 (no ${1:-build-arm64}: run ./build.sh arm64)"
	exit 77
}
g=$b/guest
for f in "$b/cyctop" "$b/workloads/spin" "$g/vmlinuz" "$g/root/bin/busybox" "$g/root/usr/bin/perf"; do
	[ -e "$f" ] || {
		echo "SKIP: arm64 ($f missing: run ./build.sh arm64)"
		exit 77
	}
done
command -v qemu-system-aarch64 >/dev/null || {
	echo "SKIP: arm64 (no qemu-system-aarch64: run ./build.sh arm64)"
	exit 77
}

# The end-to-end scripts of tests/e2e/ the neoverse-n1-e2e boot runs (each
# one's PASS, FAIL or SKIP is a line of the summary): see tests/arm64/run.sh
E2E=${ARM64_E2E-cli-encode cli-tree fork-loop session callgraph-json}

w=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-arm64.XXXXXX")
if [ "${ARM64_KEEP:-0}" = 1 ]; then
	echo "guest.sh: work directory $w" >&2
else
	trap 'rm -rf "$w"' EXIT
fi

# --- the initramfs: busybox, cyctop, the workloads, perf, their libraries --
r=$w/root
mkdir -p "$r/bin" "$r/lib/aarch64-linux-gnu" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
# where the DT_NEEDED libraries are looked for: the guest's packages first
# (perf's), then the :arm64 libraries cyctop was linked with, the cross libc
libdirs="$g/root/lib/aarch64-linux-gnu $g/root/usr/lib/aarch64-linux-gnu
/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu /usr/aarch64-linux-gnu/lib"

addlibs() { # ELF: copies the DT_NEEDED closure of ELF into the root
	for so in $(aarch64-linux-gnu-readelf -d "$1" 2>/dev/null |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -e "$r/lib/aarch64-linux-gnu/$so" ] && continue
		found=""
		for d in $libdirs; do
			if [ -e "$d/$so" ]; then
				cp -L "$d/$so" "$r/lib/aarch64-linux-gnu/"
				found=1
				addlibs "$d/$so"
				break
			fi
		done
		[ -n "$found" ] || echo "guest.sh: $so (needed by $1) not found" >&2
	done
}

cp "$g/root/bin/busybox" "$r/bin/"
for d in $libdirs; do
	[ -e "$d/ld-linux-aarch64.so.1" ] && { cp -L "$d/ld-linux-aarch64.so.1" "$r/lib/"; break; }
done
for f in "$b/cyctop" "$b/workloads/spin" "$b/workloads/callers" "$g/root/usr/bin/perf"; do
	cp -L "$f" "$r/bin/"
	addlibs "$f"
done
# capstone, libpfm4, Zydis, libunwind and libzstd: loaded by cyctop on
# first use (dlopen, no DT_NEEDED entry names them: engine/lib-load.c), the
# sonames it was built with
for pat in 'libcapstone.so.[0-9]' 'libpfm.so.4' 'libZydis.so.[0-9].[0-9]' \
	'libunwind-aarch64.so.[0-9]' 'libzstd.so.[0-9]'; do
	for d in $libdirs; do
		for so in "$d"/$pat; do
			[ -e "$so" ] || continue
			cp -L "$so" "$r/lib/aarch64-linux-gnu/"
			addlibs "$so"
			break 2
		done
	done
done
cp "$src/tests/arm64/init" "$r/init"
cp "$src/tests/arm64/run.sh" "$r/run.sh"

chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet) >"$w/initrd"

# The end-to-end scripts of tests/e2e/ that need no terminal and no x86 host,
# run as make check runs them (CYCTOP, SRCDIR, WORKLOADS) in the
# neoverse-n1-e2e boot, with python3 (their JSON checks) and its standard
# library in /usr (its compiled-in prefix; the test-only and GUI parts of
# the library stay out), and pgrep and pkill, which the guest's busybox
# lacks (tests/arm64/pgrep): the same root and these, initrd-e2e.
if [ -n "$E2E" ]; then
	py=$(readlink -f "$g/root/usr/bin/python3")
	mkdir -p "$r/usr/bin" "$r/usr/lib"
	cp "$py" "$r/usr/bin/python3"
	ln -s /usr/bin/python3 "$r/bin/python3"
	addlibs "$py"
	cp "$src/tests/arm64/pgrep" "$r/bin/pgrep"
	cp "$src/tests/arm64/pgrep" "$r/bin/pkill"
	chmod +x "$r/bin/pgrep" "$r/bin/pkill"
	(cd "$g/root/usr/lib" && find "$(basename "$py")" \( -name test -o -name tests -o \
		-name idlelib -o -name tkinter -o -name turtledemo -o -name ensurepip -o \
		-name lib2to3 -o -name pydoc_data -o -name 'config-*' -o -name '_test*.so' \) \
		-prune -o -print | cpio -pdm --quiet "$r/usr/lib")
	for so in "$r/usr/lib/$(basename "$py")"/lib-dynload/*.so; do
		addlibs "$so"
	done
	mkdir -p "$r/src/tests/e2e" "$r/src/examples" "$r/workloads"
	cp "$src/tests/e2e/lib.sh" "$r/src/tests/e2e/"
	for t in $E2E; do
		cp "$src/tests/e2e/$t.sh" "$r/src/tests/e2e/"
	done
	cp "$src"/examples/*.counts "$r/src/examples/"
	for f in "$b"/workloads/*; do
		[ -f "$f" ] && [ -x "$f" ] && cp "$f" "$r/workloads/"
	done
	# the helper session.sh calls beside $CYCTOP (tests/e2e/ of the build)
	mkdir -p "$r/bin/tests/e2e"
	if [ -x "$b/tests/e2e/mk-session" ]; then
		cp "$b/tests/e2e/mk-session" "$r/bin/tests/e2e/"
		addlibs "$b/tests/e2e/mk-session"
	fi
	echo "$E2E" >"$r/e2e.list"
fi
[ -z "$E2E" ] || (cd "$r" && find . | cpio -o -H newc --quiet) >"$w/initrd-e2e"

# --- one boot per CPU model ------------------------------------------------
boot() { # MODEL SMP LOG CPU TIMEOUT INITRD
	timeout "$5" qemu-system-aarch64 -M virt -cpu "$1" -smp "$2" -m 1024 \
		-icount shift=0,sleep=off -nographic -no-reboot -nic none \
		-kernel "$g/vmlinuz" -initrd "$6" \
		-append "console=ttyAMA0 rdinit=/init panic=-1 quiet loglevel=1 cyctop.cpu=$4" \
		</dev/null >"$3" 2>&1 || true
}

CPUS=${ARM64_CPUS:-neoverse-n1 neoverse-n1-smp2 cortex-a57 max neoverse-n1-selftest${E2E:+ neoverse-n1-e2e}}
boot_cpu() { # CPU: its boot, with its model, vCPUs, timeout and initrd
	cpu=$1 smp=1 model=$1 to=${ARM64_TIMEOUT:-480} initrd=$w/initrd
	[ "$cpu" = neoverse-n1-smp2 ] && smp=2 model=neoverse-n1
	[ "$cpu" = neoverse-n1-selftest ] && model=neoverse-n1 to=${ARM64_SELFTEST_TIMEOUT:-900}
	[ "$cpu" = neoverse-n1-e2e ] && model=neoverse-n1 to=${ARM64_E2E_TIMEOUT:-600} \
		initrd=$w/initrd-e2e
	# max: pointer authentication by QEMU's own cheap algorithm (the
	# architected one's emulation costs a third of the run's time)
	[ "$cpu" = max ] && model=max,pauth-impdef=on
	t0=$(date +%s)
	boot "$model" "$smp" "$w/$cpu.log" "$cpu" "$to" "$initrd"
	echo "guest.sh: $cpu booted and ran in $(($(date +%s) - t0)) s" >&2
}
# The boots side by side, one a host CPU (ARM64_JOBS, default nproc): with
# -icount every count is the guest's virtual time's, whatever the host
# does beside it, and TCG under -icount runs a guest, -smp 2 too, on one
# host thread.  Lane K takes the boots K, K + JOBS...; the longest boots
# (the self-test's, the e2e scripts') come first in the lanes.
JOBS=${ARM64_JOBS:-$(nproc 2>/dev/null || echo 1)}
order=""
for cpu in neoverse-n1-selftest neoverse-n1-e2e $CPUS; do
	case " $CPUS " in *" $cpu "*) ;; *) continue ;; esac
	case " $order " in *" $cpu "*) ;; *) order="$order $cpu" ;; esac
done
lane=0
while [ "$lane" -lt "$JOBS" ]; do
	(
		k=0
		for cpu in $order; do
			[ $((k % JOBS)) -eq "$lane" ] && boot_cpu "$cpu"
			k=$((k + 1))
		done
	) &
	lane=$((lane + 1))
done
wait

# the host's cyctop reads the guest's recording too (cross-architecture -i)
[ -x "$src/build/cyctop" ] && CYCTOP_HOST=$src/build/cyctop && export CYCTOP_HOST
ARM64_E2E=$E2E python3 "$src/tests/arm64/checks.py" "$w" "$b" $CPUS

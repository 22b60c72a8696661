#!/bin/sh
# tests/distro.sh bookworm|trixie: the README's two commands in a fresh
# Debian root, as a newcomer on that release would run them.
#
# Builds a minimal root with debootstrap (--variant=minbase, the Debian
# mirror this machine's apt uses), gives it the installer's apt suites
# (RELEASE, -updates, -security) and upgrades it, clones the committed HEAD
# of this checkout into it, bind-mounts /proc /sys /dev /dev/pts /dev/shm and runs,
# as root in a chroot, `./build.sh demo` then `./build.sh check`; prints
# their summary lines.  The kernel (and its perf_event_open) is this
# machine's.  Not part of `./build.sh check`: it takes as long as the check
# plus the package installation.  Needs root and debootstrap.
#
# Cache (${DISTRO_CACHE:-/var/tmp/cyctop-distro}):
#   RELEASE-minbase.tar.gz  the debootstrapped root, made once (minutes)
#   RELEASE-debs/           apt's downloaded packages, kept across runs
#   RELEASE-root/           the last run's root (removed by the next run)
#   RELEASE.log             the last run's full output
# Every run starts from the tarball, so the root is fresh each time.
# SKIP_FUZZ, SKIP_DISTCHECK, FUZZ_SECONDS, JOBS pass through to build.sh.
set -eu

release=${1:-}
case "$release" in
bookworm | trixie) ;;
*)
	echo "usage: tests/distro.sh bookworm|trixie" >&2
	exit 2
	;;
esac
[ "$(id -u)" -eq 0 ] || {
	echo "distro.sh: needs root (debootstrap, chroot, mount)" >&2
	exit 1
}
command -v debootstrap >/dev/null 2>&1 || {
	echo "distro.sh: needs debootstrap (apt-get install debootstrap)" >&2
	exit 1
}

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DISTRO_CACHE:-/var/tmp/cyctop-distro}
tarball=$cache/$release-minbase.tar.gz
debs=$cache/$release-debs
root=$cache/$release-root
log=$cache/$release.log
mkdir -p "$cache" "$debs/partial"

say() { printf 'distro.sh: %s\n' "$*"; }

# The first Debian archive URI in this machine's apt sources (deb822 URIs:
# or one-line deb), not the security archive; else deb.debian.org.
mirror() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^[ \t]*#/ { next }
			$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }
			$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' |
		grep -E '/debian/?$' | head -n 1
}

# The security archive's URI in this machine's apt sources, else Debian's.
security_mirror() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk '/^[ \t]*#/ { next }
			$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }
			$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' |
		grep -E '/debian-security/?$' | head -n 1
}

# Mount points under the root, deepest first, so they unmount in order.
mounts_under() {
	awk -v r="$1" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r
}

unmount_all() {
	for m in $(mounts_under "$root"); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}

# Never removes a root that still has a mount inside (/dev bound in).
remove_root() {
	unmount_all
	if [ -n "$(mounts_under "$root")" ]; then
		say "still mounted under $root, not removing it"
		exit 1
	fi
	rm -rf "$root"
}

if [ ! -f "$tarball" ]; then
	m=$(mirror)
	m=${m:-http://deb.debian.org/debian}
	say "debootstrap $release from $m (once; cached in $tarball)"
	tmp=$cache/$release-bootstrap
	rm -rf "$tmp"
	debootstrap --variant=minbase "$release" "$tmp" "$m" >"$cache/$release-debootstrap.log" 2>&1 || {
		tail -n 30 "$cache/$release-debootstrap.log"
		say "debootstrap failed (log: $cache/$release-debootstrap.log)"
		exit 1
	}
	rm -f "$tmp"/var/cache/apt/archives/*.deb
	tar -C "$tmp" -czf "$tarball.part" . && mv "$tarball.part" "$tarball"
	rm -rf "$tmp"
fi

remove_root
mkdir -p "$root"
tar -C "$root" -xzf "$tarball"
trap unmount_all EXIT INT TERM
cp /etc/resolv.conf "$root/etc/resolv.conf"
# The suites a Debian installer sets up (debootstrap writes RELEASE only):
# a fresh machine has RELEASE-updates and RELEASE-security too, and is
# upgraded (bookworm alone has perf 6.1.176, bookworm-security 6.1.192).
m=$(mirror)
s=$(security_mirror)
cat >"$root/etc/apt/sources.list" <<EOF
deb ${m:-http://deb.debian.org/debian} $release main
deb ${m:-http://deb.debian.org/debian} $release-updates main
deb ${s:-http://deb.debian.org/debian-security} $release-security main
EOF
git -C "$top" rev-parse HEAD >/dev/null
git clone -q "$top" "$root/root/cyctop"
say "$release root $root, cyctop $(git -C "$root/root/cyctop" log -1 --format='%h %s' | cut -c1-60)"

mount -t proc proc "$root/proc"
mount --bind /sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
[ -d /dev/shm ] && mount --bind /dev/shm "$root/dev/shm"
mount --bind "$debs" "$root/var/cache/apt/archives"
chroot "$root" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	apt-get upgrade -y -qq >/dev/null' >"$log" 2>&1 || {
	tail -n 20 "$log"
	say "apt-get upgrade in the root failed (log: $log)"
	exit 1
}

inroot() { # COMMAND: runs it in the root's checkout with a clean environment
	chroot "$root" /usr/bin/env -i HOME=/root TERM="${TERM:-xterm-256color}" \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${SKIP_FUZZ:+SKIP_FUZZ="$SKIP_FUZZ"} ${SKIP_DISTCHECK:+SKIP_DISTCHECK="$SKIP_DISTCHECK"} \
		${FUZZ_SECONDS:+FUZZ_SECONDS="$FUZZ_SECONDS"} ${JOBS:+JOBS="$JOBS"} \
		/bin/sh -c "cd /root/cyctop && $1" </dev/null
}

demo_rc=0 check_rc=0
say "./build.sh demo (log: $log)"
inroot './build.sh demo' >>"$log" 2>&1 || demo_rc=$?
say "./build.sh check"
inroot './build.sh check' >>"$log" 2>&1 || check_rc=$?

unmount_all
trap - EXIT INT TERM
echo "== $release =="
if [ "$demo_rc" -eq 0 ]; then echo "demo: ok"; else echo "demo: FAILED (exit $demo_rc)"; fi
grep -E '^(tests \(|build\.sh: (make distcheck|fuzz)|all: )' "$log" || true
[ "$check_rc" -eq 0 ] || echo "check: FAILED (exit $check_rc)"
[ "$demo_rc" -eq 0 ] && [ "$check_rc" -eq 0 ]

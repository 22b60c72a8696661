#!/bin/sh
# The Debian package, built and installed as a Debian user would: the
# release tarball (make dist) with its debian/ directory, dpkg-buildpackage
# -us -uc -b, lintian with no errors, then the .deb unpacked into a root of
# its own (dpkg -x: nothing touches this machine's /usr) and the installed
# cyctop run: --version, list models; every man page rendered by man -l
# without warnings; the completion, themes and examples where Debian puts
# them.  Run by ./build.sh check after the test suites (it builds cyctop
# once more, as the package build does).
#   tests/package.sh BUILD-DIR
set -eu
build=$(cd "${1:-build}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cyctop-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { printf 'package: FAIL: %s\n' "$*" >&2; exit 1; }
for tool in dpkg-buildpackage dh lintian man; do
	command -v "$tool" >/dev/null || fail "$tool is not installed (./build.sh deps installs it)"
done

make -s -C "$build" dist >"$tmp/dist.log" 2>&1 || { cat "$tmp/dist.log"; fail "make dist"; }
tarball=$(ls "$build"/cyctop-*.tar.gz | head -n 1)
tar -xzf "$tarball" -C "$tmp"
src=$(ls -d "$tmp"/cyctop-*/)
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; fail "dpkg-buildpackage"; }
deb=$(ls "$tmp"/cyctop_*.deb)
lintian --fail-on error "$deb" >"$tmp/lintian.log" 2>&1 ||
	{ cat "$tmp/lintian.log"; fail "lintian reports errors"; }
echo "package: $(basename "$deb"), lintian: $(grep -c '^E:' "$tmp/lintian.log") errors, $(grep -c '^W:' "$tmp/lintian.log") warnings"

# capstone, libmicrohttpd, libpfm4, Zydis, libunwind and libzstd are
# loaded at run time (dlopen): the package depends on them by name
for lib in 'libcapstone[0-9]' 'libmicrohttpd[0-9]' 'libpfm4' 'libzydis[0-9]' 'libunwind[0-9]' \
	'libzstd[0-9]'; do
	dpkg-deb -f "$deb" Depends | grep -q "$lib" ||
		fail "Depends names no $lib: $(dpkg-deb -f "$deb" Depends)"
done

root=$tmp/root
dpkg -x "$deb" "$root"
"$root/usr/bin/cyctop" --version >"$tmp/version" || fail "installed cyctop --version"
grep -q "^cyctop [0-9]" "$tmp/version" || fail "--version says: $(cat "$tmp/version")"
"$root/usr/bin/cyctop" list models >"$tmp/models" || fail "installed cyctop list models"
grep -q "^skl " "$tmp/models" || fail "list models: $(head -3 "$tmp/models")"
pages=$(find "$root/usr/share/man" -name '*.[0-9].gz' | sort)
[ -n "$pages" ] || fail "no man pages installed"
for page in $pages; do
	MANWIDTH=80 man --warnings -l "$page" >/dev/null 2>"$tmp/man.err" || fail "man -l $(basename "$page")"
	[ ! -s "$tmp/man.err" ] || fail "man -l $(basename "$page") warns: $(cat "$tmp/man.err")"
done
[ -r "$root/usr/share/bash-completion/completions/cyctop" ] || fail "no bash completion"
ls "$root"/usr/share/cyctop/themes/default.theme >/dev/null || fail "no themes"
ls "$root"/usr/share/doc/cyctop/examples/*.counts >/dev/null || fail "no examples"
ls "$root"/usr/share/doc/cyctop/examples/prometheus.yml* >/dev/null || fail "no scrape config"
unit=$(find "$root" -name cyctop-serve.service | head -n 1)
[ -n "$unit" ] || fail "no cyctop-serve.service"
grep -q '^NoNewPrivileges=yes' "$unit" || fail "cyctop-serve.service: not hardened"
echo "package: installed cyctop runs; $(echo "$pages" | wc -l) man pages render without warnings"

# Shared by the tmux tests (after tests/e2e/lib.sh): a tmux server per socket,
# the pane's text, polling for it, a fresh shell.  Headless TUI tests as
# ../shared/NOTES.md describes them.
command -v tmux >/dev/null 2>&1 || fail "tmux is required (build.sh installs it)"
# tmux daemonizes through /dev/null; a sandbox that replaced it with a file
# makes every tmux test fail in a confusing way, so say it plainly.
[ -c /dev/null ] || fail "/dev/null is not a character device (mknod -m 666 /dev/null c 1 3)"

N=0
SOCK="cyctop-test-$$-$N"
T() { tmux -L "$SOCK" "$@"; }
SOCKS=""
# tmux leaves its socket files behind: each is removed with the server;
# ON_EXIT is a test's own clean-up
ON_EXIT=:
trap 'T kill-server 2>/dev/null; rm -f $SOCKS; eval "$ON_EXIT"; rm -rf "$TMP"' EXIT
screen() { T capture-pane -p -t main; }
screen_dump() { echo "--- screen ---"; screen; echo "--- end ---"; }
# wait_screen TEXT DESC: poll the pane until TEXT shows
wait_screen() {
	_want=$1
	wait_for 'screen | grep -qF -- "$_want"' 20 "$2"
	ok
}
start() { # COLS ROWS: a shell in a fresh tmux server (a new socket each time)
	T kill-server 2>/dev/null || true
	N=$((N + 1))
	SOCK="cyctop-test-$$-$N"
	T -f /dev/null new-session -d -s main -x "$1" -y "$2" -e LANG=C.UTF-8 sh
	SOCKS="$SOCKS $(T display -p '#{socket_path}')"
	T send-keys -t main "PS1='READY\$ '" Enter
	wait_screen 'READY$' "shell prompt"
}
type_line() {
	T send-keys -t main "$1" Enter
}

#!/bin/sh
# End-to-end tests of the real binary in tmux: each tests/e2e/t_*.sh is
# sourced in a subshell with the helpers below, against its own home
# directory and a private tmux server.  Polls for the expected screen
# instead of sleeping.  Ends with "e2e: N passed, M failed".
set -u
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v tmux >/dev/null 2>&1; then
	echo "e2e: tmux not found: skipped (install tmux)"
	echo "e2e: 0 passed, 0 failed"
	exit 0
fi

pass=0
fail=0
failed=""

# --- helpers available to the tests -------------------------------------
# start [ARGS...]: runs cudalab in an 80x24 tmux pane (EXTRA_ENV: more NAME=VALUE)
# Each start gets a fresh tmux server: reusing a socket races with the old
# server's exit.
start() {
	stop
	_starts=$((_starts + 1))
	SOCK="$SOCK_BASE-$_starts"
	tmux -L "$SOCK" -f /dev/null new-session -d -x "${COLS:-80}" -y "${ROWS:-24}" \
		"env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 CUDALAB_HOME='$HOME_DIR' ${EXTRA_ENV:-} \
		 CUDALAB_CONTENT='${CONTENT:-$SRC}' $BIN $*; echo EXITED-\$?; sleep 30"
	tmux -L "$SOCK" set-option -g status off >/dev/null
}
screen() { tmux -L "$SOCK" capture-pane -p; }
keys() { tmux -L "$SOCK" send-keys "$@"; }
resize() { tmux -L "$SOCK" resize-window -x "$1" -y "$2" 2>/dev/null ||
	tmux -L "$SOCK" resize-pane -x "$1" -y "$2"; }
# wait_for TEXT [SECONDS]: polls the screen until it shows TEXT (fixed string)
wait_for() {
	_limit=$(( ${2:-5} * 20 ))
	_i=0
	while [ $_i -lt $_limit ]; do
		if screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "    expected on screen: $1"
	screen | sed 's/^/    | /'
	return 1
}
# holds 'SHELL TEXT' [SECONDS]: polls until the shell text succeeds, for
# checks of the screen that are more than one fixed string; a check made
# once, straight after a wait_for, can read a screen caught mid-redraw
holds() {
	_limit=$(( ${2:-5} * 20 ))
	_i=0
	while [ $_i -lt $_limit ]; do
		if eval "$1" >/dev/null 2>&1; then return 0; fi
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "    never held: $1"
	screen | sed 's/^/    | /'
	return 1
}
# wait_gone TEXT: polls until TEXT is no longer shown
wait_gone() {
	_i=0
	while [ $_i -lt 100 ]; do
		if ! screen | grep -qF -- "$1"; then return 0; fi
		sleep 0.05
		_i=$((_i + 1))
	done
	echo "    still on screen: $1"
	return 1
}
stop() { [ -z "$SOCK" ] || tmux -L "$SOCK" kill-server 2>/dev/null || true; }
cli() { CUDALAB_HOME="$HOME_DIR" CUDALAB_CONTENT="${CONTENT:-$SRC}" "$BIN" "$@"; }

# --- the runner ------------------------------------------------------------
for t in "$SRC"/tests/e2e/t_*.sh; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .sh)
	# E2E_ONLY="name ..." runs just those
	case " ${E2E_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	HOME_DIR=$(mktemp -d /tmp/cudalab-e2e-XXXXXX)
	SOCK_BASE="cudalab-e2e-$$-$name"
	SOCK=""
	_starts=0
	# not inside "if": set -e must stay in force in the subshell
	# a check that fails without a word still leaves the screen it saw
	( set -e
	  trap '_rc=$?; [ $_rc -eq 0 ] || { echo "    stopped (status $_rc) on this screen:"
		[ -z "$SOCK" ] || screen 2>/dev/null | sed "s/^/    | /"; }' EXIT
	  . "$t" ) >"$HOME_DIR.log" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok   $name"
	else
		fail=$((fail + 1))
		failed="$failed $name"
		echo "FAIL $name"
		sed 's/^/     /' "$HOME_DIR.log"
	fi
	for s in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK_BASE"-*; do
		[ -S "$s" ] && tmux -S "$s" kill-server 2>/dev/null; rm -f "$s"
	done
	rm -rf "$HOME_DIR" "$HOME_DIR.log"
done
echo "e2e: $pass passed, $fail failed"
[ $fail -eq 0 ]

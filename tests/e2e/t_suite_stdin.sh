# The script suites never wait on a terminal: the run suite's test that
# runs a program copying its stdin (fixtures/run/programs/echo.cu) ends in
# a pane whose stdin is a terminal, as with `make test` typed at a prompt.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
SOCK="$SOCK_BASE-suite"
tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 20 \
	"cd '$SRC' && RUN_ONLY=simt_attaches_counters CUDALAB_BIN='$BIN' NVCC='$NVCC' \
	 sh tests/run/run.sh; echo SUITE-EXITED-\$?; sleep 30"
tmux -L "$SOCK" set-option -g status off >/dev/null
wait_for "SUITE-EXITED-" 240
wait_for "run: 1 passed, 0 failed" 1

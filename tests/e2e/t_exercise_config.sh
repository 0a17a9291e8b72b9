# The lab reads its config again before each check: a backend set while
# it runs is used, and an error it causes, or one in the config itself,
# names the config file (and line).
mkdir -p "$HOME_DIR/far"
EXTRA_ENV="PATH='$SRC/tests/fixtures/remote:$PATH' REMOTE_HOME='$HOME_DIR/far'"
COLS=160 ROWS=30
start read vector-add
wait_for "Exercise: Vector add"
printf 'backend = ssh:unknown\n' >"$HOME_DIR/config"
keys c
wait_for "cannot run: " 60
wait_for "unknown"
wait_for "(the backend ssh:unknown is set in $HOME_DIR/config)"
printf 'backend = ssh:unknown\nbackend: simt\n' >"$HOME_DIR/config"
keys c
wait_for "cannot check: $HOME_DIR/config:2: expected \"key = value\""
keys q q
wait_for "EXITED-0"

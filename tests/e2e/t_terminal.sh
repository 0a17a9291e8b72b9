# The terminal is restored when the lab is killed; TERM=dumb and a too
# small window get clear words instead of garbage; NO_COLOR still works.
CONTENT="$SRC/tests/fixtures/e2e"
start
wait_for "1 Lessons"
pane=$(tmux -L "$SOCK" list-panes -F '#{pane_pid}')
pkill -TERM -P "$pane"
wait_for "EXITED-"
wait_gone "1 Lessons"
EXTRA_ENV="TERM=dumb"
start
wait_for "use 'cudalab read ID --plain'"
wait_for "EXITED-2"
EXTRA_ENV="NO_COLOR=1"
start
wait_for "1 Lessons"
keys Enter
wait_for "A warp is thirty-two lanes"
keys q q
wait_for "EXITED-0"

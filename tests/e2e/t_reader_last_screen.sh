# A lesson whose quiz is on its last screen: a search finds "Choose all"
# where a paragraph wraps between the two words; the ticks of a
# choose-all answer stay after it is submitted; and with the quiz
# answered, the status line says what the lesson still needs.  The first
# paragraph wraps there at 80 columns, the second at 120.
CONTENT="$SRC/tests/fixtures/e2e-end"
for size in 80x24 120x40; do
	COLS=${size%x*} ROWS=${size#*x}
	start read ends-with-quiz
	wait_for "quiz 1, all that apply: 1-3 tick"
	keys /
	keys "Choose all" Enter
	wait_for '"Choose all": match 1 of 3'
	keys 1 3
	wait_for "quiz 1: ticked 1,3"
	keys Enter
	wait_for "Your answer: 1,3 (right)"
	wait_for "[x] 1) fusing two kernels"
	wait_for "[ ] 2) more threads"
	wait_for "[x] 3) a smaller type"
	keys j
	wait_for "to complete: "
	wait_for "more time"
	keys q q
	wait_for "EXITED-0"
	rm -f "$HOME_DIR/progress.db"
done

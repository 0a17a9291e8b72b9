# An answer moves the quiz the digits answer on to the next one on the
# screen, so the next digit answers quiz 2 rather than quiz 1 again; a
# search that lands on quiz 4 gives it the digits, not quiz 3 above it.
# At 80x24 and at 120x40.
CONTENT="$SRC/tests/fixtures/e2e-quiz"
for size in 80x24 120x40; do
	COLS=${size%x*} ROWS=${size#*x}
	start read quizzes
	wait_for "quiz 1: press 1-3 to answer"
	keys 2
	wait_for "Thirty-two on every NVIDIA GPU so far."
	wait_for "right; digits now answer quiz 2"
	keys 1
	wait_for "It is a barrier for one block."
	[ "$(screen | grep -c 'Your answer')" -eq 2 ]
	keys /
	keys Fourth Enter
	wait_for '"Fourth": match 1 of 1'
	keys 2
	wait_for "quiz 4: ticked 2"
	keys q q
	wait_for "EXITED-0"
	if command -v sqlite3 >/dev/null 2>&1; then
		[ "$(sqlite3 "$HOME_DIR/progress.db" \
			"SELECT quiz, choices FROM quiz_attempt ORDER BY id" | tr '\n' ' ')" = \
			"0|1 1|0 " ]
	fi
	rm -f "$HOME_DIR/progress.db"
done

# The first answer counts: a second answer to the same quiz is shown beside
# it and stored after it, and the first stays after a restart.
CONTENT="$SRC/tests/fixtures/e2e-quiz"
start read quizzes
wait_for "quiz 1: press 1-3 to answer"
keys 1
wait_for "Your answer: 1 (wrong)"
wait_for "Thirty-two on every NVIDIA GPU so far."
keys ] [
wait_for "quiz 1: press 1-3 to answer again (the first answer counts)"
keys 2
wait_for "right this time; your first answer, wrong, is the one that counts"
wait_for "First answer: 1 (wrong); latest: 2 (right)"
keys q q
wait_for "EXITED-0"
if command -v sqlite3 >/dev/null 2>&1; then
	[ "$(sqlite3 "$HOME_DIR/progress.db" \
		"SELECT quiz, choices, correct FROM quiz_attempt ORDER BY id" | tr '\n' ' ')" = \
		"0|0|0 0|1|1 " ]
fi
start read quizzes
wait_for "First answer: 1 (wrong); latest: 2 (right)"
keys q q
wait_for "EXITED-0"

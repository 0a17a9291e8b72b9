# Several quizzes on one screen: digits answer the first until ] moves the
# focus; ] ] [ ] reaches the third, whose answer is the only one stored
# (quiz index 2, choice index 1) and the only one shown after a restart.
CONTENT="$SRC/tests/fixtures/e2e-quiz"
start read quizzes
wait_for "Quiz 3: Third: where does shared memory live?"
wait_for "quiz 1: press 1-3 to answer"
keys ]
wait_for "quiz 2: press 1-3 to answer"
keys ]
wait_for "quiz 3: press 1-3 to answer"
keys [
wait_for "quiz 2: press 1-3 to answer"
keys ]
wait_for "quiz 3: press 1-3 to answer"
keys 2
wait_for "Each SM has its own."
wait_for "Your answer: 2 (right)"
wait_for "quizzes 1/4"
wait_for "Quiz 1: First: how many lanes does a warp have?"
holds '[ "$(screen | grep -c "Your answer")" -eq 1 ]'
! screen | grep -qF "Thirty-two on every NVIDIA GPU so far."
keys q q
wait_for "EXITED-0"
if command -v sqlite3 >/dev/null 2>&1; then
	[ "$(sqlite3 "$HOME_DIR/progress.db" \
		"SELECT quiz, choices, correct FROM quiz_attempt WHERE lesson = 'quizzes'")" = "2|1|1" ]
fi
start read quizzes
wait_for "Your answer: 2 (right)"
wait_for "quizzes 1/4"
holds '[ "$(screen | grep -c "Your answer")" -eq 1 ]'
screen | grep -B4 "Your answer: 2 (right)" | grep -qF "Each SM has its own."
keys q q
wait_for "EXITED-0"

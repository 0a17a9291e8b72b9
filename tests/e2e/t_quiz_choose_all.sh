# A choose-all quiz: digits tick choices without revealing anything; one of
# the two right choices submitted is wrong; both are right, and the first
# (wrong) answer still counts.
CONTENT="$SRC/tests/fixtures/e2e-quiz"
start read quizzes
wait_for "quiz 1: press 1-3"
keys ] ] ]
wait_for "quiz 4, all that apply: 1-4 tick, Enter submits"
wait_for "[ ] 1) fusing it with its neighbours"
keys 1
wait_for "[x] 1) fusing it with its neighbours"
wait_for "quiz 4: ticked 1"
! screen | grep -qF "Only moving fewer bytes helps"
! screen | grep -qF "✓"
keys Enter
wait_for "not quite: see the explanation"
wait_for "Only moving fewer bytes helps a memory-bound kernel."
wait_for "Your answer: 1 (wrong)"
keys 3 1
wait_for "quiz 4: ticked 1,3"
keys Enter
wait_for "right this time; your first answer, wrong, is the one that counts"
wait_for "First answer: 1 (wrong); latest: 1,3 (right)"
keys q q
wait_for "EXITED-0"
if command -v sqlite3 >/dev/null 2>&1; then
	[ "$(sqlite3 "$HOME_DIR/progress.db" \
		"SELECT quiz, choices, correct FROM quiz_attempt ORDER BY id" | tr '\n' ' ')" = \
		"3|0|0 3|0,2|1 " ]
fi

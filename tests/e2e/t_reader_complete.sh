# Jumping to the end of a new lesson does not complete it; reading it
# through, answering its quizzes and spending its minimum time does, at
# its end.  CUDALAB_READ_PACE=1 asks one second per screenful.
CONTENT="$SRC/tests/fixtures/e2e-quiz"
start read quizzes
wait_for "Quizzes close together"
keys G
wait_for "The last paragraph of the quiz lesson."
wait_for "to complete: answer 4 more quizzes"
keys q q
wait_for "EXITED-0"
cli list lessons --json | tr -d ' \t\n' | grep -q '"id":"quizzes",[^}]*"status":"started"'
cli progress --json | tr -d ' \t\n' | grep -q '"lessons":{"done":0,"total":1}'

# a pace that is not a number is said so, and the default used
EXTRA_ENV="CUDALAB_READ_PACE=fast"
start read quizzes
wait_for "CUDALAB_READ_PACE=fast: expected whole seconds from 0 to 600; using 20"
keys q q
wait_for "EXITED-0"

EXTRA_ENV="CUDALAB_READ_PACE=1"
start read quizzes
wait_for "The last paragraph of the quiz lesson."
keys g
wait_for "quiz 1: press 1-3"
keys 2
wait_for "Your answer: 2 (right)"
keys ]
wait_for "quiz 2: press 1-3"
keys 1
wait_for "It is a barrier for one block."
keys ]
wait_for "quiz 3: press 1-3"
keys 2
wait_for "Each SM has its own."
keys ]
wait_for "quiz 4, all that apply"
keys 1 3 Enter
wait_for "Your answer: 1,3 (right)"
# page down to the end: every line has been on screen
keys Space Space Space Space Space Space Space Space
wait_for "The last paragraph of the quiz lesson."
wait_for "quizzes 4/4"
wait_for "read 100%"
# the minimum time (one second a screenful here) may still be running:
# keys at the end complete the lesson once it has passed
i=0
while ! screen | grep -qF "✓ 100%"; do
	i=$((i + 1))
	[ $i -lt 40 ]
	sleep 0.5
	keys G
done
keys q q
wait_for "EXITED-0"
cli progress --json | tr -d ' \t\n' | grep -q '"lessons":{"done":1,"total":1}'
cli list lessons --json | tr -d ' \t\n' | grep -q '"id":"quizzes",[^}]*"status":"done"'

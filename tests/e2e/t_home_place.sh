# Back from an exercise, the home screen is where it was left: the
# Exercises tab, with the same row selected, so Enter opens that exercise
# again rather than a lesson.  At 80x24 and at 120x40.
for size in 80x24 120x40; do
	COLS=${size%x*} ROWS=${size#*x}
	start
	wait_for "1 Lessons"
	keys 3
	wait_for "Vector add: one thread per element"
	# the word the exercise screen and the command line use
	wait_for "difficulty 1"
	! screen | grep -q "level [0-9]"
	keys j j
	keys Enter
	wait_for "Exercise: Grid-stride loops"
	keys q
	wait_for "Vector add: one thread per element"
	wait_gone "Exercise: Grid-stride loops"
	keys Enter
	wait_for "Exercise: Grid-stride loops"
	keys q
	wait_for "Vector add: one thread per element"
	keys q
	wait_for "EXITED-0"
done

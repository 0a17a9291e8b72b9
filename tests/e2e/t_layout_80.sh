# What used to be cut or out of line, at 80x24 and at 120x40: every
# lesson row's bar starts in one column ("0/1   60 min" beside "0/10  240
# min"); a reading item's whole note shows under the list; the reader's
# title ends before its place, with room between; the exercise screen's
# key line ends with q.
for size in 80x24 120x40; do
	COLS=${size%x*} ROWS=${size#*x}
	start
	wait_for "1 Lessons"
	wait_for " 60 min"
	wait_for "240 min"
	# the column of each row's first bar cell
	holds '[ "$(screen | python3 -c "import sys
print(len({l.index(\"░\") for l in sys.stdin if l.rstrip().endswith(\"min\") and \"░\" in l}))")" = 1 ]'
	keys 2
	wait_for "Which GPU for deep learning"
	wait_for "bandwidth; the buying advice can wait."
	keys 1 j j Enter
	wait_for "Fast kernels: scans"
	holds "screen | head -n 1 | grep -q '  read [0-9]*%'"
	keys q
	wait_for "1 Lessons"
	keys 3 Enter
	wait_for "Exercise: Vector add"
	holds "screen | tail -n 1 | grep -q 'q:\\{0,1\\} \\{0,1\\}back *\$'"
	keys q q
	wait_for "EXITED-0"
done

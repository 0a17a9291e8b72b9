# Home -> lesson -> search -> follow a lesson link -> back.
CONTENT="$SRC/tests/fixtures/e2e"
start
wait_for "Warps and lanes"
keys Enter
wait_for "A warp is thirty-two lanes"
keys /
keys "lockstep" Enter
wait_for "match 1 of 1"
# the first link of the lesson is the lesson:memory link
keys Tab
wait_for "lesson:memory"
keys Enter
wait_for "This is the memory lesson."
keys q
wait_for "A warp is thirty-two lanes"
keys q
wait_for "1 Lessons"
keys q
wait_for "EXITED-0"

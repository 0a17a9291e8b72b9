# Resizing while reading keeps the place; too small says so; back to normal works.
CONTENT="$SRC/tests/fixtures/e2e"
start read warps
wait_for "A warp is thirty-two lanes"
keys t
wait_for "Contents"
keys j Enter
wait_for "When lanes disagree"
resize 40 20
wait_for "When lanes disagree"
resize 15 5
wait_for "too small"
resize 100 30
wait_for "When lanes disagree"
keys q q
wait_for "EXITED-0"

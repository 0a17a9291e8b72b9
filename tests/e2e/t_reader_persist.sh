# A quiz answer and a reading item marked done survive a restart; reaching
# the end marks the lesson complete.
CONTENT="$SRC/tests/fixtures/e2e"
start read warps
wait_for "A warp is thirty-two lanes"
keys G
wait_for "The last paragraph of the warps lesson."
keys g
keys t
wait_for "Contents"
keys j j Enter
wait_for "How many lanes does a warp have"
keys 2
wait_for "Every NVIDIA architecture so far has used 32."
keys r
wait_for "Reading for this lesson"
keys Space Space
keys Escape
keys q
keys q
wait_for "EXITED-0"
cli list lessons --json | tr -d ' \t\n' | grep -q '"id":"warps","title":"Warpsandlanes","section":"GPUconcepts","order":10,"minutes":10,"status":"done","reading_done":1,"reading_total":2'
start read warps
wait_for "Check yourself"
wait_for "Every NVIDIA architecture so far has used 32."

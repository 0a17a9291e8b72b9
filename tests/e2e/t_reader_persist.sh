# A quiz answer and a reading item marked done survive a restart.  Reaching
# the end alone does not complete the lesson; read through, with its quiz
# answered, it is complete on its last screen (CUDALAB_READ_PACE=0: no
# minimum time).
CONTENT="$SRC/tests/fixtures/e2e"
EXTRA_ENV="CUDALAB_READ_PACE=0"
start read warps
wait_for "A warp is thirty-two lanes"
keys G
wait_for "The last paragraph of the warps lesson."
wait_for "to complete: answer 1 more quiz"
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
wait_for "quizzes 1/1"
keys G
wait_for "lesson complete"
keys q
keys q
wait_for "EXITED-0"
cli list lessons --json | tr -d ' \t\n' | grep -q '"id":"warps","title":"Warpsandlanes","section":"GPUconcepts","order":10,"minutes":10,"status":"done","reading_done":1,"reading_total":2'
start read warps
wait_for "The last paragraph of the warps lesson."
keys g t
wait_for "Contents"
keys j j Enter
wait_for "Check yourself"
wait_for "Every NVIDIA architecture so far has used 32."
wait_for "Your answer: 2 (right)"

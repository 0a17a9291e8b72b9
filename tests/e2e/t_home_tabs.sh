# Home screen: tabs, cycling a reading item's status, persistence across a
# restart, and the same status seen by the command line.
CONTENT="$SRC/tests/fixtures/e2e"
start
wait_for "1 Lessons"
wait_for "GPU concepts"
wait_for "Where the bytes go"
keys 2
wait_for "An article about warps"
wait_for "https://example.com/warps"
# the first item is selected; space cycles unread -> reading -> done
keys Space
wait_for "reading 0/2"
keys Space
wait_for "reading 1/2"
keys q
wait_for "EXITED-0"
cli list reading --json | tr -d ' \t\n' | grep -q '"id":"warp-article","title":"Anarticleaboutwarps","url":"https://example.com/warps","kind":"article","section":"GPUconcepts","lesson":"warps","status":"done"'
cli progress --json | tr -d ' \t\n' | grep -q '"reading":{"done":1,"total":2}'
start
wait_for "reading 1/2"
keys 3
wait_for "No exercises"
keys q
wait_for "EXITED-0"

# Home screen: tabs, cycling a reading item's status, persistence across a
# restart, and the same status seen by the command line.
start
wait_for "1 Lessons"
wait_for "GPU concepts"
keys 2
wait_for "Which GPU for deep learning"
# the first item is selected; space cycles unread -> reading -> done
keys Space
keys Space
wait_for "reading 1/"
keys q
wait_for "EXITED-0"
first=$(cli list reading --json | grep -m1 '"id"' | sed 's/.*"id":[[:space:]]*"\([^"]*\)".*/\1/')
cli list reading --json | grep -A8 "\"id\":[[:space:]]*\"$first\"" | grep -q '"status":[[:space:]]*"done"'
cli progress --json | tr -d ' \t\n' | grep -q '"reading":{"done":1,'
start
wait_for "reading 1/"
keys 3
wait_for "No exercises"
keys q
wait_for "EXITED-0"

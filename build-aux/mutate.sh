#!/bin/sh
# mutate.sh — mutation testing: plants each small bug of a list in a clean
# copy of the tree, rebuilds what it touches, runs the one suite that
# should catch it, and reports which bugs no test noticed.
#
# The list (tests/mutate/mutants.txt, MUTANTS_FILE to use another) is a
# series of stanzas, one key and its value a line:
#     mutant ID          a name of letters, digits, '.', '_' and '-'
#     file   PATH        the file to change, from the top of the tree
#     from   TEXT        text that occurs exactly once in PATH, on one line
#     to     TEXT        what it becomes
#     suite  NAME WORDS  the suite that should notice, and its filter (below)
#     why    TEXT        the bug, in one line
#     equivalent TEXT    (optional) why no test can tell it from the code:
#                        the mutant is listed, not run
# A value is the rest of the line after the key and its blanks, less
# trailing blanks; '#' starts a comment line.  Suites and what WORDS pick:
#     unit GLOB...     Criterion tests matching each --filter GLOB
#     unit-simt GLOB...  simt's Criterion tests (tests/unit-simt), the same
#     simt NAME...     conformance programs whose names contain each NAME
#     harness EX...    lab.h's host checks and those exercises (- for none)
#     run NAME...      the runner suite's tests of those names
#     e2e NAME...      the end-to-end tests of those names
#     docs NAME...     the documentation suite's tests of those names
#     fuzz             the fuzz targets' seeds and regression inputs
#
# Environment: BUILD (the built tree to copy, default build), NVCC,
# MUTANTS (ids to run, default all), MUTATE_LIST (set: check the list and
# print it, run nothing), MUTATE_JOBS (copies at work at once,
# default 2), MUTATE_TIMEOUT (seconds per mutant's suite, default 300; a
# suite that runs out counts as a kill), MUTATE_MIN (the lowest score in
# percent that passes, default 90), MUTATE_DIR (work area, default
# $BUILD/mutate).
#
# Each job works in a copy of the tree (the files git tracks or would
# add) with a copy of the build directory, so a mutant rebuilds only what
# its file reaches; the conformance programs' objects come along, so run
# `make test` once before, or each copy compiles the programs it runs.
# The unit tests keep reading their fixtures from this tree (their path
# is compiled in), which no mutant changes.  After a mutant the copy gets its file and objects
# back as they were, with the objects the mutant rebuilt touched so that
# the next build relinks them.  The report ($MUTATE_DIR/report.txt, also
# printed) gives each mutant's outcome, the score, and every survivor
# with its diff.  Exits 1 when the score is below MUTATE_MIN, 2 when the
# list is wrong (a pattern that is not unique, a filter that selects no
# test, a mutant that does not build).
set -u

LIST=${MUTANTS_FILE:-tests/mutate/mutants.txt}
BUILD=${BUILD:-build}
NVCC=${NVCC:-}
JOBS=${MUTATE_JOBS:-2}
TIMEOUT=${MUTATE_TIMEOUT:-300}
MIN=${MUTATE_MIN:-90}
ONLY=${MUTANTS:-}
WORK=${MUTATE_DIR:-$BUILD/mutate}
TOP=$(pwd)

case $WORK in /*) ;; *) WORK=$TOP/$WORK ;; esac
rm -rf "$WORK"
mkdir -p "$WORK/m" "$WORK/claim" || exit 2

# ---- the list -------------------------------------------------------------
# One directory per mutant under $WORK/m, named by its place in the list,
# holding one file per key.
awk -v dir="$WORK/m" '
function fail(msg) { printf "%s:%d: %s\n", FILENAME, NR, msg; bad = 1 }
function flush(   k) {
	if (id == "")
		return
	for (k in need)
		if (!(k in val))
			printf "%s:%d: mutant %s has no \"%s\"\n", FILENAME, at, id, k
	for (k in need)
		if (!(k in val))
			bad = 1
	d = sprintf("%s/%03d-%s", dir, ++n, id)
	system("mkdir -p \"" d "\"")
	printf "%s\n", id > (d "/id"); close(d "/id")
	printf "%d\n", at > (d "/line"); close(d "/line")
	for (k in val) {
		printf "%s\n", val[k] > (d "/" k)
		close(d "/" k)
	}
	split("", val)
	id = ""
}
BEGIN {
	need["file"]; need["from"]; need["to"]; need["suite"]; need["why"]
	known["equivalent"]
	for (k in need) known[k]
}
/^[ \t]*(#|$)/ { next }
{
	key = $1
	v = $0
	sub(/^[ \t]*[^ \t]+[ \t]*/, "", v)
	sub(/[ \t]+$/, "", v)
	if (key == "mutant") {
		flush()
		if (v !~ /^[A-Za-z0-9._-]+$/)
			fail("mutant needs a name of letters, digits, . _ -")
		else if (v in seen)
			fail("mutant " v " is named twice")
		seen[v]
		id = v
		at = NR
	} else if (!(key in known)) {
		fail("unknown key \"" key "\"")
	} else if (id == "") {
		fail("\"" key "\" before any mutant")
	} else {
		val[key] = v
	}
}
END { flush(); exit bad }
' "$LIST" || exit 2

# count_of FILE: how many times $MUT_FROM occurs in FILE
# mutated FILE: FILE with the one occurrence of $MUT_FROM made $MUT_TO
apply_awk='
BEGIN { from = ENVIRON["MUT_FROM"]; to = ENVIRON["MUT_TO"] }
{
	line = $0
	out = ""
	while ((i = index(line, from)) > 0) {
		n++
		out = out substr(line, 1, i - 1) (mode == "apply" ? to : from)
		line = substr(line, i + length(from))
	}
	if (mode == "apply")
		print out line
}
END { if (mode == "count") print n + 0 }'
count_of() { awk -v mode=count "$apply_awk" "$1"; }
mutated() { awk -v mode=apply "$apply_awk" "$1"; }

field() { cat "$1/$2" 2>/dev/null; }

listed=0
for m in "$WORK"/m/*/; do
	m=${m%/}
	[ -d "$m" ] || continue
	id=$(field "$m" id)
	if [ -n "$ONLY" ]; then
		case " $ONLY " in *" $id "*) ;; *) rm -rf "$m"; continue ;; esac
	fi
	listed=$((listed + 1))
	f=$(field "$m" file)
	where="$LIST:$(field "$m" line): mutant $id"
	if [ ! -f "$f" ]; then
		echo "$where: no file $f"
		exit 2
	fi
	MUT_FROM=$(field "$m" from) MUT_TO=$(field "$m" to)
	export MUT_FROM MUT_TO
	if [ "$MUT_FROM" = "$MUT_TO" ]; then
		echo "$where: \"to\" is the same as \"from\""
		exit 2
	fi
	c=$(count_of "$f")
	if [ "$c" != 1 ]; then
		echo "$where: \"from\" occurs $c times in $f, not once"
		exit 2
	fi
	case $(field "$m" suite) in
	unit\ *|unit-simt\ *|simt\ *|harness\ *|run\ *|e2e\ *|docs\ *|fuzz) ;;
	*) echo "$where: unknown suite \"$(field "$m" suite)\""; exit 2 ;;
	esac
	mutated "$f" | diff -u --label "a/$f" --label "b/$f" "$f" - >"$m/diff"
done
if [ "$listed" = 0 ]; then
	echo "mutate: no mutant selected"
	exit 2
fi
if [ -n "${MUTATE_LIST:-}" ]; then
	for m in "$WORK"/m/*/; do
		printf '%-36s %-34s %s\n' "$(field "$m" id)" "$(field "$m" file)" "$(field "$m" suite)"
	done
	echo "mutate: $listed mutants, the list is well formed"
	exit 0
fi

# ---- the copies -----------------------------------------------------------
# make_copy DIR: the tree's files and the build directory's products,
# without simt's test programs (relinked anyway) or earlier runs.
make_copy() {
	mkdir -p "$1/$BUILD/simt-tests" || return 1
	git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$1" || return 1
	# the work area too, when it lies in the build directory
	inside=${WORK#"$(cd "$BUILD" && pwd)"/}
	( cd "$BUILD" && tar -cf - --exclude="./$inside" --exclude='./mutate*' \
		--exclude=./simt-tests --exclude=./fuzz --exclude=./coverage . ) |
		tar -xf - -C "$1/$BUILD" || return 1
	cp -p "$BUILD"/simt-tests/*.o "$1/$BUILD/simt-tests/" 2>/dev/null
	# the CLI tests name the binary by its absolute path
	rm -f "$1/$BUILD/obj/tests/test_cli.o"
}

# targets SUITE: what the suite needs built
targets() {
	case $1 in
	unit) echo "$BUILD/unit-tests $BUILD/cudalab" ;;
	unit-simt) echo "$BUILD/unit-simt-tests" ;;
	simt) echo "$BUILD/libcudalab-simt.a" ;;
	fuzz) (cd "$TOP" && ls -d "$BUILD"/fuzz-regress/fuzz_*) | tr '\n' ' ' ;;
	*) echo "$BUILD/cudalab $BUILD/libcudalab-simt.a $BUILD/insight-lines" ;;
	esac
}

# run_suite SUITE WORDS...: runs it in the current copy; its output goes
# to stdout.  Exit status 0 when it passes, 1 when it fails, 3 when the
# filter selected no test.
run_suite() {
	s=$1
	shift
	bin=$(pwd)/$BUILD/cudalab
	case $s in
	unit|unit-simt|simt)
		# one run per word, until one fails
		for w in "$@"; do
			if [ "$s" != simt ]; then
				timeout "$TIMEOUT" "$BUILD/$s-tests" --jobs 1 --filter "$w"
			else
				BUILD=$BUILD NVCC=$NVCC SIMT_TEST_FILTER=$w \
					timeout "$TIMEOUT" sh tests/simt/run.sh
			fi </dev/null >"$T/suite" 2>&1
			rc=$?
			cat "$T/suite"
			grep -q -e 'Tested: 0 ' -e '^simt: 0 passed, 0 failed' "$T/suite" && return 3
			[ $rc = 0 ] || return $rc
		done
		return 0 ;;
	harness)
		HARNESS_ONLY="$*" BUILD=$BUILD NVCC=$NVCC CUDALAB_BIN=$bin \
			timeout "$TIMEOUT" sh tests/harness/run.sh ;;
	fuzz)
		BUILD=$BUILD timeout "$TIMEOUT" sh tests/fuzz/regress.sh ;;
	*)
		case $s in run) var=RUN_ONLY ;; e2e) var=E2E_ONLY ;; docs) var=RUN_ONLY ;; esac
		env "$var=$*" BUILD="$BUILD" NVCC="$NVCC" CUDALAB_BIN="$bin" \
			timeout "$TIMEOUT" sh "tests/$s/run.sh" >"$T/suite" 2>&1
		rc=$?
		cat "$T/suite"
		grep -q ': 0 passed, 0 failed' "$T/suite" && return 3
		return $rc ;;
	esac
}

# one_mutant M: plants mutant M in the current copy, builds, runs its
# suite, puts everything back; writes M/result and M/seconds.
one_mutant() {
	m=$1
	f=$(field "$m" file)
	# the suite's name and its words, split on blanks
	# shellcheck disable=SC2046
	set -- $(field "$m" suite)
	suite=$1
	shift
	t0=$(date +%s)
	MUT_FROM=$(field "$m" from) MUT_TO=$(field "$m" to)
	export MUT_FROM MUT_TO
	cp -p "$f" "$T/orig"
	rm -rf "$BUILD/obj.keep"
	cp -a "$BUILD/obj" "$BUILD/obj.keep"
	touch "$T/stamp"
	mutated "$T/orig" >"$f"
	# shellcheck disable=SC2046
	if ! make -s $(targets "$suite") >"$m/log" 2>&1; then
		result=no-build
	else
		run_suite "$suite" "$@" >>"$m/log" 2>&1
		case $? in
		0) result=survived ;;
		3) result=no-test ;;
		124|137) result=timeout ;;
		*) result=killed ;;
		esac
	fi
	# back to the clean copy: the file and its objects as they were, and
	# the objects the mutant rebuilt newer than anything linked from them
	changed=$(cd "$BUILD/obj" && find . -name '*.o' -newer "$T/stamp")
	rm -rf "$BUILD/obj"
	mv "$BUILD/obj.keep" "$BUILD/obj"
	cp -p "$T/orig" "$f"
	for o in $changed; do
		[ -f "$BUILD/obj/$o" ] && touch "$BUILD/obj/$o"
	done
	echo "$result" >"$m/result"
	echo $(($(date +%s) - t0)) >"$m/seconds"
}

# worker N: takes the next unclaimed mutant until none is left
worker() {
	slot=$WORK/copy-$1
	T=$WORK/tmp-$1
	mkdir -p "$T"
	if ! make_copy "$slot"; then
		echo "mutate: could not copy the tree into $slot"
		return 1
	fi
	cd "$slot" || return 1
	for m in "$WORK"/m/*/; do
		m=${m%/}
		[ -f "$m/equivalent" ] && continue
		mkdir "$WORK/claim/${m##*/}" 2>/dev/null || continue
		one_mutant "$m"
		printf '  %-9s %-36s %s s\n' "$(cat "$m/result")" "$(field "$m" id)" \
			"$(cat "$m/seconds")"
	done
	cd "$TOP" || return 1
	rm -rf "$slot"
}

start=$(date +%s)
echo "mutate: $listed mutants from $LIST, $JOBS at a time"
j=1
while [ "$j" -le "$JOBS" ]; do
	worker "$j" &
	j=$((j + 1))
done
wait

# ---- the report -----------------------------------------------------------
secs=$(($(date +%s) - start))
{
	run=0 killed=0 equiv=0 broken=0
	echo "mutation testing: $LIST, $JOBS jobs, $((secs / 60))m$((secs % 60))s"
	for m in "$WORK"/m/*/; do
		m=${m%/}
		id=$(field "$m" id)
		if [ -f "$m/equivalent" ]; then
			equiv=$((equiv + 1))
			printf '%-10s %-36s %s\n' equivalent "$id" "$(field "$m" equivalent)"
			continue
		fi
		r=$(field "$m" result)
		case $r in
		killed|timeout) run=$((run + 1)); killed=$((killed + 1)) ;;
		survived) run=$((run + 1)) ;;
		*) broken=$((broken + 1)) ;;
		esac
		printf '%-10s %-36s %-28s %s s\n' "${r:-not-run}" "$id" "$(field "$m" suite)" \
			"$(field "$m" seconds)"
	done
	pct=0
	[ "$run" -gt 0 ] && pct=$((killed * 1000 / run))
	echo
	echo "score: $killed of $run mutants killed ($((pct / 10)).$((pct % 10))%)," \
		"$equiv equivalent, $broken broken; $((secs / 60))m$((secs % 60))s"
	for m in "$WORK"/m/*/; do
		m=${m%/}
		case $(field "$m" result) in
		survived) what="survivor" ;;
		no-build|no-test|"") [ -f "$m/equivalent" ] && continue; what="broken" ;;
		*) continue ;;
		esac
		echo
		echo "$what $(field "$m" id) ($(field "$m" file), suite $(field "$m" suite)):" \
			"$(field "$m" why)"
		[ "$what" = broken ] && echo "  $(field "$m" result); log: $m/log"
		cat "$m/diff"
	done
	echo "$pct" >"$WORK/score"
	echo "$broken" >"$WORK/broken"
} >"$WORK/report.txt"
cat "$WORK/report.txt"
[ "$(cat "$WORK/broken")" = 0 ] || exit 2
[ "$(cat "$WORK/score")" -ge $((MIN * 10)) ] || exit 1
exit 0

#!/bin/sh
# coverage.sh — what the test suites run of the code: line and branch
# coverage per room of the application and of simt, and the PTX that no
# conformance program runs.
#
# Run by `make coverage` after it has built the tree with --coverage in
# $COVERAGE_DIR (default $BUILD/coverage).  The suites run there, as
# `make test` runs them; their counts (gcov's .gcda files) are summed per
# room by gcov.  Lines and branches of a room are those of its .c files;
# code inlined from headers counts in no room.  The conformance programs
# (tests/simt) run with CUDALAB_SIMT_OPS, and the instructions they ran
# are set against what simt decodes: its mnemonics (ptx/decode.c), its
# decoded ops (SIMT_OPS in ptx/ptx.h), and the types and rounding modes
# the PTX ISA gives the arithmetic and comparison instructions.
#
# Environment: BUILD, NVCC, COVERAGE_DIR, COVERAGE_SUITES (which suites
# run, default "unit unit-simt fuzz simt harness run e2e docs"; the PTX
# lists need simt; "none" runs nothing and reports the counts an earlier run left,
# even one stopped part-way), SIMT_TEST_FILTER and SIMT_TEST_TIMEOUT
# (passed on; the latter 600 s by default here, as the instrumented
# library runs slower).  The report is printed and kept in
# $COVERAGE_DIR/report.txt; the instructions run in
# $COVERAGE_DIR/ops-run.txt.  Exit status 1 when a suite failed (its
# figures are still given), 2 when there is nothing to measure.
set -u
BUILD=${BUILD:-build}
NVCC=${NVCC:-}
COV=${COVERAGE_DIR:-$BUILD/coverage}
SUITES=${COVERAGE_SUITES:-unit unit-simt fuzz simt harness run e2e docs}
TOP=$(pwd)

if ! command -v gcov >/dev/null 2>&1; then
	echo "coverage: gcov not found (it comes with gcc)"
	exit 2
fi
if [ ! -f "$COV/libcudalab-simt.a" ] || [ ! -x "$COV/cudalab" ]; then
	echo "coverage: $COV holds no coverage build; run make coverage"
	exit 2
fi
case $COV in /*) ;; *) COV=$TOP/$COV ;; esac

[ "$SUITES" = none ] && SUITES=
# Counts of an earlier run would add to this one's.
if [ -n "$SUITES" ]; then
	find "$COV" -name '*.gcda' -exec rm -f {} +
	rm -f "$COV/ops-run.txt" "$COV/suites.log"
fi
# The conformance programs' objects do not depend on the library: reuse
# the normal build's, so that only linking is left.
mkdir -p "$COV/simt-tests"
cp -p "$BUILD"/simt-tests/*.o "$COV/simt-tests/" 2>/dev/null
# Programs linked by nvcc (conformance programs, exercises) need gcov's
# runtime beside the instrumented library.
NVCC_APPEND_FLAGS="${NVCC_APPEND_FLAGS:+$NVCC_APPEND_FLAGS }-lgcov"
export NVCC_APPEND_FLAGS

failed=""
for s in $SUITES; do
	echo "== $s (coverage)"
	case $s in
	unit|unit-simt) "$COV/$s-tests" --jobs 2 ;;
	fuzz) BUILD=$COV sh tests/fuzz/regress.sh ;;
	simt) CUDALAB_SIMT_OPS=$COV/ops-run.txt SIMT_TEST_TIMEOUT=${SIMT_TEST_TIMEOUT:-600} \
		BUILD=$COV NVCC=$NVCC sh tests/simt/run.sh ;;
	harness|run|e2e|docs)
		BUILD=$COV CUDALAB_BIN=$COV/cudalab NVCC=$NVCC sh "tests/$s/run.sh" ;;
	*) echo "coverage: no suite \"$s\""; exit 2 ;;
	esac </dev/null >"$COV/suite.log" 2>&1
	rc=$?
	cat "$COV/suite.log" >>"$COV/suites.log"
	grep -E '(passed|Synthesis:)' "$COV/suite.log" | tail -n 1
	[ $rc = 0 ] || failed="$failed $s"
done

# gcov_rooms: one line per .c file: ROOM LINES HIT BRANCHES TAKEN, where
# ROOM is app/MODULE or simt/ROOM
gcov_rooms() {
	for d in "$COV"/obj/*/ "$COV"/obj/simt/*/; do
		d=${d%/}
		room=${d#"$COV"/obj/}
		case $room in tests|simt) continue ;; esac
		case $room in simt/*) ;; *) room=app/$room ;; esac
		src=src/${d#"$COV"/obj/}
		ls "$src"/*.c >/dev/null 2>&1 || continue
		# shellcheck disable=SC2046
		(cd "$TOP" && gcov -b -n -o "$d" $(ls "$src"/*.c) 2>/dev/null) |
			awk -v room="$room" -v src="$src/" '
			/^File / {
				f = $2; gsub(/\047/, "", f)
				mine = index(f, src) == 1 && f ~ /\.c$/
			}
			mine && /^Lines executed:/ { split($2, a, "%"); sub(/.*:/, "", a[1]); l = $NF; lh = a[1] * l / 100 }
			mine && /^Taken at least once:/ { split($4, b, "%"); sub(/.*:/, "", b[1]); br = $NF; bh = b[1] * br / 100 }
			mine && /^No branches/ { br = 0; bh = 0 }
			mine && /^Calls executed:|^No calls/ {
				printf "%s %d %.0f %d %.0f\n", room, l, lh, br, bh
				l = lh = br = bh = 0
				mine = 0
			}'
	done
}

# The PTX lists.  ops-run.txt: "OP<TAB>opcode.modifiers" per instruction.
ptx_report() {
	run=$COV/ops-run.txt
	if [ ! -s "$run" ]; then
		echo "no conformance program recorded its instructions (is simt in COVERAGE_SUITES?)"
		return
	fi
	sort -u "$run" -o "$run"
	awk '
	FNR == 1 { file++ }
	file == 1 && /^[ \t]*\{"[a-z0-9_]+", / {
		s = $0; sub(/^[ \t]*\{"/, "", s); sub(/".*/, "", s); mn[s] = 1
	}
	file == 2 && /X\([A-Z0-9_]+\)/ {
		s = $0
		while (match(s, /X\([A-Z0-9_]+\)/)) {
			o = substr(s, RSTART + 2, RLENGTH - 3)
			if (o != "COUNT") ops[o] = 1
			s = substr(s, RSTART + RLENGTH)
		}
	}
	file == 3 {
		ran_op[$1] = 1
		n = split($2, part, ".")
		m = part[1]
		ran_mn[m] = 1
		for (i = 2; i <= n; i++) {
			if (part[i] ~ /^(rn|rz|rm|rp|rni|rzi|rmi|rpi)$/)
				seen_rnd[m, part[i]] = 1
			else
				seen_type[m, part[i]] = 1
		}
	}
	END {
		# The types and rounding modes the PTX ISA gives each of these.
		ints = "s16 s32 s64 u16 u32 u64"
		halves = "f16 f16x2 bf16 bf16x2"
		want["add"] = want["sub"] = want["mul"] = want["min"] = want["max"] = ints " " halves " f32 f64"
		want["mad"] = want["div"] = ints " f32 f64"
		want["rem"] = ints
		want["fma"] = halves " f32 f64"
		want["abs"] = want["neg"] = "s16 s32 s64 " halves " f32 f64"
		want["setp"] = ints " b16 b32 b64 " halves " f32 f64"
		want["cvt"] = "s8 " ints " u8 f16 bf16 f32 f64"
		want["sqrt"] = want["rcp"] = "f32 f64"
		rnd["add"] = rnd["sub"] = rnd["mul"] = rnd["fma"] = rnd["div"] = rnd["sqrt"] = rnd["rcp"] = "rn rz rm rp"
		rnd["cvt"] = "rn rz rm rp rni rzi rmi rpi"
		nm = 0
		for (m in mn) nm++
		k = 0
		for (m in mn) if (!(m in ran_mn)) { never[++k] = m }
		sortn(never, k)
		printf "mnemonics simt decodes that no conformance program runs: %d of %d\n", k, nm
		wrap(never, k)
		no = 0
		for (o in ops) no++
		k = 0
		for (o in ops) if (!(o in ran_op)) never[++k] = o
		sortn(never, k)
		printf "decoded ops that no conformance program runs: %d of %d\n", k, no
		wrap(never, k)
		print "types and rounding modes that no conformance program runs, per instruction:"
		k = 0
		for (m in want) names[++k] = m
		sortn(names, k)
		for (i = 1; i <= k; i++) {
			m = names[i]
			miss = ""
			n = split(want[m], t, " ")
			for (j = 1; j <= n; j++)
				if (!((m, t[j]) in seen_type)) miss = miss " ." t[j]
			if (m in rnd) {
				n = split(rnd[m], t, " ")
				for (j = 1; j <= n; j++)
					if (!((m, t[j]) in seen_rnd)) miss = miss " ." t[j]
			}
			printf "  %-5s%s\n", m, miss == "" ? " (every one runs)" : miss
		}
	}
	function sortn(a, n,   i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	}
	function wrap(a, n,   i, l) {
		l = " "
		for (i = 1; i <= n; i++) {
			if (length(l) + length(a[i]) > 76) { print l; l = " " }
			l = l " " a[i]
		}
		if (n) print l
	}' src/simt/ptx/decode.c src/simt/ptx/ptx.h "$run"
}

{
	# shellcheck disable=SC2086
	echo "coverage: suites$(printf ' %s' ${SUITES:-none: the counts left})${failed:+ (failed:$failed)}"
	echo
	printf '%-14s %8s %8s %9s %9s\n' room lines covered branches taken
	gcov_rooms | awk '
	{ l[$1] += $2; lh[$1] += $3; b[$1] += $4; bh[$1] += $5
	  side = substr($1, 1, index($1, "/") - 1)
	  L[side] += $2; LH[side] += $3; B[side] += $4; BH[side] += $5 }
	function pct(a, b) { return b > 0 ? sprintf("%.1f%%", 100 * a / b) : "-" }
	END {
		for (r in l) rooms[++n] = r
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && rooms[j - 1] > rooms[j]; j--) { t = rooms[j]; rooms[j] = rooms[j - 1]; rooms[j - 1] = t }
		for (i = 1; i <= n; i++) {
			r = rooms[i]
			printf "%-14s %8d %8s %9d %9s\n", r, l[r], pct(lh[r], l[r]), b[r], pct(bh[r], b[r])
		}
		for (s in L)
			printf "%-14s %8d %8s %9d %9s\n", s " (all)", L[s], pct(LH[s], L[s]), B[s], pct(BH[s], B[s])
	}'
	echo
	ptx_report
} >"$COV/report.txt"
cat "$COV/report.txt"
[ -z "$failed" ] || exit 1
exit 0

#!/bin/sh
# check-layers.sh [ROOT] — checks that #include lines follow the layers.
#
# simt (src/simt) is a folder of rooms, listed here from the bottom up:
# a file may include headers of its own room and of rooms below it, never
# of a room above, so no two rooms include each other.  Every file lives
# in a room, and every include names its room ("exec/exec.h"), written
# relative to src/simt; simt includes nothing of the application.
#
# The application's modules (src/<module>, include/cudalab/<module>.h,
# src/main.c) may include the public headers that the module table of
# docs/architecture.md lists for them ("| run | content, store, util |").
#
# One file stands outside the rooms: src/simt/nccl_abi.h, which only
# includes libs/nccl_abi.h, for a test program (tests/simt/nccl_abi.cu)
# that includes it by its old path.
#
# Prints each violation as FILE:LINE: what reaches what, then
# "check-layers: N passed, M failed" (files); exits 1 on any violation.
set -u
ROOMS="base mem ptx perf exec check runtime libs"
FORWARDS="nccl_abi.h"

root=${1:-.}
cd "$root" || exit 2
[ -d src/simt ] || { echo "check-layers: $root/src/simt is missing" >&2; exit 2; }
[ -f docs/architecture.md ] || { echo "check-layers: $root/docs/architecture.md is missing" >&2; exit 2; }

{
	find src/simt -type f \( -name '*.c' -o -name '*.h' \) | sort
	find src include/cudalab -maxdepth 2 -type f \( -name '*.c' -o -name '*.h' \) \
		! -path 'src/simt/*' | sort
} | awk -v rooms="$ROOMS" -v forwards="$FORWARDS" '
function fail_at(file, line, msg) {
	printf "%s:%d: %s\n", file, line, msg
	bad[file] = 1
}
# The application module a file belongs to, or "" when it is none.
function app_module(f,   n, p) {
	if (f == "src/main.c")
		return "main.c"
	n = split(f, p, "/")
	if (p[1] == "include" && n == 3) {
		sub(/\.h$/, "", p[3])
		return p[3]
	}
	if (p[1] == "src" && n == 3)
		return p[2]
	return ""
}
BEGIN {
	nf = split(forwards, fw, " ")
	for (i = 1; i <= nf; i++)
		forward["src/simt/" fw[i]] = 1
	nrooms = split(rooms, order, " ")
	for (i = 1; i <= nrooms; i++)
		rank[order[i]] = i
	# The module table of docs/architecture.md: "| module | includes | ...".
	while ((getline l < "docs/architecture.md") > 0) {
		if (l !~ /^\| *[a-z.]+ *\|/)
			continue
		n = split(l, cell, "|")
		m = cell[2]
		gsub(/ /, "", m)
		if (m == "module" || m == "simt" || n < 4)
			continue
		deps = cell[3]
		gsub(/[ `]/, "", deps)
		known[m] = 1
		k = split(deps, dl, ",")
		for (j = 1; j <= k; j++)
			if (dl[j] != "(none)" && dl[j] != "")
				may[m, dl[j]] = 1
	}
	close("docs/architecture.md")
	if (!("util" in known)) {
		print "check-layers: no module table found in docs/architecture.md"
		exit 2
	}
}
{
	file = $0
	simt = file ~ /^src\/simt\//
	if (simt) {
		rel = substr(file, 10)
		if (file in forward) {
			room = "(forward)"
			rank[room] = nrooms + 1
		} else if (index(rel, "/") == 0) {
			fail_at(file, 1, "not in a room (rooms, bottom up: " rooms ")")
			nfiles++
			next
		} else
			room = substr(rel, 1, index(rel, "/") - 1)
		if (!(room in rank)) {
			fail_at(file, 1, "\"" room "\" is no room (rooms, bottom up: " rooms ")")
			nfiles++
			next
		}
	} else {
		mod = app_module(file)
		if (mod == "" || !(mod in known))
			next
	}
	nfiles++
	ln = 0
	while ((getline l < file) > 0) {
		ln++
		if (l !~ /^[ \t]*#[ \t]*include[ \t]*"/)
			continue
		inc = l
		sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc)
		sub(/".*/, "", inc)
		if (!simt) {
			if (inc !~ /^cudalab\/[a-z_]+\.h$/)
				continue
			dep = substr(inc, 9)
			sub(/\.h$/, "", dep)
			if (dep != mod && !((mod, dep) in may))
				fail_at(file, ln, mod " includes " inc ", which the module table of docs/architecture.md does not give it")
			continue
		}
		if (index(inc, "/") == 0) {
			fail_at(file, ln, "includes \"" inc "\" without its room; write it as \"ROOM/" inc "\"")
			continue
		}
		to = substr(inc, 1, index(inc, "/") - 1)
		if (!(to in rank)) {
			fail_at(file, ln, "includes \"" inc "\", which is in no room of simt")
			continue
		}
		if (to != room && !((room, to) in edge))
			edge[room, to] = file ":" ln
		if (rank[to] > rank[room])
			fail_at(file, ln, room " includes " inc ": " to " is above " room " (rooms, bottom up: " rooms ")")
	}
	close(file)
}
END {
	for (i = 1; i <= nrooms; i++)
		for (j = i + 1; j <= nrooms; j++) {
			a = order[i]
			b = order[j]
			if ((a, b) in edge && (b, a) in edge)
				printf "%s and %s include each other: %s (%s -> %s) and %s (%s -> %s)\n", a, b, edge[a, b], a, b, edge[b, a], b, a
		}
	nbad = 0
	for (f in bad)
		nbad++
	printf "check-layers: %d passed, %d failed\n", nfiles - nbad, nbad
	exit nbad > 0
}'

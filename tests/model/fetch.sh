#!/bin/sh
# Puts the public source of each table's kernels beside its driver.
#
#     sh tests/model/fetch.sh
#
# A source folder tests/model/SOURCE/ whose kernels live in another
# repository has a file `pin` of one line, "OWNER/NAME COMMIT" (the full
# 40-digit commit).  This script puts that commit's files, as git stores
# them, in SOURCE/upstream/ and records the commit and a checksum of the
# files in SOURCE/upstream.fetched.  The drivers are ours; the files in
# upstream/ are the authors', and nothing here or in run.sh ever edits
# them.
#
# Environment: MODEL_MIRROR (a folder of bare repositories, DIR/OWNER+NAME
# or DIR/OWNER+NAME/repo, used instead of the network), MODEL_GIT_URL
# (where repositories are cloned from, default https://github.com),
# MODEL_FILTER (only sources whose name contains it), MODEL_SOURCES (the
# folder holding the sources, default this script's).
#
# A tree already in place at the pinned commit, its files unchanged since
# they were fetched, is kept.  A source that cannot be fetched is named
# with the reason, and the others are still fetched: run.sh counts its
# rows as not predicted.  Exit status: 0 when every pinned source is in
# place, 1 when some are not.

set -u

here=$(dirname "$0")
dir=${MODEL_SOURCES:-$here}
FILTER=${MODEL_FILTER:-}
MIRROR=${MODEL_MIRROR:-}
URL=${MODEL_GIT_URL:-https://github.com}

# checksum TREE: one line that changes when any file under TREE does.
checksum() {
	(cd "$1" && find . -type f -exec cksum {} + | LC_ALL=C sort | cksum)
}

# in_place SOURCE COMMIT: whether SOURCE/upstream holds COMMIT's files as
# they were fetched.
in_place() {
	[ -d "$dir/$1/upstream" ] && [ -f "$dir/$1/upstream.fetched" ] &&
		[ "$(cat "$dir/$1/upstream.fetched")" = "$2 $(checksum "$dir/$1/upstream")" ]
}

# repository REPO: the git directory holding REPO (OWNER/NAME), a mirror's
# or a fresh clone in $tmp; prints why on failure.
repository() {
	if [ -n "$MIRROR" ]; then
		m=$MIRROR/$(echo "$1" | tr / +)
		for g in "$m" "$m/repo"; do
			if git -C "$g" rev-parse --git-dir >/dev/null 2>&1; then
				echo "$g"
				return 0
			fi
		done
		echo "no repository $m in MODEL_MIRROR"
		return 1
	fi
	if ! git clone --quiet --bare "$URL/$1" "$tmp/repo.git" >"$tmp/clone.log" 2>&1; then
		echo "git clone $URL/$1 failed: $(grep . "$tmp/clone.log" | tail -n 1)"
		return 1
	fi
	echo "$tmp/repo.git"
}

# fetch SOURCE: puts SOURCE's pinned tree in place unless it already is;
# prints why on failure.
fetch() {
	read -r repo commit rest <"$dir/$1/pin" || true
	if [ "${#commit}" -ne 40 ] || [ -n "$rest" ] || [ -n "$(echo "$commit" | tr -d 0-9a-f)" ]; then
		echo "$dir/$1/pin:1: expected 'OWNER/NAME COMMIT' with a 40-digit commit"
		return 1
	fi
	in_place "$1" "$commit" && return 0
	git=$(repository "$repo") || {
		echo "$git"
		return 1
	}
	if ! git -C "$git" cat-file -e "$commit^{commit}" 2>/dev/null; then
		echo "$repo has no commit $commit"
		return 1
	fi
	rm -rf "$tmp/tree" "$dir/$1/upstream" "$dir/$1/upstream.fetched"
	mkdir -p "$tmp/tree" || return 1
	if ! git -C "$git" archive "$commit" | tar -x -C "$tmp/tree"; then
		echo "git archive $commit of $repo failed"
		return 1
	fi
	mv "$tmp/tree" "$dir/$1/upstream" &&
		echo "$commit $(checksum "$dir/$1/upstream")" >"$dir/$1/upstream.fetched"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-model-fetch.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
for p in "$dir"/*/pin; do
	[ -f "$p" ] || continue
	s=$(basename "$(dirname "$p")")
	case $s in *"$FILTER"*) ;; *) continue ;; esac
	rm -rf "$tmp/repo.git"
	if why=$(fetch "$s"); then
		echo "model: $s: $(cut -d ' ' -f 1-2 "$p") in place"
	else
		echo "model: $s: not fetched: $why"
		failed=1
	fi
done
exit "$failed"

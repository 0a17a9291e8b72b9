#!/bin/sh
# The documentation held to the code: the man page against --help (every
# verb and option, both ways) and against the variables the sources read,
# groff's warnings, README's length and the links of README and docs/,
# shell completion through the real bash and zsh scripts, and what
# make install and make uninstall do with the man page, the completion
# scripts and docs/.  Expected values are written here by hand or read
# from the man page, which is written by hand.  Ends with
# "docs: N passed, M failed".
set -u
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
MAN=$SRC/man/cudalab.1
FIX=$SRC/tests/fixtures/cli/good
T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-docs-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

export CUDALAB_HOME="$T/home" CUDALAB_CONTENT="$SRC"
unset XDG_DATA_HOME
# the completion scripts run `cudalab` from PATH; a home with an ssh config
mkdir -p "$T/bin" "$T/h/.ssh"
ln -s "$BIN" "$T/bin/cudalab"

. "$SRC/tests/lib.sh"

# --- helpers --------------------------------------------------------------
# man_verbs: the .SS headings of the man page's COMMANDS, one a line
man_verbs() {
	awk '/^\.SH / { s = $2; next } s == "COMMANDS" && /^\.SS / { print $2 }' "$MAN" | sort
}
# man_options SECTION [VERB]: the options named by the .TP tags of SECTION
# (of VERB's .SS in COMMANDS), one a line
man_options() {
	awk -v sec="$1" -v verb="${2:-}" '
		/^\.SH / { s = $2; ss = ""; next }
		/^\.SS / { ss = $2; next }
		/^\.TP/ { tag = 1; next }
		tag { tag = 0; if (s == sec && ss == verb) print }' "$MAN" |
		sed 's/^\.[A-Z]* //; s/\\-/-/g; s/\\f[RBIP]//g; s/[",]/ /g' | tr ' ' '\n' |
		grep -E '^--?[A-Za-z]' | sort -u
}
# man_variables: the CUDALAB_* variables named by tags under ENVIRONMENT
man_variables() {
	awk '/^\.SH / { s = $2; next } /^\.TP/ { tag = 1; next }
		tag { tag = 0; if (s == "ENVIRONMENT") print }' "$MAN" |
		grep -oE 'CUDALAB_[A-Z0-9_]+' | sort -u
}
# help_verbs: the verbs `cudalab --help` lists
help_verbs() {
	"$BIN" --help | awk '/^verbs:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sort
}
# help_options [VERB]: the options of `cudalab [VERB] --help`
help_options() {
	"$BIN" "$@" --help | awk '/^options:/ { on = 1; next } on && /^$/ { exit }
		on && /^  -/ { sub(/^  /, ""); sub(/  .*/, ""); print }' |
		tr ', ' '\n\n' | grep -E '^--?[A-Za-z]' | sort -u
}
# source_variables: every CUDALAB_* variable the sources name in a string
# (those they read and those they set for the programs they run)
source_variables() {
	grep -rhoE '"CUDALAB_[A-Z0-9_]+' "$SRC/src" "$SRC/include" | tr -d '"' | sort -u
}
# same WHAT A B: notes each line of file A missing from B and of B from A
same() {
	for x in $(comm -23 "$2" "$3"); do note "$1: $x is in $4 only"; done
	for x in $(comm -13 "$2" "$3"); do note "$1: $x is in $5 only"; done
}
# complete WORD...: `cudalab __complete` on the fixture content
complete() { "$BIN" __complete -- --content "$FIX" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# expect_lines LINE...: stdout is those lines (none: empty)
expect_lines() {
	if [ $# = 0 ]; then
		[ ! -s "$T/out" ] || note "expected nothing, got: $(head -3 "$T/out")"
	else
		printf '%s\n' "$@" | diff - "$T/out" >/dev/null || note "expected: $*"
	fi
}

# --- the man page -------------------------------------------------------
man_page_has_every_verb() {
	help_verbs >"$T/a"
	man_verbs >"$T/b"
	[ -s "$T/a" ] || note "--help lists no verb"
	same "verbs" "$T/a" "$T/b" "--help" "the man page"
}

man_page_has_every_option() {
	help_options >"$T/a"
	man_options OPTIONS >"$T/b"
	[ -s "$T/a" ] || note "--help lists no global option"
	same "global options" "$T/a" "$T/b" "--help" "the man page's OPTIONS"
	for v in $(help_verbs); do
		help_options "$v" >"$T/a"
		man_options COMMANDS "$v" >"$T/b"
		same "$v" "$T/a" "$T/b" "'$v --help'" "the man page"
	done
	help_options check | grep -qx -- --backend || note "'check --help' lists no --backend"
}

man_page_names_every_variable() {
	source_variables >"$T/a"
	man_variables >"$T/b"
	grep -qx CUDALAB_SIMT_CHECKS "$T/a" || note "no CUDALAB_SIMT_CHECKS found in the sources"
	same "variables" "$T/a" "$T/b" "the sources" "the man page's ENVIRONMENT"
}

man_page_has_no_groff_warning() {
	groff -man -ww -z "$MAN" >"$T/out" 2>"$T/err" || note "groff exited $?"
	[ ! -s "$T/err" ] || note "groff warns: $(head -3 "$T/err")"
	grep -qE '^\.SH "?EXIT STATUS' "$MAN" || note "no EXIT STATUS section"
	grep -q '^\.SH FILES' "$MAN" || note "no FILES section"
}

# --- README, docs/ and --help ---------------------------------------------
readme_is_short_and_links_resolve() {
	n=$(wc -l <"$SRC/README.md")
	[ "$n" -le 250 ] || note "README.md has $n lines, more than 250"
	python3 - "$SRC" >"$T/out" 2>&1 <<'EOF' || note "$(cat "$T/out")"
import glob, os, re, sys
root = sys.argv[1]
def slug(heading):
    h = re.sub(r'[`*]', '', heading.strip().lower())
    return re.sub(r'[^\w\- ]', '', h).replace(' ', '-')
def strip_fences(text):
    return re.sub(r'(?ms)^\s*(`{3,}).*?^\s*\1\s*$', '', text)
def strip_code(text):
    return re.sub(r'`[^`\n]*`', '', strip_fences(text))
def anchors(path):
    return {slug(l.lstrip('#')) for l in strip_fences(open(path).read()).split('\n')
            if l.startswith('#')}
bad = []
pages = [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs/*.md')))
for page in pages:
    for target in re.findall(r'\]\(([^)\s]+)\)', strip_code(open(page).read())):
        if re.match(r'[a-z]+:', target):
            continue
        path, _, frag = target.partition('#')
        dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        name = os.path.relpath(page, root)
        if not os.path.exists(dest):
            bad.append('%s: %s: no such file' % (name, target))
        elif frag and dest.endswith('.md') and frag not in anchors(dest):
            bad.append('%s: %s: no such heading' % (name, target))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
	for page in guide simt remote published contributing architecture; do
		grep -q "(docs/$page.md)" "$SRC/README.md" || note "README does not link docs/$page.md"
	done
}

help_names_pages_that_exist() {
	cl --help
	dir=$(sed -n 's/^documentation: man cudalab, and in //p' "$T/out")
	[ "$dir" = "$SRC/docs/" ] || note "--help names '$dir', not $SRC/docs/"
	for page in $(awk '/^documentation:/ { on = 1; next } on { print $1 }' "$T/out"); do
		[ -f "$dir$page" ] || note "--help names $page, which is not in $dir"
	done
	for v in $(help_verbs); do
		cl "$v" --help
		page=$(sed -n 's/^More: man cudalab, and //p' "$T/out")
		[ -f "$page" ] || note "'$v --help' names '$page', which does not exist"
	done
}

# --- completion -----------------------------------------------------------
complete_follows_the_table() {
	complete ""
	grep -qx check "$T/out" && ! grep -q __complete "$T/out" ||
		note "no verb check, or the hidden verb, among the verbs"
	complete read ""
	expect_lines first second ex-one
	complete mark ""
	expect_lines a1 a2 b1
	complete mark a1 ""
	expect_lines done reading unread
	complete check e
	expect_lines ex-one
	complete list ex
	expect_lines exercises
	complete check ex-one --f
	expect_lines --file
	complete check ex-one --file ""
	expect_lines :file
	complete run -I ""
	expect_lines :dir
	complete run a.cu -- ""
	expect_lines
	complete --home ""
	expect_lines :dir
	# device files' ids (the shipped ones, through CUDALAB_SIMT_DEVICES) and off
	CUDALAB_SIMT_DEVICES=$SRC/devices "$BIN" __complete -- --content "$FIX" \
		bench ex-one --predict h1 >"$T/out"
	expect_lines h100-pcie h100-sxm
	CUDALAB_SIMT_DEVICES=$SRC/devices "$BIN" __complete -- --content "$FIX" \
		run --predict o >"$T/out"
	expect_lines off
	printf 'Host gpu-box lab-*\n  HostName 10.0.0.7\nHost=gpu-two\n' >"$T/h/.ssh/config"
	HOME=$T/h "$BIN" __complete -- check ex-one --backend s >"$T/out"
	expect_lines simt slurm ssh: ssh:gpu-box ssh:gpu-two
	HOME=$T/h "$BIN" __complete -- doctor --backend "" >"$T/out"
	expect_lines slurm ssh: ssh:gpu-box ssh:gpu-two
}

# bash_complete LINE: COMPREPLY of the bash script for LINE, one a line
bash_complete() {
	PATH="$T/bin:$PATH" HOME="$T/h" bash --norc --noprofile -c '
		. "$1/completions/cudalab.bash"
		fn=$(complete -p cudalab | sed -n "s/.*-F \([^ ]*\).*/\1/p")
		COMP_LINE=$2 COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"$2"
		case $2 in *" ") COMP_WORDS+=("") ;; esac
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		"$fn" cudalab "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$SRC" "$1" >"$T/out" 2>"$T/err"
}

bash_completes_through_the_script() {
	mkdir -p "$T/files"
	printf 'Host gpu-box\n' >"$T/h/.ssh/config"
	: >"$T/files/prog.cu"
	bash_complete "cudalab che"
	expect_lines check
	bash_complete "cudalab check vec"
	expect_lines vector-add
	bash_complete "cudalab bench vector-add --backend ssh:gp"
	expect_lines gpu-box
	bash_complete "cudalab run --counters $T/files/pr"
	expect_lines "$T/files/prog.cu"
	[ ! -s "$T/err" ] || note "bash: $(head -3 "$T/err")"
}

zsh_completes_through_the_script() {
	PATH="$T/bin:$PATH" timeout 60 zsh -f "$SRC/tests/docs/zcomplete.zsh" "$SRC/completions" \
		"cudalab che" "cudalab check vec" "cudalab check vector-add --backend sim" \
		>"$T/out" 2>"$T/err" || note "zsh exited $?"
	expect_lines "cudalab check" "cudalab check vector-add" \
		"cudalab check vector-add --backend simt"
}

# --- make install and make uninstall ------------------------------------
# make_in_stage TARGET: make TARGET into $T/stage without building
make_in_stage() {
	make -s -C "$SRC" BUILD="$BUILD" DESTDIR="$T/stage" -o "$BUILD/cudalab" "$1" \
		>"$T/out" 2>"$T/err" || note "make $1 exited $?: $(tail -3 "$T/err")"
}

install_and_uninstall() {
	make_in_stage install
	bin=$(find "$T/stage" -path '*/bin/cudalab' -type f)
	man=$(find "$T/stage" -path '*/share/man/man1/cudalab.1')
	[ -n "$bin" ] && [ -n "$man" ] || { note "no bin/cudalab or man1/cudalab.1 installed"; return; }
	prefix=${bin%/bin/cudalab}
	for f in share/bash-completion/completions/cudalab share/zsh/site-functions/_cudalab \
		share/doc/cudalab/guide.md share/doc/cudalab/simt.md share/doc/cudalab/architecture.md; do
		[ -f "$prefix/$f" ] || note "not installed: $f"
	done
	! grep -q '@[A-Z]*DIR@' "$man" || note "the installed man page keeps a @...DIR@"
	grep -q "${prefix#"$T/stage"}/share/doc/cudalab" "$man" ||
		note "the installed man page does not name its doc directory"
	"$bin" --help >"$T/out"
	dir=$(sed -n 's/^documentation: man cudalab, and in //p' "$T/out")
	[ -f "$T/stage$dir/guide.md" ] || note "the installed --help names $dir, where guide.md is not"
	make_in_stage uninstall
	left=$(find "$T/stage" -type f | sed "s|$T/stage||")
	[ -z "$left" ] || note "left after uninstall: $left"
}

# --- run ------------------------------------------------------------------
for name in man_page_has_every_verb man_page_has_every_option man_page_names_every_variable \
	man_page_has_no_groff_warning readme_is_short_and_links_resolve help_names_pages_that_exist \
	complete_follows_the_table bash_completes_through_the_script zsh_completes_through_the_script \
	install_and_uninstall; do
	case " ${RUN_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	need=""
	case $name in
	*groff*) command -v groff >/dev/null 2>&1 || need="groff (Debian: groff-base)" ;;
	bash_*) command -v bash >/dev/null 2>&1 || need="bash" ;;
	zsh_*) command -v zsh >/dev/null 2>&1 || need="zsh" ;;
	readme_*) command -v python3 >/dev/null 2>&1 || need="python3" ;;
	esac
	if [ -n "$need" ]; then
		echo "  skip $name: $need not found"
	else
		t "$name"
	fi
done
[ -z "$failed" ] || echo "docs: failed:$failed"
echo "docs: $pass passed, $fail failed"
[ "$fail" = 0 ]

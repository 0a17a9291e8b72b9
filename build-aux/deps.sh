#!/bin/sh
# deps.sh OUT — checks what cudalab needs to build and test, installs the
# missing Debian packages when run as root, and writes the probed compiler
# and linker flags to OUT (a makefile fragment).  Without root it prints the
# one command to run and exits 1.  nvcc is optional: without it everything
# but building CUDA programs works, and this script says so; so is gcov,
# which only make coverage uses.
set -u
out=${1:?usage: deps.sh OUT}

# pkg-config module -> Debian package
mods="ncursesw:libncurses-dev md4c:libmd4c-dev sqlite3:libsqlite3-dev yaml-0.1:libyaml-dev libcjson:libcjson-dev criterion:libcriterion-dev"

missing=""
for pair in $mods; do
	mod=${pair%%:*}
	pkg=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "$mod"; then
		missing="$missing $pkg"
	fi
done
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
# groff checks the man page in make test, which skips that check without
# it: installed where this script can (as root), never demanded.
if ! command -v groff >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		missing="$missing groff-base"
	else
		echo "deps: groff not found: make test skips the man page's check" \
			"(sudo apt-get install groff-base)" >&2
	fi
fi

if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "deps: installing$missing" >&2
		export DEBIAN_FRONTEND=noninteractive
		# Refresh the package lists only when the install cannot find a package.
		# shellcheck disable=SC2086
		if ! apt-get install -y -q $missing >/tmp/cudalab-apt.$$ 2>&1; then
			apt-get update -q >>/tmp/cudalab-apt.$$ 2>&1
			# shellcheck disable=SC2086
			if ! apt-get install -y -q $missing >>/tmp/cudalab-apt.$$ 2>&1; then
				cat /tmp/cudalab-apt.$$ >&2
				rm -f /tmp/cudalab-apt.$$
				echo "deps: apt-get could not install:$missing" >&2
				exit 1
			fi
		fi
		rm -f /tmp/cudalab-apt.$$
	else
		echo "deps: missing packages:$missing" >&2
		echo "deps: run:  sudo apt-get install -y$missing" >&2
		exit 1
	fi
fi

nvcc=""
if command -v nvcc >/dev/null 2>&1; then
	nvcc=$(command -v nvcc)
elif [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
	nvcc=$CUDA_HOME/bin/nvcc
elif [ -x /usr/local/cuda/bin/nvcc ]; then
	nvcc=/usr/local/cuda/bin/nvcc
fi
# gcov (it comes with gcc) is for make coverage only: named, never demanded.
if ! command -v gcov >/dev/null 2>&1; then
	echo "deps: gcov not found: make coverage needs it (it comes with gcc)" >&2
fi
if [ -z "$nvcc" ]; then
	echo "deps: nvcc not found (PATH, \$CUDA_HOME, /usr/local/cuda): lessons, reading and" >&2
	echo "deps: progress work; building and checking CUDA programs needs the CUDA toolkit." >&2
fi

mkdir -p "$(dirname "$out")"
app="ncursesw md4c sqlite3 yaml-0.1 libcjson"
{
	echo "# written by build-aux/deps.sh; delete to probe again"
	echo "PKG_CFLAGS := $(pkg-config --cflags $app)"
	echo "PKG_LIBS := $(pkg-config --libs $app)"
	echo "CRITERION_CFLAGS := $(pkg-config --cflags criterion)"
	echo "CRITERION_LIBS := $(pkg-config --libs criterion)"
	echo "NVCC := $nvcc"
} >"$out.tmp" && mv "$out.tmp" "$out"

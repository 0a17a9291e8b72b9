# cudalab — a terminal learning lab for GPU and ML-systems engineering.
#
#   make            build build/cudalab (and build/libcudalab-simt.a)
#   make run        build, then open the lab
#   make test       build, then run every test suite
#   make check-layers  the includes follow simt's rooms and the module graph
#   make test-model simt's predicted kernel times against published ones; the
#                   kernels' sources are fetched first (MODEL_MIRROR=DIR: from
#                   bare repositories DIR/OWNER+NAME instead of GitHub)
#   make install    PREFIX=/usr/local DESTDIR= : binary, content, lab.h and lab/,
#                   man page, docs/ and bash and zsh completion
#   make fuzz       FUZZ_SECONDS=20 : every libFuzzer target for that long (clang)
#   make mutate     plant each bug of tests/mutate/mutants.txt, run the suite
#                   that should catch it, report the survivors (MUTATE_JOBS=2)
#   make coverage   line and branch coverage per room, and the PTX that no
#                   conformance program runs (a --coverage build in build/coverage)
#
# Options: SANITIZE=address,undefined  WERROR=1  CFLAGS=... (yours, kept
# apart from the flags cudalab needs).  Missing packages are installed (as
# root) or named by build-aux/deps.sh before anything compiles.

VERSION := 0.1.0
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/cudalab
DOCDIR ?= $(PREFIX)/share/doc/cudalab
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
INCLUDEDIR ?= $(PREFIX)/include
BUILD ?= build
CC ?= cc
CFLAGS ?= -O2 -g

CONFIG := $(BUILD)/config.mk
ifeq ($(filter clean uninstall,$(MAKECMDGOALS)),)
-include $(CONFIG)
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
ifeq ($(WERROR),1)
WARN += -Werror
endif
SAN_FLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)

# Flags cudalab needs, kept apart from the user's CFLAGS/CPPFLAGS/LDFLAGS.
REQ_CPPFLAGS := -Iinclude -D_GNU_SOURCE -DCUDALAB_VERSION='"$(VERSION)"' \
	-DCUDALAB_DATADIR='"$(DATADIR)"' -DCUDALAB_DOCDIR='"$(DOCDIR)"'
REQ_CFLAGS := -std=c11 -pthread -MMD -MP $(WARN) $(SAN_FLAGS)
APP_CFLAGS = $(REQ_CPPFLAGS) $(PKG_CFLAGS) $(CPPFLAGS) $(REQ_CFLAGS) $(CFLAGS)
# simt's includes are written relative to src/simt ("exec/exec.h").
SIMT_CPPFLAGS := -Isrc/simt
SIMT_CFLAGS = $(REQ_CPPFLAGS) $(SIMT_CPPFLAGS) $(CPPFLAGS) $(REQ_CFLAGS) $(CFLAGS)

APP_MODULES := util content doc store run tui cli
APP_SRCS := $(foreach m,$(APP_MODULES),$(sort $(wildcard src/$(m)/*.c)))
APP_OBJS := $(APP_SRCS:src/%.c=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/main.o
SIMT_SRCS := $(sort $(wildcard src/simt/*.c src/simt/*/*.c))
SIMT_OBJS := $(SIMT_SRCS:src/%.c=$(BUILD)/obj/%.o)
# The library lists its objects by file name, whatever their room, as the
# flat folder did: the order decides where the linker puts the
# interpreter's code in a program, and its speed was measured to depend
# on that (up to 5% on bench-simt's SGEMM in room order).
SIMT_LIB_OBJS := $(foreach n,$(sort $(notdir $(SIMT_OBJS))),$(filter %/$(n),$(SIMT_OBJS)))
SIMT_LIB := $(BUILD)/libcudalab-simt.a
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/obj/tests/%.o)
UNIT_BIN := $(BUILD)/unit-tests
# Unit tests of simt's own parts (the time model), linked with the library.
SIMT_UNIT_SRCS := $(sort $(wildcard tests/unit-simt/*.c))
SIMT_UNIT_OBJS := $(SIMT_UNIT_SRCS:tests/unit-simt/%.c=$(BUILD)/obj/tests-simt/%.o)
SIMT_UNIT_BIN := $(BUILD)/unit-simt-tests
BIN := $(BUILD)/cudalab
# Suites driven by a script: tests/<suite>/run.sh, run in this order.
SCRIPT_SUITES := $(wildcard tests/layers/run.sh tests/devices/run.sh tests/fuzz/regress.sh tests/simt/run.sh tests/harness/run.sh tests/run/run.sh tests/e2e/run.sh tests/docs/run.sh)

# Fuzz targets (tests/fuzz/fuzz_NAME.c): those of simt link only simt.
FUZZ_SIMT_TARGETS := ptx fatbin
FUZZ_APP_TARGETS := markdown quiz frontmatter result config remote store
FUZZ_TARGETS := $(FUZZ_APP_TARGETS) $(FUZZ_SIMT_TARGETS)
# The same sources with the normal compiler and tests/fuzz/driver.c, run by
# `make test` on the seed corpora and the regression inputs.
REGRESS_DIR := $(BUILD)/fuzz-regress
REGRESS_BINS := $(FUZZ_TARGETS:%=$(REGRESS_DIR)/fuzz_%)
# Prints a result's findings (run_insight_list) for the script suites.
INSIGHT_TOOL := $(BUILD)/insight-lines

# simt's interpreter loops (lane loops over register rows, the hazard
# checks of every access) vectorise at -O3; those files get it when CFLAGS
# keep the default level.
SIMT_HOT := exec/exec exec/exec_mem exec/exec_sync exec/exec_call exec/typed exec/alu \
	check/access check/async check/block check/clock check/hazard check/report check/shadow \
	check/stream check/sync exec/sched runtime/launch libs/blas
SIMT_HOT_OPT := $(if $(filter -O2,$(CFLAGS)),-O3)
$(SIMT_HOT:%=$(BUILD)/obj/simt/%.o): SIMT_FILE_CFLAGS := $(SIMT_HOT_OPT)

# Object files also depend on the flags they were built with.
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_NOW := $(CC) $(APP_CFLAGS) $(SIMT_CPPFLAGS) $(LDFLAGS) hot: $(SIMT_HOT) $(SIMT_HOT_OPT)

.PHONY: all run test check-layers fuzz mutate coverage coverage-build test-unit test-model test-gpu test-remote bench bench-run bench-simt bench-checks bench-judge bench-exercises install uninstall clean deps FORCE
.DEFAULT_GOAL := all

all: $(BIN) $(SIMT_LIB)

deps: $(CONFIG)

$(CONFIG): build-aux/deps.sh
	@sh build-aux/deps.sh $@

$(FLAGS_STAMP): FORCE | $(CONFIG)
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(subst ','"'"',$(FLAGS_NOW))' ]; then \
		printf '%s\n' '$(subst ','"'"',$(FLAGS_NOW))' >$@; fi

# Links also depend on the list of sources, so that a removed file leaves
# no stale object behind in a binary or the library.
SRCS_STAMP := $(BUILD)/sources.stamp
SRCS_NOW := src/main.c $(APP_SRCS) $(SIMT_SRCS) $(UNIT_SRCS) $(SIMT_UNIT_SRCS)

$(SRCS_STAMP): FORCE | $(CONFIG)
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(SRCS_NOW)' ]; then \
		printf '%s\n' '$(SRCS_NOW)' >$@; fi

FORCE:

$(BUILD)/obj/%.o: src/%.c $(FLAGS_STAMP) | $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -c -o $@ $<

$(BUILD)/obj/simt/%.o: src/simt/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(SIMT_CFLAGS) $(SIMT_FILE_CFLAGS) -c -o $@ $<

$(BUILD)/obj/tests/%.o: tests/unit/%.c $(FLAGS_STAMP) | $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(CRITERION_CFLAGS) -DCUDALAB_SRCDIR='"$(CURDIR)"' \
		-DCUDALAB_BIN='"$(abspath $(BIN))"' -c -o $@ $<

$(BUILD)/obj/tests-simt/%.o: tests/unit-simt/%.c $(FLAGS_STAMP) | $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(SIMT_CFLAGS) $(CRITERION_CFLAGS) -DCUDALAB_SRCDIR='"$(CURDIR)"' -c -o $@ $<

$(SIMT_UNIT_BIN): $(SIMT_UNIT_OBJS) $(SIMT_LIB) $(SRCS_STAMP)
	$(CC) $(REQ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(SIMT_UNIT_OBJS) $(SIMT_LIB) \
		$(CRITERION_LIBS) -lm

$(BIN): $(MAIN_OBJ) $(APP_OBJS) $(SRCS_STAMP)
	$(CC) $(REQ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(PKG_LIBS) -lm

$(SIMT_LIB): $(SIMT_LIB_OBJS) $(SRCS_STAMP)
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

$(UNIT_BIN): $(UNIT_OBJS) $(APP_OBJS) $(SRCS_STAMP)
	$(CC) $(REQ_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(CRITERION_LIBS) $(PKG_LIBS) -lm

# Criterion counts a test that passed and then leaked as passed, so a
# sanitizer report anywhere in the output fails the run.
define run_unit_tests
	@$(SIMT_UNIT_BIN) --jobs 2 </dev/null >$(BUILD)/unit-simt-tests.log 2>&1; rc=$$?; \
	cat $(BUILD)/unit-simt-tests.log; \
	if grep -q 'Sanitizer' $(BUILD)/unit-simt-tests.log; then \
		echo 'simt unit tests: a sanitizer reported an error (above)'; exit 1; fi; \
	[ $$rc -eq 0 ] || exit $$rc; \
	$(UNIT_BIN) --jobs 2 </dev/null >$(BUILD)/unit-tests.log 2>&1; rc=$$?; \
	cat $(BUILD)/unit-tests.log; \
	if grep -q 'Sanitizer' $(BUILD)/unit-tests.log; then \
		echo 'unit tests: a sanitizer reported an error (above)'; exit 1; fi; \
	exit $$rc
endef

run: $(BIN) $(SIMT_LIB)
	./$(BIN)

$(REGRESS_DIR)/driver.o: tests/fuzz/driver.c $(FLAGS_STAMP) | $(CONFIG)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -c -o $@ $<

$(FUZZ_APP_TARGETS:%=$(REGRESS_DIR)/fuzz_%): $(REGRESS_DIR)/fuzz_%: tests/fuzz/fuzz_%.c \
		$(REGRESS_DIR)/driver.o $(APP_OBJS) $(SRCS_STAMP)
	$(CC) $(APP_CFLAGS) $(LDFLAGS) -o $@ $< $(REGRESS_DIR)/driver.o $(APP_OBJS) $(PKG_LIBS) -lm

$(INSIGHT_TOOL): tests/harness/insights.c $(APP_OBJS) $(SRCS_STAMP) | $(CONFIG)
	$(CC) $(APP_CFLAGS) $(LDFLAGS) -o $@ $< $(APP_OBJS) $(PKG_LIBS) -lm

$(FUZZ_SIMT_TARGETS:%=$(REGRESS_DIR)/fuzz_%): $(REGRESS_DIR)/fuzz_%: tests/fuzz/fuzz_%.c \
		$(REGRESS_DIR)/driver.o $(SIMT_OBJS) $(SRCS_STAMP)
	$(CC) $(SIMT_CFLAGS) $(LDFLAGS) -o $@ $< $(REGRESS_DIR)/driver.o $(SIMT_OBJS) -lm

# The layer check and the script suites first, then the unit tests, whose
# summary closes the run.
test: $(BIN) $(SIMT_LIB) $(UNIT_BIN) $(SIMT_UNIT_BIN) $(REGRESS_BINS) $(INSIGHT_TOOL)
	@echo "== check-layers"
	@sh build-aux/check-layers.sh
	@set -e; for s in $(SCRIPT_SUITES); do \
		echo "== $$s"; \
		BUILD='$(BUILD)' CUDALAB_BIN='$(abspath $(BIN))' NVCC='$(NVCC)' sh $$s </dev/null; \
	done
	@echo "== unit tests"
	$(run_unit_tests)

# simt's includes run down its rooms, and the application's follow the
# module graph of docs/architecture.md (build-aux/check-layers.sh).
check-layers:
	@sh build-aux/check-layers.sh

test-unit: $(UNIT_BIN) $(SIMT_UNIT_BIN) $(BIN)
	$(run_unit_tests)

# libFuzzer: each target built with clang and ASan+UBSan into
# $(BUILD)/fuzz, run FUZZ_SECONDS from tests/fuzz/corpus/NAME; crashes
# land in $(BUILD)/fuzz/crashes/NAME.  FUZZ_TARGETS picks some, FUZZ_JOBS
# runs that many at once.  One line per target; exit 1 on any finding.
FUZZ_SECONDS ?= 20
FUZZ_JOBS ?= 1
FUZZ_CC ?= clang
FUZZ_DIR := $(BUILD)/fuzz
FUZZ_CFLAGS := -std=c11 -pthread -MMD -MP $(filter-out -Werror,$(WARN)) -g -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_APP_OBJS := $(APP_SRCS:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_SIMT_OBJS := $(SIMT_SRCS:src/%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_STAMP := $(FUZZ_DIR)/flags.stamp
FUZZ_FLAGS_NOW := $(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS)

$(FUZZ_STAMP): FORCE | $(CONFIG)
	@mkdir -p $(@D)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(subst ','"'"',$(FUZZ_FLAGS_NOW))' ]; then \
		printf '%s\n' '$(subst ','"'"',$(FUZZ_FLAGS_NOW))' >$@; fi

$(FUZZ_DIR)/obj/%.o: src/%.c $(FUZZ_STAMP) | $(CONFIG)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(REQ_CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/obj/simt/%.o: src/simt/%.c $(FUZZ_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(REQ_CPPFLAGS) $(SIMT_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_APP_TARGETS:%=$(FUZZ_DIR)/fuzz_%): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c \
		$(FUZZ_APP_OBJS) $(SRCS_STAMP)
	$(FUZZ_CC) $(REQ_CPPFLAGS) $(PKG_CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
		$(FUZZ_APP_OBJS) $(PKG_LIBS) -lm

$(FUZZ_SIMT_TARGETS:%=$(FUZZ_DIR)/fuzz_%): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c \
		$(FUZZ_SIMT_OBJS) $(SRCS_STAMP)
	$(FUZZ_CC) $(REQ_CPPFLAGS) $(SIMT_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_SIMT_OBJS) -lm

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
	@FUZZ_DIR='$(FUZZ_DIR)' FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_JOBS='$(FUZZ_JOBS)' \
		sh tests/fuzz/run.sh $(FUZZ_TARGETS)

# Mutation testing (build-aux/mutate.sh): each mutant of the list planted
# in a copy of the tree and this build, its suite run.  MUTANTS="id ..."
# picks some, MUTATE_JOBS copies work at once, MUTATE_LIST=1 only checks
# the list.  Exit 1 below MUTATE_MIN percent killed (default 90).
mutate: $(BIN) $(SIMT_LIB) $(UNIT_BIN) $(SIMT_UNIT_BIN) $(REGRESS_BINS) $(INSIGHT_TOOL)
	@BUILD='$(BUILD)' NVCC='$(NVCC)' sh build-aux/mutate.sh

# Coverage (build-aux/coverage.sh): the tree built with --coverage (at
# -O1, so that lines stay lines) in $(BUILD)/coverage, the suites run
# there, gcov summed per room.  COVERAGE_SUITES="unit simt ..." picks some.
COVERAGE_DIR := $(BUILD)/coverage
coverage:
	@$(MAKE) -s BUILD='$(COVERAGE_DIR)' CFLAGS='-O1 -g --coverage' LDFLAGS='--coverage' \
		coverage-build
	@BUILD='$(BUILD)' COVERAGE_DIR='$(COVERAGE_DIR)' NVCC='$(NVCC)' sh build-aux/coverage.sh

coverage-build: $(BIN) $(SIMT_LIB) $(UNIT_BIN) $(SIMT_UNIT_BIN) $(REGRESS_BINS) $(INSIGHT_TOOL)

# Benchmarks print each figure beside its reference; they are not tests.
bench: $(BIN)
	@CUDALAB_BIN='$(abspath $(BIN))' sh tests/bench/reader.sh

# An unchanged re-check: the program's own run time plus at most 100 ms.
bench-run: $(BIN) $(SIMT_LIB)
	@CUDALAB_BIN='$(abspath $(BIN))' NVCC='$(NVCC)' sh tests/run/bench.sh
	@CUDALAB_BIN='$(abspath $(BIN))' NVCC='$(NVCC)' CUDALAB_CONTENT='$(CURDIR)' \
		BACKEND=simt sh tests/run/bench.sh vector-add

bench-simt: $(SIMT_LIB)
	@BUILD='$(BUILD)' NVCC='$(NVCC)' sh tests/bench/simt.sh

# Every reference solution checked on simt with the hazard checks on and off.
bench-checks: $(BIN) $(SIMT_LIB)
	@CUDALAB_BIN='$(abspath $(BIN))' sh tests/bench/checks.sh

# Every exercise's check with this build beside a reference build (REF, a
# git revision, default main; or REF_TREE, a built tree): wall and CPU time.
bench-judge: $(BIN) $(SIMT_LIB)
	@CUDALAB_BIN='$(abspath $(BIN))' BUILD='$(BUILD)' REF='$(REF)' sh tests/bench/judge.sh

# Every reference solution benched on the GPU beside its bar (80 % of
# peak bandwidth, or 50 % of cuBLAS for sgemm-regblock); medians of RUNS.
bench-exercises: $(BIN) $(SIMT_LIB)
	@CUDALAB_BIN='$(abspath $(BIN))' NVCC='$(NVCC)' sh tests/bench/exercises.sh

# The conformance programs on a real GPU with the real CUDA runtime.
# Opt-in: remote checks against a real sshd and a single-node SLURM,
# started and stopped by the script (needs root, openssh-server, slurm-wlm
# and munge).
test-remote: $(BIN) $(SIMT_LIB)
	CUDALAB_BIN=$(abspath $(BIN)) sh tests/remote/run.sh

# Opt-in: simt's time model against published kernel timings
# (tests/model/*/table.tsv), after the scoring's own check.  The kernels'
# sources are fetched first; one that cannot be does not stop the others:
# run.sh counts its rows as not predicted.
test-model: $(SIMT_LIB)
	@BUILD='$(BUILD)' NVCC='$(NVCC)' sh tests/model/test.sh
	@sh tests/model/fetch.sh; BUILD='$(BUILD)' NVCC='$(NVCC)' sh tests/model/run.sh

test-gpu:
	@BUILD='$(BUILD)' NVCC='$(NVCC)' sh tests/simt/gpu.sh

install: $(BIN)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(DATADIR)' '$(DESTDIR)$(INCLUDEDIR)/cudalab' \
		'$(DESTDIR)$(MANDIR)/man1' '$(DESTDIR)$(DOCDIR)' '$(DESTDIR)$(BASHCOMPDIR)' \
		'$(DESTDIR)$(ZSHCOMPDIR)'
	install -m 0755 $(BIN) '$(DESTDIR)$(BINDIR)/cudalab'
	if [ -f include/cudalab/lab.h ]; then install -m 0644 include/cudalab/lab.h '$(DESTDIR)$(INCLUDEDIR)/cudalab/lab.h'; \
		install -d '$(DESTDIR)$(INCLUDEDIR)/cudalab/lab'; \
		install -m 0644 include/cudalab/lab/*.h '$(DESTDIR)$(INCLUDEDIR)/cudalab/lab/'; fi
	rm -rf '$(DESTDIR)$(DATADIR)/lessons' '$(DESTDIR)$(DATADIR)/exercises'
	rm -rf '$(DESTDIR)$(DATADIR)/devices'
	cp -R lessons exercises devices '$(DESTDIR)$(DATADIR)/'
	if [ -f $(SIMT_LIB) ]; then install -m 0644 $(SIMT_LIB) '$(DESTDIR)$(DATADIR)/'; fi
	sed -e 's|@DATADIR@|$(DATADIR)|g' -e 's|@DOCDIR@|$(DOCDIR)|g' man/cudalab.1 \
		>'$(DESTDIR)$(MANDIR)/man1/cudalab.1'
	chmod 0644 '$(DESTDIR)$(MANDIR)/man1/cudalab.1'
	install -m 0644 docs/*.md '$(DESTDIR)$(DOCDIR)/'
	install -m 0644 completions/cudalab.bash '$(DESTDIR)$(BASHCOMPDIR)/cudalab'
	install -m 0644 completions/_cudalab '$(DESTDIR)$(ZSHCOMPDIR)/_cudalab'

uninstall:
	rm -f '$(DESTDIR)$(BINDIR)/cudalab' '$(DESTDIR)$(INCLUDEDIR)/cudalab/lab.h' \
		'$(DESTDIR)$(MANDIR)/man1/cudalab.1' '$(DESTDIR)$(BASHCOMPDIR)/cudalab' \
		'$(DESTDIR)$(ZSHCOMPDIR)/_cudalab'
	rm -rf '$(DESTDIR)$(INCLUDEDIR)/cudalab/lab'
	-rmdir '$(DESTDIR)$(INCLUDEDIR)/cudalab' 2>/dev/null
	rm -rf '$(DESTDIR)$(DATADIR)' '$(DESTDIR)$(DOCDIR)'

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj $(FUZZ_DIR) $(REGRESS_DIR) -name '*.d' 2>/dev/null)

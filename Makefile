# csift-mcp: `make run` and `make test` work from a clean clone on a fresh Debian machine as root.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
ARGS ?=
# Ninja when the build directory is new: it compiles every target's objects as soon as their sources are ready,
# where the Makefile generator finishes a library (its last, longest unit with one core idle) before the next
# library's first object starts. A build directory configured before keeps its generator (cmake refuses to
# switch one).
GEN = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)

.PHONY: all deps build run serve test unit-test asan fuzz-configure fuzz-build fuzz fuzz-smoke format format-check bench soak clean

all: build

deps:
	@./.ci/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(call GEN,$(BUILD)) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j$(JOBS)

# The main job: list the sessions of the Claude Code store on this machine (or of the fixture store when this
# machine has no session), so a new user sees the tool work. `make serve` runs the MCP server on stdio.
run: build
	@if [ -n "$(ARGS)" ]; then ./$(BUILD)/csift-mcp $(ARGS); \
	elif [ -n "$$(find "$${CLAUDE_CONFIG_DIR:-$$HOME/.claude}/projects" -maxdepth 2 -name '*.jsonl' -print -quit 2>/dev/null)" ]; \
	  then ./$(BUILD)/csift-mcp --cli list; \
	else echo "(no Claude Code sessions on this machine: listing the fixture store)"; \
	  ./$(BUILD)/csift-mcp --cli list --claude-home fixtures/home; fi

serve: build
	./$(BUILD)/csift-mcp --stdio

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

format-check: deps
	clang-format --dry-run --Werror $$(git ls-files '*.cpp' '*.h')

unit-test: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The ASan+UBSan pass, built with clang: it is also the fuzz targets' build (CSIFT_FUZZ: every object carries
# libFuzzer's coverage instrumentation too), so the targets link against the suite's own objects and their
# smoke runs as one of its tests (ctest fuzz_smoke, SPEC.md §14). A whole clang pass, smoke included, cost 13 %
# less CPU than GCC's pass without it (1,736 against 1,999 CPU seconds, measured side by side): clang builds
# the tree faster than its coverage tracing slows the tests. `make test ASAN_CXX=g++` is the GCC pass (no
# fuzz targets).
ASAN_CXX ?= clang++
ASAN_FLAGS = $(if $(findstring clang,$(ASAN_CXX)),-DCMAKE_CXX_COMPILER=$(ASAN_CXX) -DCSIFT_FUZZ=ON,-DCSIFT_SANITIZE=ON)
asan: deps
	cmake -S . -B $(ASAN_BUILD) $(call GEN,$(ASAN_BUILD)) -DCMAKE_BUILD_TYPE=Debug $(ASAN_FLAGS)
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  CSIFT_TEST_SANITIZED=1 ctest --output-on-failure -j$(JOBS)

# The libFuzzer targets (tests/fuzz/, SPEC.md §14): the clang ASan pass's build (above), every object carrying
# ASan, UBSan and libFuzzer's coverage instrumentation; a build of their own when the pass is built with GCC.
# `make fuzz` runs each for FUZZ_SECONDS (or exactly FUZZ_RUNS executions: `make fuzz FUZZ_RUNS=10000000`) and
# prints a table. `make fuzz-smoke` builds only what the parsers' targets link (core, the HTTP parsers, image
# extraction: not the tools and the server that the JSON-RPC target needs) and runs each for a few seconds
# after replaying its seeds and the committed regression inputs.
FUZZ_BUILD ?= $(if $(findstring clang,$(ASAN_CXX)),$(ASAN_BUILD),build-fuzz)
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= 0
FUZZ_MAX_LEN ?=
fuzz-configure: deps
	cmake -S . -B $(FUZZ_BUILD) $(call GEN,$(FUZZ_BUILD)) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
	  -DCSIFT_FUZZ=ON

fuzz-build: fuzz-configure
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_targets

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_MAX_LEN=$(FUZZ_MAX_LEN) FUZZ_JOBS=$(JOBS) \
	  tests/fuzz/run.sh $(FUZZ_BUILD) long

fuzz-smoke: fuzz-configure
	cmake --build $(FUZZ_BUILD) -j$(JOBS) --target fuzz_parsers
	FUZZ_JOBS=$(JOBS) tests/fuzz/run.sh $(FUZZ_BUILD) smoke

# The whole suite: format gate, the Release build's tests, the ASan+UBSan pass (the fuzz targets' smoke among
# its tests).
test: format-check unit-test asan

bench: build
	./bench/run.sh

# The soak of the warm server (bench/soak.py): a stdio and an HTTP server over a store a writer keeps changing,
# every answer compared with a fresh --cli run, memory and descriptors sampled. ctest runs a 20-second one.
SOAK_SECONDS ?= 300
soak: build
	python3 bench/soak.py --bin $(BUILD)/csift-mcp --seconds $(SOAK_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz

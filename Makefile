# Herald — two commands on a fresh Debian machine with Swift 6:
#   make demo   runs Herald end to end on the embedded Kafka broker
#   make test   builds and runs every test (embedded broker on 127.0.0.1 only)
# `make bench` runs the benchmarks (release build); `make deps` installs system packages.

SHELL        := /bin/bash
SWIFT        ?= swift
APT_PACKAGES := librdkafka-dev libicu-dev pkg-config libsqlite3-dev kcat
HERALD_DEBUG := .build/debug/herald
HERALD_REL   := .build/release/herald

.PHONY: all deps build test test-swift test-cli validate-deploy validate-openapi check-api-live chaos chaos-short chaos-push fuzz fuzz-build demo run broker bench bench-matcher clean

all: build

## Install the system packages Herald builds against, when missing (apt; sudo when not root).
deps:
	@missing=""; \
	for package in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; \
	  $$sudo apt-get update -qq && \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi; \
	pkg-config --exists rdkafka || { echo "make deps: pkg-config cannot find rdkafka after installing librdkafka-dev" >&2; exit 1; }
	@pkg-config --exists icu-uc icu-i18n || { echo "make deps: pkg-config cannot find icu-uc/icu-i18n after installing libicu-dev" >&2; exit 1; }

build: deps
	$(SWIFT) build --product herald

test: test-swift test-cli validate-deploy validate-openapi check-api-live chaos-short

## A crash of the test process prints one short report (the crashed thread, no registers),
## and a failed run ends with its failures and crash messages, so that a log cut to its
## head and tail still names them.
TEST_BACKTRACE ?= enable=yes,interactive=no,threads=crashed,registers=none,images=none,limit=40
test-swift: deps
	$(SWIFT) build --build-tests
	@SWIFT_BACKTRACE='$(TEST_BACKTRACE)' $(SWIFT) test 2>&1 | tee .build/swift-test.log; status=$${PIPESTATUS[0]}; \
	if [ "$$status" -ne 0 ]; then \
	  echo "== swift test exited with $$status; its failures and crash reports:"; \
	  grep -E -A24 "Fatal error|crashed:$$" .build/swift-test.log | head -80; \
	  grep -E "^✘ Test .*(recorded an issue|failed after)" .build/swift-test.log | head -40; \
	fi; exit $$status

## The command-line tools against golden outputs (exit codes, stdout; files in Tests/CLIGolden).
test-cli: deps
	$(SWIFT) build --product herald
	HERALD=$(HERALD_DEBUG) scripts/cli-tests.sh

## docs/openapi.yaml against the OpenAPI specification.
validate-openapi:
	scripts/validate-openapi.sh

## schemathesis against a running `herald run` on the embedded broker (about 2 minutes).
check-api-live: build
	HERALD=$(HERALD_DEBUG) scripts/check-api-live.sh

## Kubernetes manifests, docker-compose.yml and the Dockerfile against their schemas.
validate-deploy:
	scripts/validate-deploy.sh --self-test

## The chaos suite (opt-in; the debug build `make test` uses, or CHAOS_HERALD=path): separate `herald broker` and `herald run`
## processes, 100,000 changes, kill -9, SIGTERM, broker SIGSTOP, reader kill, poison input,
## kill -9 of a push stage sending to `herald stand-in` (three times), a new broker under an old
## data directory; verdicts from the data; prints a table.
CHAOS_ARGS ?=
CHAOS_HERALD ?= $(HERALD_DEBUG)
chaos: build
	python3 scripts/chaos.py --herald $(CHAOS_HERALD) $(CHAOS_ARGS)

## The short chaos run inside `make test`: a few thousand changes, a kill, poison input, a new broker.
chaos-short: build
	python3 scripts/chaos.py --herald $(HERALD_DEBUG) --changes 3000 --users 20 --partitions 6 --chunks 5 \
	  --scenarios kill9,poison,newbroker --timeout 120 --no-time-targets

## The push scenario alone, short (about a minute: not in `make test`): `herald stand-in` in its own
## process, a push stage killed with -9 mid-stream; no push lost, repeats within one batch.
chaos-push: build
	python3 scripts/chaos.py --herald $(HERALD_DEBUG) --changes 3000 --users 20 --partitions 6 --chunks 5 \
	  --scenarios push --timeout 120 --no-time-targets

## libFuzzer targets for every parser of outside input (Fuzz/, README "Fuzzing"), built with
## the fuzzer and address sanitizers in their own scratch path; `make fuzz` runs each for
## FUZZ_SECONDS (default 20 minutes) from the seeds in Fuzz/corpus and prints a table.
FUZZ_SECONDS ?= 1200
FUZZ_TARGETS ?=
fuzz-build: deps
	$(SWIFT) build --package-path Fuzz --scratch-path .build-fuzz -c debug -Xswiftc -sanitize=fuzzer,address

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGETS="$(FUZZ_TARGETS)" scripts/fuzz.sh

demo: build
	$(HERALD_DEBUG) demo

run: build
	$(HERALD_DEBUG) run

broker: build
	$(HERALD_DEBUG) broker

# `make bench` prints every benchmark's table; `make bench BENCH_JSON=1` writes each one's
# JSON report to $(BENCH_OUT)/<name>.json instead (one object per file, for scripts and CI).
BENCH_OUT    ?= .build/bench
BENCH_JSON   ?=
bench_run     = $(if $(BENCH_JSON),mkdir -p $(BENCH_OUT) && $(2) $(HERALD_REL) bench $(1) --json > $(BENCH_OUT)/$(1).json && cat $(BENCH_OUT)/$(1).json,$(2) $(HERALD_REL) bench $(1))
# The pipeline benchmark counts allocations with libHeraldAllocationCounter.so preloaded
# (herald itself never links it).
ALLOC_PRELOAD = LD_PRELOAD=$(CURDIR)/.build/release/libHeraldAllocationCounter.so

bench: deps
	$(SWIFT) build -c release --product herald
	$(SWIFT) build -c release --product HeraldAllocationCounter
	$(call bench_run,kafka)
	$(call bench_run,matcher)
	$(call bench_run,payload)
	$(call bench_run,pipeline,$(ALLOC_PRELOAD))
	@command -v wrk >/dev/null || { sudo=""; [ "$$(id -u)" -eq 0 ] || sudo="sudo"; $$sudo apt-get install -y -qq wrk; }
	$(call bench_run,reader)
	$(call bench_run,push)

clean:
	rm -rf .build .venv-deploy .venv-openapi .venv-schemathesis

bench-matcher: deps
	$(SWIFT) build -c release --product herald
	$(HERALD_REL) bench matcher

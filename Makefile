# Every target has a one-line description after '##'; `make` alone prints them.
.DEFAULT_GOAL := help
GO ?= go
ADDR ?= 127.0.0.1:4010
SEED ?= 20261121

.PHONY: help run test build fixtures-golden vet conformance conformance-golden

help: ## print this help
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-24s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

run: ## run the mock with its seeded fixtures on $(ADDR)
	$(GO) run ./cmd/mockserver --addr $(ADDR) --seed $(SEED)

test: ## run every test (race detector on): the suite against the in-process mock, then against the mock image
	TESTCONTAINERS_RYUK_DISABLED=true $(GO) test -race -count=1 ./...
	@if docker info >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory conformance-container; \
	elif [ "$${REQUIRE_DOCKER:-}" = 1 ]; then \
	  echo "test: no Docker engine reachable, and REQUIRE_DOCKER=1" >&2; exit 1; \
	else \
	  echo "SKIPPED: the suite against the mock image (no Docker engine reachable)"; \
	fi

build: ## build the mock binary into build/mockserver
	CGO_ENABLED=0 $(GO) build -trimpath -o build/mockserver ./cmd/mockserver

fixtures-golden: ## regenerate the golden files of the seeded fixtures
	$(GO) test ./fixtures -update

vet: ## gofmt check and go vet
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...

CONFORMANCE_BASE_URL ?= http://$(ADDR)
CONFORMANCE_PROFILE ?= contract

conformance: ## build the suite binary and run it against CONFORMANCE_BASE_URL (label filter CONFORMANCE_PROFILE, default contract); JUnit and JSON reports in build/
	$(GO) test -c -o build/conformance.test ./conformance
	CONFORMANCE_BASE_URL=$(CONFORMANCE_BASE_URL) ./build/conformance.test \
	  --ginkgo.label-filter='$(CONFORMANCE_PROFILE)' \
	  --ginkgo.junit-report=build/conformance-junit.xml --ginkgo.json-report=build/conformance.json

conformance-golden: ## regenerate the suite's golden spec list and self-test table
	$(GO) test ./conformance/selftest -update

.PHONY: bench soak fuzz
BENCHTIME ?= 1s
FUZZTIME ?= 10s
SOAK ?= 60s

bench: ## benchmarks of the pipeline, the bare handler, load at 32 connections, scale, start-up and idle RSS (docs/performance.md)
	$(GO) test -run '^$$' -bench 'BenchmarkPipeline|BenchmarkLoad|BenchmarkCardsCreateAt|BenchmarkCommentsListAt|BenchmarkStartInProcess' -benchtime $(BENCHTIME) ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkBinary' -benchtime 10x ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkMemoryPerRecord' -benchtime 1x ./mockserver

soak: ## the soak test for $(SOAK): 64 clients mixing reads and writes, race detector on
	$(GO) test -race -count=1 -run '^TestSoak$$' -soak $(SOAK) -v ./mockserver

fuzz: ## run each fuzz target for $(FUZZTIME) (the seeds alone run in `make test`)
	$(GO) test -run '^$$' -fuzz '^FuzzHandler$$' -fuzztime $(FUZZTIME) ./mockserver
	$(GO) test -run '^$$' -fuzz '^FuzzEnvelope$$' -fuzztime $(FUZZTIME) ./mockserver

-include container.mk

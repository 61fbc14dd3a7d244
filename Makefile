# Every target has a one-line description after '##'; `make` alone prints them.
.DEFAULT_GOAL := help
GO ?= go
ADDR ?= 127.0.0.1:4010
SEED ?= 20261121

.PHONY: help run proxy check-upstream test test-quick test-codegen codegen build fixtures-golden vet conformance conformance-golden

# help prints each target's line with the variables it names ($(ADDR), ...) at their values.
help: ## print this help
	@ADDR='$(ADDR)' SOAK='$(SOAK)' FUZZTIME='$(FUZZTIME)' awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / { \
	    d = $$2; while (match(d, /\$$\([A-Z_]+\)/)) { v = substr(d, RSTART + 2, RLENGTH - 3); d = substr(d, 1, RSTART - 1) ENVIRON[v] substr(d, RSTART + RLENGTH) } \
	    printf "  %-24s %s\n", $$1, d }' $(MAKEFILE_LIST)

# run and proxy build the binary and exec it, so a SIGTERM sent to make (a CI runner, timeout)
# reaches the mock or the proxy, which then saves its state or writes its reports; go run would
# leave them running, holding the port.
run: build ## run the mock with its seeded fixtures on $(ADDR)
	exec ./build/mockserver --addr $(ADDR) --seed $(SEED)

UPSTREAM ?=

proxy: check-upstream build ## run the validating proxy on $(ADDR) in front of UPSTREAM (README, "Validating proxy"); reports in build/ at stop
	exec ./build/mockserver proxy --upstream $(UPSTREAM) --addr $(ADDR) \
	  --report-json build/proxy-report.json --report-junit build/proxy-junit.xml

# The self-test runs the whole suite (and explore mode) against some hundred variants of the mock:
# under the race detector that alone would outlast go test's ten minutes, and it races nothing
# the mock's own tests do not, so it runs without it and with a longer timeout. Its sweeps wait
# on answers and rate windows more than they compute, so six variants run at once on two cores.
SELFTEST = ./conformance/selftest

# The self-test mostly waits, the race run mostly computes: they run side by side, the
# self-test's output kept in build/selftest.log and shown once both are done.
test: ## the full loop: every test (race detector on, container tests, the whole self-test, the generated client), then the suite against the mock image and the README's container commands
	@mkdir -p build
	@OPSAPI_FULL_TESTS=1 $(GO) test -count=1 -parallel 6 -timeout 40m $(SELFTEST) > build/selftest.log 2>&1 & selftest=$$!; \
	OPSAPI_FULL_TESTS=1 TESTCONTAINERS_RYUK_DISABLED=true $(GO) test -race -count=1 -timeout 30m $$($(GO) list ./... | grep -v '/conformance/selftest$$'); race=$$?; \
	wait $$selftest; self=$$?; \
	echo "== the self-test ($(SELFTEST), run beside the race run)"; cat build/selftest.log; \
	test $$race = 0 && test $$self = 0
	@$(MAKE) --no-print-directory test-codegen
	@if docker info >/dev/null 2>&1; then \
	  $(MAKE) --no-print-directory conformance-container && \
	  $(MAKE) --no-print-directory test-readme-container; \
	elif [ "$${REQUIRE_DOCKER:-}" = 1 ]; then \
	  echo "test: no Docker engine reachable, and REQUIRE_DOCKER=1" >&2; exit 1; \
	else \
	  echo "SKIPPED: the container tests of mockserver/container and the suite against the mock image (no Docker engine reachable)"; \
	fi

test-quick: ## the quick loop: go test ./... (no race detector, no containers, a sample of the self-test)
	$(GO) test ./...

test-codegen: ## the Go client oapi-codegen generates from spec/openapi.yaml: no drift, and it drives the in-process mock (module spec/codegen)
	cd spec/codegen && $(GO) test -race -count=1 ./...

codegen: ## regenerate spec/codegen/client from spec/openapi.yaml (oapi-codegen, pinned in spec/codegen/go.mod)
	cd spec/codegen && $(GO) generate ./...

# The commit --version names, also where GOFLAGS=-buildvcs=false leaves it out of the build.
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null)

check-upstream:
	@test -n "$(UPSTREAM)" || (echo "make proxy: set UPSTREAM=https://your-deployment" >&2; exit 1)

build: ## build the mock binary into build/mockserver
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-X main.commit=$(COMMIT)' -o build/mockserver ./cmd/mockserver

fixtures-golden: ## regenerate the golden files of the seeded fixtures
	$(GO) test ./fixtures -update

vet: ## gofmt check, go vet and staticcheck (pinned in go.mod as a tool)
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

CONFORMANCE_BASE_URL ?= http://$(ADDR)
CONFORMANCE_PROFILE ?= contract

conformance: ## build the suite binary and run it against CONFORMANCE_BASE_URL (label filter CONFORMANCE_PROFILE, default contract; readonly: only specs that change nothing; CONFORMANCE_PARALLEL=N specs at once, default 4); JUnit, JSON and HTML reports in build/
	$(GO) test -c -trimpath -o build/conformance.test ./conformance
	CONFORMANCE_BASE_URL=$(CONFORMANCE_BASE_URL) CONFORMANCE_HTML=build/conformance.html $(if $(CONFORMANCE_PARALLEL),CONFORMANCE_PARALLEL=$(CONFORMANCE_PARALLEL)) \
	  $(if $(filter readonly,$(CONFORMANCE_PROFILE)),CONFORMANCE_PROFILE=readonly ./build/conformance.test,./build/conformance.test --ginkgo.label-filter='$(CONFORMANCE_PROFILE)') \
	  --ginkgo.junit-report=build/conformance-junit.xml --ginkgo.json-report=build/conformance.json

conformance-golden: ## regenerate the suite's golden spec list, self-test tables and conformance/rules.md (runs the whole self-test sweep)
	OPSAPI_FULL_TESTS=1 $(GO) test -parallel 6 -timeout 30m ./conformance/selftest -update

.PHONY: bench bench-load soak fuzz
BENCHTIME ?= 1s
FUZZTIME ?= 10s
SOAK ?= 60s

bench: ## in-process benchmarks of the pipeline, the bare handler, load at 32 connections, scale, start-up and idle RSS, 64 busy worlds per GC setting, RSS with 64 full journals, peak RSS of a 90 MB snapshot PUT and of 6000 idle connections, the proxy and the journals' scrubbing under distinct tokens, and the heap a loaded scenario file holds (docs/performance.md)
	$(GO) test -run '^$$' -bench 'BenchmarkPipeline|BenchmarkLoad|BenchmarkCardsCreateAt|BenchmarkCommentsListAt|BenchmarkStartInProcess' -benchtime $(BENCHTIME) ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkBinary' -benchtime 10x ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkMemoryPerRecord|BenchmarkJournalWorstCaseRSS|BenchmarkSnapshotPutPeakRSS|BenchmarkIdleConnectionsRSS' -benchtime 1x ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkWorlds' -benchtime 40000x ./mockserver
	$(GO) test -run '^$$' -bench 'BenchmarkExchangeDistinctTokens' -benchtime 3000x ./proxy
	$(GO) test -run '^$$' -bench 'BenchmarkKnown' ./internal/redact
	$(GO) test -run '^$$' -bench 'BenchmarkScenarioFileHeld' -benchtime 2x ./fixtures

bench-load: ## the mock from outside: wrk against the built binary and a bare net/http handler, median ratio (docs/performance.md)
	bash internal/benchload/bench-load.sh

soak: ## the soak test for $(SOAK): 64 clients mixing reads and writes, race detector on
	$(GO) test -race -count=1 -run '^TestSoak$$' -v ./mockserver -args -soak $(SOAK)

fuzz: ## run each fuzz target for $(FUZZTIME) (the seeds alone run in `make test`)
	bash .ci/fuzz-target $(GO) FuzzHandler ./mockserver $(FUZZTIME)
	bash .ci/fuzz-target $(GO) FuzzEnvelope ./mockserver $(FUZZTIME)
	bash .ci/fuzz-target $(GO) FuzzRedact ./internal/redact $(FUZZTIME)
	bash .ci/fuzz-target $(GO) FuzzLoadState ./reference $(FUZZTIME)
	bash .ci/fuzz-target $(GO) FuzzInvalidText ./spec $(FUZZTIME)

# Container targets (README, "Containers").
#
#   make image                  the mock as an image FROM scratch; prints the reference it built
#   make image-conformance      the suite binary as an image FROM scratch
#   make conformance-container  make image, then the suite against it (CONFORMANCE_IMAGE)
#   make conformance-image-run  both images on a private network: the suite image tests the mock image
#   make test-readme-container  the README's commands for the suite image against a mock on the host, as written
#
# No base image is pulled (FROM scratch, static binaries), so this works with no registry.
# Ryuk (the testcontainers reaper) cannot be pulled either: it is disabled and containers are
# terminated explicitly.

MOCK_IMAGE  ?= opsapi-mock:dev
SUITE_IMAGE ?= opsapi-conformance:dev
# Largest image `make image` accepts, in bytes (25 MB).
MOCK_IMAGE_MAX_BYTES ?= 25000000

CONTAINER_GO_BUILD = CGO_ENABLED=0 go build -trimpath -ldflags='-s -w -X main.commit=$(COMMIT)'
MOCK_IMAGE_CTX     = build/image/mockserver
SUITE_IMAGE_CTX    = build/image/conformance

export TESTCONTAINERS_RYUK_DISABLED ?= true

# container_build(tag,dockerfile,context) builds tag quietly, then removes the image the tag
# named before (if no container uses it, and saying so), so repeated builds (every `go test` of
# mockserver/container runs `make image`) do not pile up dangling images.
container_build = old=$$(docker image inspect --format '{{.Id}}' $(1) 2>/dev/null); \
	docker build --quiet --tag $(1) --file $(2) $(3) >/dev/null || exit 1; \
	new=$$(docker image inspect --format '{{.Id}}' $(1)); \
	if [ -n "$$old" ] && [ "$$old" != "$$new" ]; then \
	  echo "$(1) now names this build; the image it named before ($$(echo $$old | cut -c8-19)) is removed unless a container uses it (MOCK_IMAGE=… or SUITE_IMAGE=… builds under another tag)" >&2; \
	  docker image rm "$$old" >/dev/null 2>&1 || true; fi

.PHONY: image image-conformance conformance-container conformance-image-run test-readme-container

image: ## build the mock image FROM scratch (static binary, non-root, 0.0.0.0:4010); prints its reference
	@mkdir -p $(MOCK_IMAGE_CTX)/tmp $(MOCK_IMAGE_CTX)/data
	@$(CONTAINER_GO_BUILD) -o $(MOCK_IMAGE_CTX)/mockserver ./cmd/mockserver
	@$(call container_build,$(MOCK_IMAGE),cmd/mockserver/Dockerfile,$(MOCK_IMAGE_CTX))
	@size=$$(docker image inspect --format '{{.Size}}' $(MOCK_IMAGE)); \
	  echo "image $(MOCK_IMAGE): $$size bytes" >&2; \
	  if [ "$$size" -gt $(MOCK_IMAGE_MAX_BYTES) ]; then \
	    echo "image $(MOCK_IMAGE) is $$size bytes, over $(MOCK_IMAGE_MAX_BYTES)" >&2; exit 1; fi
	@echo $(MOCK_IMAGE)

image-conformance: ## build the suite image FROM scratch (go test -c); prints its reference
	@mkdir -p $(SUITE_IMAGE_CTX)/dirs/tmp $(SUITE_IMAGE_CTX)/dirs/reports
	@chmod 1777 $(SUITE_IMAGE_CTX)/dirs/tmp $(SUITE_IMAGE_CTX)/dirs/reports
	@CGO_ENABLED=0 go test -c -trimpath -ldflags='-s -w' -o build/conformance.test ./conformance
	@cp build/conformance.test $(SUITE_IMAGE_CTX)/conformance.test
	@$(call container_build,$(SUITE_IMAGE),conformance/Dockerfile,$(SUITE_IMAGE_CTX))
	@echo "image $(SUITE_IMAGE): $$(docker image inspect --format '{{.Size}}' $(SUITE_IMAGE)) bytes" >&2
	@echo $(SUITE_IMAGE)

conformance-container: image ## run the suite against the mock image, started with testcontainers-go; reports in build/reports/container
	@mkdir -p build/reports/container
	CONFORMANCE_IMAGE=$(MOCK_IMAGE) CONFORMANCE_REPORTS=$(CURDIR)/build/reports/container go test -count=1 ./conformance $(if $(GINKGO_ARGS),-args $(GINKGO_ARGS))
	@echo "reports (summary.txt, conformance.html, junit.xml, conformance.json) in build/reports/container" >&2

# A network and two containers named after this make process, removed whatever the outcome.
CONTAINER_RUN_ID = opsapi-conformance-$(shell echo $$PPID)

conformance-image-run: image image-conformance ## run the suite image against the mock image, both as plain containers (label filter CONFORMANCE_PROFILE, default contract); reports in build/reports
	@mkdir -p build/reports
	@docker network create $(CONTAINER_RUN_ID) >/dev/null
	@docker run --detach --rm --network $(CONTAINER_RUN_ID) --name $(CONTAINER_RUN_ID)-mock $(MOCK_IMAGE) \
	    --allowed-hosts $(CONTAINER_RUN_ID)-mock >/dev/null; \
	  docker run --rm --network $(CONTAINER_RUN_ID) --user "$$(id -u):$$(id -g)" -v "$(CURDIR)/build/reports:/reports" \
	    -e CONFORMANCE_BASE_URL=http://$(CONTAINER_RUN_ID)-mock:4010 -e CONFORMANCE_PROFILE='$(CONFORMANCE_PROFILE)' $(if $(CONFORMANCE_PARALLEL),-e CONFORMANCE_PARALLEL=$(CONFORMANCE_PARALLEL)) $(SUITE_IMAGE) \
	    $$([ -t 1 ] || echo -ginkgo.no-color) $(GINKGO_ARGS); \
	  status=$$?; \
	  docker rm --force $(CONTAINER_RUN_ID)-mock >/dev/null 2>&1; \
	  docker network rm $(CONTAINER_RUN_ID) >/dev/null 2>&1; \
	  exit $$status

test-readme-container: ## run the README's container commands as written (the suite image against a mock on the host); checks the exit status and /reports
	bash conformance/testdata/readme-container.sh

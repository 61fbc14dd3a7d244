# Container targets (issue 4), included from the Makefile.
#
#   make image                  the mock as an image FROM scratch; prints the reference it built
#   make image-conformance      the suite binary as an image FROM scratch
#   make conformance-container  make image, then the suite against it (CONFORMANCE_IMAGE)
#   make conformance-image-run  both images on a private network: the suite image tests the mock image
#
# No base image is pulled (FROM scratch, static binaries), so this works with no registry.
# Ryuk (the testcontainers reaper) cannot be pulled either: it is disabled and containers are
# terminated explicitly.

MOCK_IMAGE  ?= opsapi-mock:dev
SUITE_IMAGE ?= opsapi-conformance:dev
# Largest image `make image` accepts, in bytes (25 MB).
MOCK_IMAGE_MAX_BYTES ?= 25000000

CONTAINER_GO_BUILD = CGO_ENABLED=0 go build -trimpath -ldflags='-s -w'
MOCK_IMAGE_CTX     = build/image/mockserver
SUITE_IMAGE_CTX    = build/image/conformance

export TESTCONTAINERS_RYUK_DISABLED ?= true

# container_build(tag,dockerfile,context) builds tag quietly, then removes the image the tag
# named before (if no container uses it), so repeated builds (every `go test` of
# conformance/container runs `make image`) do not pile up dangling images.
container_build = old=$$(docker image inspect --format '{{.Id}}' $(1) 2>/dev/null); \
	docker build --quiet --tag $(1) --file $(2) $(3) >/dev/null || exit 1; \
	new=$$(docker image inspect --format '{{.Id}}' $(1)); \
	if [ -n "$$old" ] && [ "$$old" != "$$new" ]; then docker image rm "$$old" >/dev/null 2>&1 || true; fi

.PHONY: image image-conformance conformance-container conformance-image-run

image: ## build the mock image FROM scratch (static binary, non-root, 0.0.0.0:4010); prints its reference
	@mkdir -p $(MOCK_IMAGE_CTX)/tmp $(MOCK_IMAGE_CTX)/data
	@$(CONTAINER_GO_BUILD) -o $(MOCK_IMAGE_CTX)/mockserver ./cmd/mockserver
	@$(call container_build,$(MOCK_IMAGE),docker/mockserver.Dockerfile,$(MOCK_IMAGE_CTX))
	@size=$$(docker image inspect --format '{{.Size}}' $(MOCK_IMAGE)); \
	  echo "image $(MOCK_IMAGE): $$size bytes" >&2; \
	  if [ "$$size" -gt $(MOCK_IMAGE_MAX_BYTES) ]; then \
	    echo "image $(MOCK_IMAGE) is $$size bytes, over $(MOCK_IMAGE_MAX_BYTES)" >&2; exit 1; fi
	@echo $(MOCK_IMAGE)

image-conformance: ## build the suite image FROM scratch (go test -c); prints its reference
	@mkdir -p $(SUITE_IMAGE_CTX)/tmp $(SUITE_IMAGE_CTX)/reports
	@CGO_ENABLED=0 go test -c -trimpath -ldflags='-s -w' -o build/conformance.test ./conformance
	@cp build/conformance.test $(SUITE_IMAGE_CTX)/conformance.test
	@$(call container_build,$(SUITE_IMAGE),docker/conformance.Dockerfile,$(SUITE_IMAGE_CTX))
	@echo "image $(SUITE_IMAGE): $$(docker image inspect --format '{{.Size}}' $(SUITE_IMAGE)) bytes" >&2
	@echo $(SUITE_IMAGE)

conformance-container: image ## run the suite against the mock image, started with testcontainers-go
	CONFORMANCE_IMAGE=$(MOCK_IMAGE) go test -count=1 ./conformance $(if $(GINKGO_ARGS),-args $(GINKGO_ARGS))

# A network and two containers named after this make process, removed whatever the outcome.
CONTAINER_RUN_ID = opsapi-conformance-$(shell echo $$PPID)

conformance-image-run: image image-conformance ## run the suite image against the mock image, both as plain containers
	@docker network create $(CONTAINER_RUN_ID) >/dev/null
	@docker run --detach --rm --network $(CONTAINER_RUN_ID) --name $(CONTAINER_RUN_ID)-mock $(MOCK_IMAGE) >/dev/null; \
	  docker run --rm --network $(CONTAINER_RUN_ID) \
	    -e CONFORMANCE_BASE_URL=http://$(CONTAINER_RUN_ID)-mock:4010 $(SUITE_IMAGE) $(GINKGO_ARGS); \
	  status=$$?; \
	  docker rm --force $(CONTAINER_RUN_ID)-mock >/dev/null 2>&1; \
	  docker network rm $(CONTAINER_RUN_ID) >/dev/null 2>&1; \
	  exit $$status

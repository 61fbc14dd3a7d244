# The mock server, FROM scratch: one static binary (CGO_ENABLED=0), no shell, no base image to
# pull. Built by `make image` with the build context build/image/mockserver (see container.mk).
FROM scratch
LABEL org.opencontainers.image.title="opsapi-mock" \
      org.opencontainers.image.description="Stateful mock server of the opsapi HTTP API" \
      org.opencontainers.image.source="https://github.com/opsapi/mocktoolkit"
COPY mockserver /mockserver
# nonroot, as in distroless images; scratch has no /etc/passwd, so numeric ids.
USER 65532:65532
ENV MOCK_ADDR=0.0.0.0:4010
EXPOSE 4010
# Readiness: GET /healthz answers 200 once the mock serves requests.
ENTRYPOINT ["/mockserver", "--addr", "0.0.0.0:4010"]

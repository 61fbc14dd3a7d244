# The mock server, FROM scratch: one static binary (CGO_ENABLED=0), no shell, no base image to
# pull. Built by `make image` with the build context build/image/mockserver (see container.mk):
# the binary, and empty directories tmp/ and data/ that become /tmp and /data owned by the
# non-root user (scratch has neither; a named volume mounted on /data inherits the owner).
FROM scratch
LABEL org.opencontainers.image.title="opsapi-mock" \
      org.opencontainers.image.description="Stateful mock server of the opsapi HTTP API" \
      org.opencontainers.image.source="https://github.com/opsapi/mocktoolkit"
COPY mockserver /mockserver
COPY --chown=65532:65532 tmp /tmp
COPY --chown=65532:65532 data /data
# nonroot, as in distroless images; scratch has no /etc/passwd, so numeric ids.
USER 65532:65532
WORKDIR /data
ENV MOCK_ADDR=0.0.0.0:4010
EXPOSE 4010
# Readiness: GET /healthz answers 200 once the mock serves requests. Flags after the image name
# are appended (docker run opsapi-mock:dev --seed 7 --rate-limit 60).
ENTRYPOINT ["/mockserver", "--addr", "0.0.0.0:4010"]

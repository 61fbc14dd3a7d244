# The conformance suite, FROM scratch: the compiled test binary (`go test -c`, CGO_ENABLED=0).
# Built by `make image-conformance` with the build context build/image/conformance: the binary,
# and empty directories tmp/ and reports/ that become /tmp and /reports owned by the non-root user.
#
#   docker run --rm -e CONFORMANCE_BASE_URL=http://mock.example:4010 opsapi-conformance:dev \
#     -ginkgo.label-filter=contract -ginkgo.junit-report=/reports/junit.xml
#
# Reports go to /reports: mount a named volume there, or a host directory writable by uid 65532.
FROM scratch
LABEL org.opencontainers.image.title="opsapi-conformance" \
      org.opencontainers.image.description="Conformance suite of the opsapi HTTP API" \
      org.opencontainers.image.source="https://github.com/opsapi/mocktoolkit"
COPY conformance.test /conformance.test
COPY --chown=65532:65532 tmp /tmp
COPY --chown=65532:65532 reports /reports
USER 65532:65532
WORKDIR /reports
ENTRYPOINT ["/conformance.test"]

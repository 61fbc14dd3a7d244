# The conformance suite, FROM scratch: the compiled test binary (`go test -c`, CGO_ENABLED=0).
# Built by `make image-conformance` with the build context build/image/conformance.
#
#   docker run --rm -e CONFORMANCE_BASE_URL=http://mock.example:4010 opsapi-conformance:dev \
#     -ginkgo.label-filter=contract -ginkgo.junit-report=/reports/junit.xml
#
# Reports go to /reports: mount a directory writable by uid 65532 there.
FROM scratch
LABEL org.opencontainers.image.title="opsapi-conformance" \
      org.opencontainers.image.description="Conformance suite of the opsapi HTTP API" \
      org.opencontainers.image.source="https://github.com/opsapi/mocktoolkit"
COPY conformance.test /conformance.test
USER 65532:65532
WORKDIR /reports
ENTRYPOINT ["/conformance.test"]

#!/usr/bin/env bash
# Runs the README's commands for the suite image against a mock on the host exactly as written
# (README, "Containers": the blocks after <!-- readme-container:mock --> and
# <!-- readme-container:suite -->), then checks that the run passed and that /reports, bind-mounted
# from build/reports, got its files. Then checks that a /reports the container cannot write to is
# a warning, not a failed verdict. Needs Docker and Go; run from anywhere: `make test-readme-container`.
#
# Both blocks run with port 4010 as written when it is free; when something already listens on it
# (the README's own dev mock, say), with the first free port after it, said up front.
# README_CONTAINER_PORT=N asks for port N (taken: a failure, before anything runs); nothing else in
# the commands changes. --print-port prints the port a run would use and exits.
set -euo pipefail
cd "$(dirname "$0")/../.."

# port_taken succeeds when something accepts connections on 127.0.0.1:$1.
port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if [ -n "${README_CONTAINER_PORT:-}" ]; then
  port="$README_CONTAINER_PORT"
  if port_taken "$port"; then
    echo "readme-container: port $port (README_CONTAINER_PORT) is taken; name a free port, or unset it to pick one" >&2
    exit 1
  fi
else
  port=4010
  while port_taken "$port"; do port=$((port + 1)); done
  if [ "$port" != 4010 ] && [ "${1:-}" != --print-port ]; then
    echo "readme-container: port 4010 is taken (a mock of your own?); running the README's blocks with port $port"
  fi
fi
if [ "${1:-}" = --print-port ]; then
  echo "$port"
  exit 0
fi

# block <marker> prints the fenced code block that follows the marker line in README.md.
block() {
  awk -v marker="<!-- readme-container:$1 -->" '
    $0 == marker { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' README.md | sed "s/4010/$port/g"
}

mock_cmds="$(block mock)"
suite_cmds="$(block suite)"
[ -n "$mock_cmds" ] && [ -n "$suite_cmds" ] || { echo "readme-container: README.md lacks the readme-container blocks" >&2; exit 1; }

if ! docker info >/dev/null 2>&1; then
  echo "readme-container: no Docker engine reachable" >&2
  exit 1
fi

log="$(mktemp)"
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ]; then
    kill -TERM -- "-$mock_pid" 2>/dev/null || true # the process group of the mock block (go run and the mock)
    wait "$mock_pid" 2>/dev/null || true
  fi
  rm -f "$log"
}
trap cleanup EXIT

echo "readme-container: the mock block:"
printf '  %s\n' "$mock_cmds"
set -m # the mock block runs in a process group of its own (its id is $!), so cleanup stops go run and the mock
bash -c "$mock_cmds" >"$log" 2>&1 &
mock_pid=$!
set +m
for _ in $(seq 1 300); do
  curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break
  if ! kill -0 "$mock_pid" 2>/dev/null; then
    echo "readme-container: the mock stopped:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.2
done
curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" || { echo "readme-container: the mock did not answer on port $port" >&2; cat "$log" >&2; exit 1; }

rm -rf build/reports
echo "readme-container: the suite block:"
printf '  %s\n' "$suite_cmds"
status=0
bash -euo pipefail -c "$suite_cmds" || status=$?
if [ "$status" != 0 ]; then
  echo "readme-container: FAIL: the README's suite commands exited $status" >&2
  exit 1
fi
for f in junit.xml conformance.json conformance.html summary.txt; do
  if [ ! -s "build/reports/$f" ]; then
    echo "readme-container: FAIL: build/reports/$f is missing or empty after the README's commands" >&2
    exit 1
  fi
  if [ "$(stat -c %u "build/reports/$f")" != "$(id -u)" ]; then
    echo "readme-container: FAIL: build/reports/$f is not owned by the invoking user $(id -u)" >&2
    exit 1
  fi
done
echo "readme-container: the README's commands passed and wrote $(ls build/reports | tr '\n' ' ')"

# A /reports the container cannot write to (mounted read-only) warns and keeps the verdict.
ro="$(mktemp -d)"
out="$(mktemp)"
status=0
docker run --rm --user "$(id -u):$(id -g)" -v "$ro:/reports:ro" \
  --add-host=host.docker.internal:host-gateway \
  -e CONFORMANCE_BASE_URL="http://host.docker.internal:$port" \
  opsapi-conformance:dev -ginkgo.no-color -ginkgo.label-filter='contract && op:tagsList && !spends:ratelimit' >"$out" 2>&1 || status=$?
if [ "$status" != 0 ] || ! grep -q "conformance: warning: the JUnit report cannot be written to /reports/junit.xml" "$out"; then
  echo "readme-container: FAIL: with a read-only /reports the run exited $status (want 0, with a warning per report):" >&2
  tail -40 "$out" >&2
  rm -rf "$ro" "$out"
  exit 1
fi
rm -rf "$ro" "$out"
echo "readme-container: a read-only /reports is a warning, and the verdict stands"

# Run as a user the image does not know (a CI runner's uid 1001, say): its /tmp and /reports are
# writable by anyone. The legacy builder made them 0755, and the run exited 1 on the temporary
# directories of the package's own tests with every spec passed.
out="$(mktemp)"
status=0
docker run --rm --user 4321:4321 \
  --add-host=host.docker.internal:host-gateway \
  -e CONFORMANCE_BASE_URL="http://host.docker.internal:$port" \
  opsapi-conformance:dev -ginkgo.no-color -ginkgo.label-filter='contract && op:tagsList && !spends:ratelimit' >"$out" 2>&1 || status=$?
if [ "$status" != 0 ] || grep -q "permission denied" "$out"; then
  echo "readme-container: FAIL: run as user 4321 the suite image exited $status (want 0, nothing denied):" >&2
  grep -m5 "permission denied\|FAIL" "$out" >&2 || tail -20 "$out" >&2
  rm -f "$out"
  exit 1
fi
rm -f "$out"
echo "readme-container: run as a user it does not know, the suite image writes its temporary files and reports"

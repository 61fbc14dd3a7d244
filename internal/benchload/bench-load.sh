#!/usr/bin/env bash
# make bench-load: the mock's throughput from outside, as a user measures it (docs/performance.md).
#
# Builds the mock binary and the bare yardstick (internal/benchload/bare), starts the mock with
# its default flags and its logs sent to /dev/null, then runs wrk (-t2 -c32, keep-alive, POST
# comments/list, a page of 15) against the bare handler and the mock alternately, ROUNDS rounds of
# DURATION each, and prints both req/s, p50/p99 and the median ratio. One flag differs from the
# defaults: --rate-limit is raised, since the default 1000 requests a minute per user would turn
# almost every measured answer into a 429; the run fails if any answer is not 2xx.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5s}
MOCK_PORT=${MOCK_PORT:-4710}
BARE_PORT=${BARE_PORT:-4711}
out=build/bench-load
mkdir -p "$out"

if ! command -v wrk >/dev/null; then
  echo "bench-load: installing wrk from Debian's packages" >&2
  apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi
command -v jq >/dev/null || { apt-get update -qq && apt-get install -y -qq jq >/dev/null; }

go build -trimpath -o "$out/mockserver" ./cmd/mockserver
go build -trimpath -o "$out/bare" ./internal/benchload/bare

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

wait_up() {
  for _ in $(seq 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.05; done
  echo "bench-load: $1 did not answer" >&2; return 1
}

mock=http://127.0.0.1:$MOCK_PORT
"$out/mockserver" --addr 127.0.0.1:$MOCK_PORT --rate-limit 1000000000 >/dev/null 2>&1 &
mock_pid=$!
pids+=($mock_pid)
wait_up "$mock/healthz"

manifest=$(curl -fs "$mock/__mock/fixtures")
creds=$(jq -c '.users.member | {email, password}' <<<"$manifest")
token=$(curl -fs "$mock/v1/authenticate" -H 'Content-Type: application/json' -d "$creds" | jq -r .data.token)
card=$(jq -r .operations.card_id <<<"$manifest")
export BENCH_BODY="{\"card_id\":$card,\"per_page\":15}"
path=/services/operations/v1/operations/comments/list
curl -fs "$mock$path" -H 'Content-Type: application/json' -H "Authorization: Bearer $token" -d "$BENCH_BODY" >"$out/answer.json"
test "$(jq -r .error "$out/answer.json")" = false

"$out/bare" --addr 127.0.0.1:$BARE_PORT --answer "$out/answer.json" >/dev/null 2>&1 &
bare_pid=$!
pids+=($bare_pid)
for _ in $(seq 100); do curl -fs -X POST "http://127.0.0.1:$BARE_PORT$path" -d "$BENCH_BODY" >/dev/null 2>&1 && break; sleep 0.05; done

# cputicks PID: user+system CPU time of a process, in clock ticks.
cputicks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

# run NAME URL TOKEN PID: one wrk round; prints "req/s p50 p99 cpu-µs-per-request" (the CPU time
# the server process spent per answered request, which other load on the machine barely moves).
run() {
  local log="$out/wrk-$1.txt" before after
  before=$(cputicks "$4")
  BENCH_TOKEN=$3 wrk -t2 -c32 -d"$DURATION" --latency -s internal/benchload/post.lua "$2$path" >"$log"
  after=$(cputicks "$4")
  if grep -q 'Non-2xx' "$log"; then
    echo "bench-load: $1 answered non-2xx statuses:" >&2; cat "$log" >&2; exit 1
  fi
  awk -v t=$((after - before)) -v hz="$hz" '/requests in/ {n=$1} /Requests\/sec/ {r=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2}
    END {printf "%s %s %s %.1f\n", r, p50, p99, t / hz * 1e6 / n}' "$log"
}

bare_rates=(); mock_rates=(); bare_cpu=(); mock_cpu=()
printf '%-6s %-5s %12s %10s %10s %14s\n' round what req/s p50 p99 cpu-µs/req
for i in $(seq "$ROUNDS"); do
  read -r r p50 p99 c < <(run bare "http://127.0.0.1:$BARE_PORT" "" "$bare_pid")
  printf '%-6s %-5s %12s %10s %10s %14s\n' "$i" bare "$r" "$p50" "$p99" "$c"; bare_rates+=("$r"); bare_cpu+=("$c")
  read -r r p50 p99 c < <(run mock "$mock" "$token" "$mock_pid")
  printf '%-6s %-5s %12s %10s %10s %14s\n' "$i" mock "$r" "$p50" "$p99" "$c"; mock_rates+=("$r"); mock_cpu+=("$c")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
bm=$(median "${bare_rates[@]}"); mm=$(median "${mock_rates[@]}")
bc=$(median "${bare_cpu[@]}"); mc=$(median "${mock_cpu[@]}")
awk -v b="$bm" -v m="$mm" -v bc="$bc" -v mc="$mc" 'BEGIN {
  printf "median: bare %.0f req/s, mock %.0f req/s, ratio %.2f (CPU per request: bare %.1f µs, mock %.1f µs, ratio %.2f)\n", b, m, m/b, bc, mc, bc/mc }'

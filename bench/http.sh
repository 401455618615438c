#!/usr/bin/env bash
# /v1/hu requests/s as a ratio of /healthz requests/s, same gunicorn configuration (deploy/gunicorn.conf.py,
# overridable by its environment variables), loopback only. Runs alternate between the two endpoints for
# ROUNDS rounds so that drift on a shared machine hits both alike; medians are reported.
# Usage: bench/http.sh [seconds per run, default 5] [rounds, default 5] [client connections, default 4]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
RUN_SECONDS=${1:-5}
ROUNDS=${2:-5}
CONNECTIONS=${3:-4}
PORT=${BENCH_PORT:-18731}
BASE=http://127.0.0.1:$PORT
tmp=$(mktemp -d)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$ROOT"
BIND=127.0.0.1:$PORT GUNICORN_MAX_REQUESTS=${GUNICORN_MAX_REQUESTS:-0} "$ROOT/.venv/bin/gunicorn" --config deploy/gunicorn.conf.py "service.app:create_app()" \
  >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
"$PY" bench/hu_bodies.py 200 >"$tmp/bodies.json"
"$PY" bench/load.py "$BASE" --path /v1/hu --body-file "$tmp/bodies.json" --seconds 2 --connections "$CONNECTIONS" >/dev/null
# CPU seconds used so far by the gunicorn workers (utime + stime from /proc), to report server CPU per request.
# Workers are not recycled during the runs (GUNICORN_MAX_REQUESTS=0 below), so no worker's CPU goes unseen.
server_cpu() { local t=0 p c; for p in $(pgrep -P "$server"); do
    c=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) || continue; t=$((t + ${c:-0})); done
  echo "$t"; }
measure() {  # path [body file]
  local before after
  before=$(server_cpu)
  "$PY" bench/load.py "$BASE" --path "$1" ${2:+--body-file "$2"} --seconds "$RUN_SECONDS" --connections "$CONNECTIONS" \
    >"$tmp/one"
  after=$(server_cpu)
  "$PY" -c "import json,sys; r=json.load(open(sys.argv[1])); r['server_cpu_s']=(int(sys.argv[3])-int(sys.argv[2]))/$(getconf CLK_TCK); print(json.dumps(r))" \
    "$tmp/one" "$before" "$after" >>"$tmp/runs"
}
for round in $(seq 1 "$ROUNDS"); do
  measure /healthz
  measure /v1/hu "$tmp/bodies.json"
done
"$PY" - "$tmp/runs" "$CONNECTIONS" "$RUN_SECONDS" <<'PY'
import json, os, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
conf = (f"{os.environ.get('WEB_CONCURRENCY', 2 * os.cpu_count())} workers "
        f"({os.environ.get('GUNICORN_WORKER_CLASS', 'gevent')}, {os.environ.get('GUNICORN_THREADS', '1')} threads if gthread)")
print(f"gunicorn {conf}; {sys.argv[2]} keep-alive client processes; {len(runs) // 2} rounds of {sys.argv[3]} s per endpoint")
by = {p: [r for r in runs if r["path"] == p] for p in ("/healthz", "/v1/hu")}
for path, rs in by.items():
    rps = [r["rps"] for r in rs]
    print(f"{path:<10} median {statistics.median(rps):7.0f} req/s (runs {min(rps):.0f}-{max(rps):.0f})  "
          f"p50 {statistics.median(r['p50_ms'] for r in rs):.2f} ms  p99 {statistics.median(r['p99_ms'] for r in rs):.2f} ms"
          f"  errors {sum(r['errors'] for r in rs)}")
cpu = {p: statistics.median(r["server_cpu_s"] / r["requests"] * 1e6 for r in rs) for p, rs in by.items()}
print(f"server CPU per request (all workers): /healthz {cpu['/healthz']:.0f} us, /v1/hu {cpu['/v1/hu']:.0f} us "
      f"-> CPU ratio {cpu['/healthz'] / cpu['/v1/hu']:.2f}")
ratio = statistics.median(r["rps"] for r in by["/v1/hu"]) / statistics.median(r["rps"] for r in by["/healthz"])
pairs = [u["rps"] / h["rps"] for h, u in zip(by["/healthz"], by["/v1/hu"])]
print(f"ratio /v1/hu : /healthz = {ratio:.2f} (per round {min(pairs):.2f}-{max(pairs):.2f}; "
      f"target >= 0.70: {'met' if ratio >= 0.7 else 'NOT met'})")
PY

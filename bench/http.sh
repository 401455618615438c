#!/usr/bin/env bash
# /v1/hu requests/s as a ratio of /healthz requests/s, same gunicorn configuration, loopback only.
# Usage: bench/http.sh [seconds per run, default 10] [connections, default 4]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
SECONDS_PER_RUN=${1:-10}
CONNECTIONS=${2:-4}
PORT=${BENCH_PORT:-18731}
BASE=http://127.0.0.1:$PORT
tmp=$(mktemp -d)
cleanup() { [ -n "${server:-}" ] && kill "$server" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
cd "$ROOT"
BIND=127.0.0.1:$PORT "$ROOT/.venv/bin/gunicorn" --config deploy/gunicorn.conf.py "service.app:create_app()" \
  >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && break; sleep 0.2; done
"$PY" bench/hu_bodies.py 200 >"$tmp/bodies.json"
# Warm-up, then the two measured runs.
"$PY" bench/load.py "$BASE" --path /v1/hu --body-file "$tmp/bodies.json" --seconds 2 --connections "$CONNECTIONS" >/dev/null
health=$("$PY" bench/load.py "$BASE" --path /healthz --seconds "$SECONDS_PER_RUN" --connections "$CONNECTIONS")
hu=$("$PY" bench/load.py "$BASE" --path /v1/hu --body-file "$tmp/bodies.json" --seconds "$SECONDS_PER_RUN" \
  --connections "$CONNECTIONS")
"$PY" - "$health" "$hu" "$CONNECTIONS" <<'PY'
import json, os, sys
h, u, c = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
print(f"gunicorn {os.environ.get('WEB_CONCURRENCY', os.cpu_count())} workers (gthread), {c} keep-alive client processes, loopback")
for r in (h, u):
    print(f"{r['path']:<10} {r['rps']:8.0f} req/s  p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  errors {r['errors']}")
ratio = u["rps"] / h["rps"]
print(f"ratio /v1/hu : /healthz = {ratio:.2f}  (target >= 0.70: {'met' if ratio >= 0.7 else 'NOT met'})")
PY

#!/usr/bin/env bash
# The service's /healthz and /v1/hu requests/s against a floor: a bare Flask app (bench/bare_app.py) answering
# /healthz on the same gunicorn configuration (deploy/gunicorn.conf.py, overridable by its environment variables),
# loopback only. Targets: /healthz >= 0.9 of the floor, /v1/hu >= 0.7 of it. Runs alternate between the three for
# ROUNDS rounds so that drift on a shared machine hits them alike; medians are reported. The load comes from wrk, a C
# client, so the ratios measure the servers, not a client's parsing of their headers. Needs wrk (apt-get install wrk).
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
cleanup() { for p in ${server:-} ${floor:-}; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
FLOOR=http://127.0.0.1:$((PORT + 1))
trap cleanup EXIT
cd "$ROOT"
command -v wrk >/dev/null || { echo "bench/http.sh needs wrk (apt-get install wrk)" >&2; exit 2; }
BIND=127.0.0.1:$PORT GUNICORN_MAX_REQUESTS=${GUNICORN_MAX_REQUESTS:-0} "$ROOT/.venv/bin/gunicorn" --config deploy/gunicorn.conf.py "service.app:create_app()" \
  >"$tmp/server.log" 2>&1 &
server=$!
BIND=127.0.0.1:$((PORT + 1)) GUNICORN_MAX_REQUESTS=${GUNICORN_MAX_REQUESTS:-0} "$ROOT/.venv/bin/gunicorn" --config deploy/gunicorn.conf.py \
  --pythonpath bench "bare_app:create_app()" >"$tmp/floor.log" 2>&1 &
floor=$!
for _ in $(seq 1 100); do curl -fs "$BASE/healthz" >/dev/null 2>&1 && curl -fs "$FLOOR/healthz" >/dev/null 2>&1 && break
  sleep 0.2; done
"$PY" - "$tmp" <<'PY'
import json, subprocess, sys
bodies = json.loads(subprocess.check_output([sys.executable, "bench/hu_bodies.py", "200"]))
with open(f"{sys.argv[1]}/hu.lua", "w") as f:  # wrk sends the 200 hands in turn
    f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nlocal bodies = {\n')
    f.write(",\n".join(json.dumps(json.dumps(b)) for b in bodies))
    f.write("}\nlocal i = 0\nrequest = function()\n  i = i % #bodies + 1\n"
            "  return wrk.format(nil, nil, nil, bodies[i])\nend\n")
PY
wrk -t1 -c"$CONNECTIONS" -d2s -s "$tmp/hu.lua" "$BASE/v1/hu" >/dev/null  # warm every process
wrk -t1 -c"$CONNECTIONS" -d2s "$FLOOR/healthz" >/dev/null
# CPU seconds used so far by the gunicorn workers (utime + stime from /proc), to report server CPU per request.
# Workers are not recycled during the runs (GUNICORN_MAX_REQUESTS=0 above), so no worker's CPU goes unseen.
server_cpu() { local t=0 p c; for p in $(pgrep -P "$server") $(pgrep -P "$floor"); do
    c=$(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null) || continue; t=$((t + ${c:-0})); done
  echo "$t"; }
measure() {  # name url [wrk script]
  local before after
  before=$(server_cpu)
  wrk -t1 -c"$CONNECTIONS" -d"${RUN_SECONDS}s" --latency ${3:+-s "$3"} "$2" >"$tmp/wrk.out"
  after=$(server_cpu)
  "$PY" - "$tmp/wrk.out" "$before" "$after" "$1" "$(getconf CLK_TCK)" >>"$tmp/runs" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
def ms(v):
    n, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", v).groups()
    return float(n) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
requests = int(re.search(r"(\d+) requests in", text).group(1))
errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
errors += int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", text)) else 0
print(json.dumps({"name": sys.argv[4], "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)),
                  "requests": requests, "errors": errors,
                  "p50_ms": ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1)),
                  "p99_ms": ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1)),
                  "server_cpu_s": (int(sys.argv[3]) - int(sys.argv[2])) / int(sys.argv[5])}))
PY
}
for round in $(seq 1 "$ROUNDS"); do
  measure floor "$FLOOR/healthz"
  measure /healthz "$BASE/healthz"
  measure /v1/hu "$BASE/v1/hu" "$tmp/hu.lua"
done
"$PY" - "$tmp/runs" "$CONNECTIONS" "$RUN_SECONDS" <<'PY'
import json, os, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
conf = (f"{os.environ.get('WEB_CONCURRENCY', os.cpu_count())} workers "
        f"({os.environ.get('GUNICORN_WORKER_CLASS', 'gevent')}, {os.environ.get('GUNICORN_THREADS', '1')} threads if gthread)")
names = ("floor", "/healthz", "/v1/hu")
print(f"gunicorn {conf}; {sys.argv[2]} keep-alive connections (wrk); {len(runs) // 3} rounds of {sys.argv[3]} s each; "
      "floor: a bare Flask app's /healthz (bench/bare_app.py)")
by = {n: [r for r in runs if r["name"] == n] for n in names}
for name, rs in by.items():
    rps = [r["rps"] for r in rs]
    print(f"{name:<10} median {statistics.median(rps):7.0f} req/s (runs {min(rps):.0f}-{max(rps):.0f})  "
          f"p50 {statistics.median(r['p50_ms'] for r in rs):.2f} ms  p99 {statistics.median(r['p99_ms'] for r in rs):.2f} ms"
          f"  server CPU {statistics.median(r['server_cpu_s'] / r['requests'] * 1e6 for r in rs):.0f} us/request"
          f"  errors {sum(r['errors'] for r in rs)}")
floor = statistics.median(r["rps"] for r in by["floor"])
for name, target in (("/healthz", 0.9), ("/v1/hu", 0.7)):
    ratio = statistics.median(r["rps"] for r in by[name]) / floor
    rounds = [r["rps"] / f["rps"] for f, r in zip(by["floor"], by[name])]
    print(f"{name} : floor = {ratio:.2f} (per round {min(rounds):.2f}-{max(rounds):.2f}; "
          f"target >= {target:.2f}: {'met' if ratio >= target else 'NOT met'})")
PY
